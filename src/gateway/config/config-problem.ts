import type { z } from 'zod';
import { duplicateMemberFinding } from '../../contract/findings.js';
import { pointerOf } from '../../json/json-pointer.js';
import type { DuplicateMember } from '../../json/types.js';

// How the gateway says what is wrong with a document it reads (its configuration, a request body, prices): one
// JSON Pointer and one sentence per problem.

/** One problem in a configuration: where (JSON Pointer) and what. */
export interface ConfigProblem {
  /** JSON Pointer of the offending member (`""` for the whole document). */
  path: string;
  /** One sentence saying what is wrong. */
  message: string;
}

/** Every issue of a failed zod parse as a problem with its JSON Pointer; unknown members get one each. */
export function problemsOf(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: pointerOf(...issue.path, key),
          message: `Unknown member "${key}".`,
        }))
      : [{ path: pointerOf(...issue.path), message: issue.message }],
  );
}

/** Each member name a strict read found twice, as a problem said as every validator says it (the object's pointer). */
export function duplicateProblems(duplicates: readonly DuplicateMember[]): ConfigProblem[] {
  return duplicates.map((duplicate) => {
    const { path, message } = duplicateMemberFinding(duplicate);
    return { path, message };
  });
}
