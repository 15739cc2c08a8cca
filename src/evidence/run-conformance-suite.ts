import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import {
  duplicateMemberFinding,
  type Finding,
  formatFinding,
  isJsonObject,
  readErrorFinding,
} from '../contract/findings.js';
import type { ResultContract } from '../contract/types.js';
import { isNonBlankString, validateResult } from '../contract/validate-result.js';
import { readJson } from '../json/read-json.js';
import type { DuplicateMember } from '../json/types.js';
import { validateMcpResult } from '../mcp/validate-mcp-result.js';
import { type EvidenceProfile, isEvidenceProfile } from './codes.js';
import { isStrictlyInside } from './is-strictly-inside.js';
import { readEvidenceFile } from './read-evidence-file.js';

/** `error_code` values of a conformance suite run. */
export const SUITE_ERROR_CODES = {
  conformance_suite_invalid: 'The manifest is unreadable or malformed, or a case path leaves its folder.',
  conformance_suite_failed: 'At least one case did not get its expected verdict.',
} as const;

/** Options of {@link runConformanceSuite}. */
export interface RunSuiteOptions {
  /** Directory a relative manifest path resolves against; default `process.cwd()`. */
  cwd?: string;
}

/** The outcome of one suite case, as reported in `details.cases`. */
export interface SuiteCaseOutcome {
  /** The case id. */
  id: string;
  /** The case file, relative to the manifest. */
  file: string;
  /** The profile the case ran under (`core` unless the case names an MCP profile). */
  profile: EvidenceProfile;
  /** The verdict the manifest expects. */
  expected_conformant: boolean;
  /** The verdict verdict reached. */
  actual_conformant: boolean;
  /** True when the verdict (and the codes, when listed) match. */
  passed: boolean;
  /** The distinct violation codes found, sorted. */
  violation_codes: string[];
  /** The codes the manifest expects, when it lists them. */
  expected_violation_codes?: string[];
  /** Prose the manifest gives (the reference format): shown, never compared. */
  expected_violations?: string[];
  /** Every violation, each starting with its code. */
  violations: string[];
}

interface SuiteCase {
  id: string;
  file: string;
  path: string;
  expected_conformant: boolean;
  expected_violation_codes?: string[];
  expected_violations?: string[];
  profile: EvidenceProfile;
  toolDefinition?: { file: string; path: string };
}

function invalid(manifest: string, problems: string[]): ResultContract {
  return {
    success: false,
    message: `The conformance suite ${JSON.stringify(manifest)} is invalid: ${problems.length} problem${problems.length === 1 ? '' : 's'}.`,
    error: problems.join('; '),
    error_code: 'conformance_suite_invalid',
    details: { manifest, violations: problems },
  };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Resolves a case path and refuses one that leaves the manifest's folder, also through a symlink. */
function confine(root: string, file: string): { path: string } | { problem: string } {
  if (isAbsolute(file)) return { problem: 'must be relative to the manifest' };
  const path = resolve(root, file);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { problem: 'names no readable file' };
  }
  if (!isStrictlyInside(root, real)) {
    return { problem: "leaves the manifest's folder" };
  }
  return { path };
}

function parseCases(manifest: Record<string, unknown>, root: string, problems: string[]): SuiteCase[] {
  const problem = (path: string, message: string) => {
    problems.push(formatFinding({ code: 'conformance_suite_invalid', path, message }));
  };
  if (manifest.schema_version !== 1) problem('/schema_version', 'schema_version must be 1.');
  if (manifest.contract !== CONTRACT_SCHEMA_URL)
    problem('/contract', `contract must be ${CONTRACT_SCHEMA_URL}.`);
  if (!Array.isArray(manifest.cases) || manifest.cases.length === 0) {
    problem('/cases', 'cases must be a non-empty array.');
    return [];
  }
  const seen = new Set<string>();
  const cases: SuiteCase[] = [];
  manifest.cases.forEach((entry: unknown, index: number) => {
    const at = `/cases/${index}`;
    if (!isJsonObject(entry)) {
      problem(at, 'A case must be an object.');
      return;
    }
    const before = problems.length;
    const { id, file, expected_conformant, expected_violation_codes, expected_violations } = entry;
    if (!isNonBlankString(id)) problem(`${at}/id`, 'id must be a non-blank string.');
    else if (seen.has(id)) problem(`${at}/id`, `id ${JSON.stringify(id)} is used twice.`);
    else seen.add(id);
    let path = '';
    if (!isNonBlankString(file)) problem(`${at}/file`, 'file must be a non-blank string.');
    else {
      const confined = confine(root, file);
      if ('problem' in confined) problem(`${at}/file`, `${JSON.stringify(file)} ${confined.problem}.`);
      else path = confined.path;
    }
    if (typeof expected_conformant !== 'boolean') {
      problem(`${at}/expected_conformant`, 'expected_conformant must be a boolean.');
    }
    if (expected_violation_codes !== undefined && !isStringArray(expected_violation_codes)) {
      problem(`${at}/expected_violation_codes`, 'expected_violation_codes must be an array of strings.');
    }
    if (expected_violations !== undefined && !isStringArray(expected_violations)) {
      problem(`${at}/expected_violations`, 'expected_violations must be an array of strings.');
    }
    const profile = entry.profile ?? 'core';
    if (!isEvidenceProfile(profile))
      problem(`${at}/profile`, `profile ${JSON.stringify(profile)} is not supported.`);
    let toolDefinition: SuiteCase['toolDefinition'];
    if (entry.tool_definition !== undefined) {
      const toolFile = entry.tool_definition;
      if (!isNonBlankString(toolFile) || profile === 'core') {
        problem(
          `${at}/tool_definition`,
          'tool_definition must be a file name, and only with an MCP profile.',
        );
      } else {
        const confined = confine(root, toolFile);
        if ('problem' in confined)
          problem(`${at}/tool_definition`, `${JSON.stringify(toolFile)} ${confined.problem}.`);
        else toolDefinition = { file: toolFile, path: confined.path };
      }
    }
    if (problems.length > before) return;
    cases.push({
      id: id as string,
      file: file as string,
      path,
      expected_conformant: expected_conformant as boolean,
      profile: profile as EvidenceProfile,
      ...(expected_violation_codes === undefined
        ? {}
        : { expected_violation_codes: expected_violation_codes as string[] }),
      ...(expected_violations === undefined ? {} : { expected_violations: expected_violations as string[] }),
      ...(toolDefinition === undefined ? {} : { toolDefinition }),
    });
  });
  return cases;
}

