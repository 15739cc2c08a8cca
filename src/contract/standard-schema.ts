import { unescapePointerToken } from '../json/json-pointer.js';
import { RESULT_CONTRACT_SCHEMA } from './contract-schema.js';
import { VerdictError } from './errors.js';
import type { ResultContract } from './types.js';
import { validateResult } from './validate-result.js';

// The Standard Schema v1 and Standard JSON Schema v1 interfaces (standardschema.dev), declared here so the
// root export needs no package at all; a type test proves them assignable to `@standard-schema/spec`.

/** One problem found by a Standard Schema validator. */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where, as property keys from the root. */
  readonly path?: ReadonlyArray<PropertyKey>;
}

/** What a Standard Schema `validate` returns. */
export type StandardResult<T> =
  | { readonly value: T; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** The `~standard` property of a schema that is both a Standard Schema and a Standard JSON Schema. */
export interface StandardContractProps {
  /** Version of the Standard Schema interface. */
  readonly version: 1;
  /** Who implements the schema. */
  readonly vendor: 'verdict';
  /** Validates a parsed value against the contract. */
  readonly validate: (value: unknown) => StandardResult<ResultContract>;
  /** The JSON Schema of the contract for a given target dialect. */
  readonly jsonSchema: {
    readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    readonly output: (options: { readonly target: string }) => Record<string, unknown>;
  };
  /** The inferred input and output types. */
  readonly types?: { readonly input: unknown; readonly output: ResultContract } | undefined;
}

/** A Standard Schema object for QZX Result Contract v1. */
export interface StandardContractSchema {
  /** The Standard Schema and Standard JSON Schema properties. */
  readonly '~standard': StandardContractProps;
}

function pointerToPath(pointer: string): PropertyKey[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      const key = unescapePointerToken(token);
      return /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
    });
}

function jsonSchemaFor(options: { readonly target: string }): Record<string, unknown> {
  const copy = structuredClone(RESULT_CONTRACT_SCHEMA) as Record<string, unknown>;
  if (options.target === 'draft-2020-12') return copy;
  // The schema uses only keywords that draft-07 also has; only the dialect URI changes.
  if (options.target === 'draft-07') return { ...copy, $schema: 'http://json-schema.org/draft-07/schema#' };
  throw new VerdictError(
    'not_supported',
    `The contract schema is available for draft-2020-12 and draft-07, not ${options.target}.`,
  );
}

/**
 * QZX Result Contract v1 as a Standard Schema (`~standard`), for libraries that accept one
 * (tRPC, Hono's validator, TanStack Form, the MCP v2 SDK).
 * @example
 * const r = resultContractSchema['~standard'].validate({ success: true, message: 'ok' });
 * if (!r.issues) console.log(r.value.message);
 */
export const resultContractSchema: StandardContractSchema = Object.freeze({
  '~standard': Object.freeze({
    version: 1 as const,
    vendor: 'verdict' as const,
    validate(value: unknown): StandardResult<ResultContract> {
      const report = validateResult(value);
      if (report.valid) return { value: report.value };
      return {
        issues: report.violations.map((v) => ({
          message: `${v.code}: ${v.message}`,
          path: pointerToPath(v.path),
        })),
      };
    },
    jsonSchema: Object.freeze({ input: jsonSchemaFor, output: jsonSchemaFor }),
  }),
});