function readJsonFile(path: string): { value: unknown; duplicates: DuplicateMember[] } | Finding {
  const file = readEvidenceFile(path);
  const read = 'error' in file ? ({ ok: false, error: file.error } as const) : readJson(file.bytes);
  if (!read.ok) return readErrorFinding('invalid_json_input', read.error, 'The file');
  return { value: read.value, duplicates: read.duplicates };
}

function runCase(suiteCase: SuiteCase): SuiteCaseOutcome {
  let findings: Finding[];
  const document = readJsonFile(suiteCase.path);
  if ('code' in document) findings = [document];
  else if (suiteCase.profile === 'core') {
    findings = validateResult(document.value, { duplicates: document.duplicates }).violations;
  } else {
    const revision = suiteCase.profile.slice('mcp-'.length) as Parameters<
      typeof validateMcpResult
    >[1]['revision'];
    const options: Parameters<typeof validateMcpResult>[1] = { revision, duplicates: document.duplicates };
    findings = [];
    if (suiteCase.toolDefinition !== undefined) {
      const tool = readJsonFile(suiteCase.toolDefinition.path);
      if ('code' in tool) findings.push({ ...tool, code: 'tool_definition_unreadable' });
      else {
        options.toolDefinition = tool.value;
        options.toolDefinitionDuplicates = tool.duplicates;
      }
    }
    findings.push(...validateMcpResult(document.value, options).violations);
  }
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  const actual = findings.length === 0;
  const expectedCodes = suiteCase.expected_violation_codes;
  const codesMatch =
    expectedCodes === undefined || [...new Set(expectedCodes)].sort().join('\n') === codes.join('\n');
  return {
    id: suiteCase.id,
    file: suiteCase.file,
    profile: suiteCase.profile,
    expected_conformant: suiteCase.expected_conformant,
    actual_conformant: actual,
    passed: actual === suiteCase.expected_conformant && codesMatch,
    violation_codes: codes,
    ...(expectedCodes === undefined ? {} : { expected_violation_codes: expectedCodes }),
    ...(suiteCase.expected_violations === undefined
      ? {}
      : { expected_violations: suiteCase.expected_violations }),
    violations: findings.map(formatFinding),
  };
}

/**
 * Runs every case of a conformance suite manifest (see docs/conformance.md) and reports, as a contract result, which cases
 * got their expected verdict. Accepts the reference implementation's format (prose `expected_violations`,
 * shown but not compared) and verdict's `expected_violation_codes` (compared as a set). A case may name an
 * MCP `profile` and a `tool_definition`. Never throws for a bad manifest: that is `conformance_suite_invalid`.
 * @example
 * runConformanceSuite('test/fixtures/conformance/manifest.json').success // true when every case passes
 */
export function runConformanceSuite(manifestPath: string, options: RunSuiteOptions = {}): ResultContract {
  const absolute = resolve(options.cwd ?? process.cwd(), manifestPath);
  const manifestFile = readJsonFile(absolute);
  if ('code' in manifestFile) return invalid(manifestPath, [formatFinding(manifestFile)]);
  const problems = manifestFile.duplicates.map((d) => formatFinding(duplicateMemberFinding(d)));
  if (!isJsonObject(manifestFile.value))
    return invalid(manifestPath, [
      'conformance_suite_invalid at (root): The manifest must be a JSON object.',
    ]);
  let root: string;
  try {
    root = realpathSync(dirname(absolute));
  } catch {
    root = dirname(absolute);
  }
  const cases = parseCases(manifestFile.value, root, problems);
  if (problems.length > 0) return invalid(manifestPath, problems);

  const outcomes = cases.map(runCase);
  const failed = outcomes.filter((o) => !o.passed);
  const details = {
    manifest: manifestPath,
    contract: CONTRACT_SCHEMA_URL,
    total: outcomes.length,
    passed: outcomes.length - failed.length,
    failed: failed.length,
    cases: outcomes,
  };
  if (failed.length === 0) {
    return {
      success: true,
      message: `All ${outcomes.length} conformance cases got their expected verdict.`,
      details,
    };
  }
  return {
    success: false,
    message: `${failed.length} of ${outcomes.length} conformance cases did not get their expected verdict.`,
    error: `Failing cases: ${failed.map((o) => o.id).join(', ')}.`,
    error_code: 'conformance_suite_failed',
    details,
  };
}
