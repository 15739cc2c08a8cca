import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fail, ok } from '../../contract/builders.js';
import type { ResultContract } from '../../contract/types.js';
import { isVerdictError } from '../../errors.js';
import {
  BUDGET_PERIODS,
  type BudgetPeriod,
  checkKeyInput,
  createKey,
  findKeyByName,
  type GatewayStore,
  type KeyChanges,
  listKeys,
  migrateStore,
  openStore,
  readCounts,
  readSpend,
  revokeKey,
  StoreError,
  updateKey,
} from '../../gateway/store/index.js';
import { defineCommand } from '../../producer/define-command.js';
import type { CommandIo, OptionSpecs } from '../../producer/types.js';
import { dispatch, type SubcommandGroup } from '../subcommands.js';

/** Where `--store` points when it is not given and `VERDICT_STORE_URL` is not set: a PGlite directory. */
export function defaultStoreLocation(env: Readonly<Record<string, string | undefined>>): string {
  return join(env.HOME ?? homedir(), '.verdict', 'gateway');
}

/** The store a command line names: `--store`, else `VERDICT_STORE_URL`, else the default directory. */
export function storeLocation(option: string | undefined, io: CommandIo): string {
  const given = option ?? io.env.VERDICT_STORE_URL;
  if (given === undefined || given === '') return defaultStoreLocation(io.env);
  return /^postgres(?:ql)?:\/\//i.test(given) || given === ':memory:' ? given : resolve(io.cwd, given);
}

const STORE_OPTION = {
  store: {
    type: 'string',
    description: 'PGlite directory or postgres:// URL (default: VERDICT_STORE_URL, else ~/.verdict/gateway).',
    valueName: 'DIR|URL',
  },
} as const satisfies OptionSpecs;

const LIMIT_OPTIONS = {
  rpm: { type: 'integer', description: 'Requests per minute.', min: 1, valueName: 'N' },
  tpm: { type: 'integer', description: 'Tokens per minute.', min: 1, valueName: 'N' },
  'budget-tokens': { type: 'integer', description: 'Tokens per budget period.', min: 1, valueName: 'N' },
  'budget-usd': {
    type: 'number',
    description: 'Dollars per budget period, reserved before each call and settled at its cost.',
    valueName: 'N',
  },
  'budget-period': {
    type: 'string',
    description: 'The period of both budgets (default day).',
    choices: [...BUDGET_PERIODS],
  },
  routes: {
    type: 'string',
    description: 'Routes the key may use, comma-separated (text,images).',
    valueName: 'LIST',
  },
  models: {
    type: 'string',
    description: "provider:model globs the key may use, comma-separated ('openai:*,anthropic:claude-*').",
    valueName: 'LIST',
  },
  expires: {
    type: 'string',
    description: 'When the key stops working (2027-01-31 or an ISO 8601 time).',
    valueName: 'DATE',
  },
} as const satisfies OptionSpecs;

const ERROR_CODES = {
  invalid_arguments: 'A name or a limit is not valid (exit 2).',
  store_unreachable: 'The store cannot be opened or does not answer.',
  store_timeout: 'The store did not answer in time.',
  not_found: 'No key has that name.',
  invalid_key: 'The key cannot be created or changed as asked (a name already taken).',
} as const;

function listOption(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** The limits a command line gives; `none` removes a limit in `keys update`. */
function limitsFrom(options: Record<string, unknown>, removable: boolean): KeyChanges {
  const changes: KeyChanges = {};
  const none = (value: unknown) => removable && value === 'none';
  if (options.rpm !== undefined) changes.rpm = options.rpm as number;
  if (options.tpm !== undefined) changes.tpm = options.tpm as number;
  if (options['budget-tokens'] !== undefined) changes.budget_tokens = options['budget-tokens'] as number;
  if (options['budget-usd'] !== undefined) changes.budget_usd = options['budget-usd'] as number;
  if (options['budget-period'] !== undefined)
    changes.budget_period = options['budget-period'] as BudgetPeriod;
  if (options.routes !== undefined)
    changes.routes = none(options.routes) ? null : (listOption(options.routes) ?? null);
  if (options.models !== undefined)
    changes.models = none(options.models) ? null : (listOption(options.models) ?? null);
  if (options.expires !== undefined)
    changes.expires_at = none(options.expires) ? null : (options.expires as string);
  for (const name of ['no-rpm', 'no-tpm', 'no-budget', 'no-budget-usd'] as const) {
    if (options[name] !== true) continue;
    if (name === 'no-budget-usd') changes.budget_usd = null;
    if (name === 'no-rpm') changes.rpm = null;
    if (name === 'no-tpm') changes.tpm = null;
    if (name === 'no-budget') {
      changes.budget_tokens = null;
      changes.budget_period = null;
    }
  }
  return changes;
}

function invalid(message: string, problems: unknown[] = []): ResultContract {
  return fail(message, { error: message, error_code: 'invalid_arguments', details: { problems } });
}

/** Open the store, migrate it, run `work`, close it; a store failure becomes a failure result. */
async function withStore(
  option: unknown,
  io: CommandIo,
  work: (store: GatewayStore, location: string) => Promise<ResultContract>,
): Promise<ResultContract> {
  const location = storeLocation(option as string | undefined, io);
  let store: GatewayStore | undefined;
  try {
    store = await openStore(location, { queryTimeoutMs: 10_000 });
    await migrateStore(store);
    return await work(store, store.location);
  } catch (error) {
    if (error instanceof StoreError || isVerdictError(error) || error instanceof Error) {
      const code =
        error instanceof StoreError
          ? error.code
          : isVerdictError(error)
            ? 'invalid_key'
            : 'store_unreachable';
      const message = error.message;
      return fail(`The store ${store?.location ?? location} failed: ${message}`, {
        error: message,
        error_code: code,
        details: { store: store?.location ?? location.replace(/:[^:@/]*@/, ':***@') },
      });
    }
    throw error;
  } finally {
    await store?.close().catch(() => undefined);
  }
}

const nameArgument = [{ name: 'NAME', description: 'The key name.', required: true }] as const;

const createCommand = defineCommand({
  name: 'create',
  description:
    'Create a key and print it once (the store keeps only its hash). Limits: --rpm, --tpm, --budget-tokens and --budget-usd with --budget-period, --routes, --models, --expires.',
  options: {
    ...STORE_OPTION,
    name: { type: 'string', description: 'The key name.', required: true, valueName: 'NAME' },
    ...LIMIT_OPTIONS,
  },
  errorCodes: ERROR_CODES,
  async run({ options }, ctx) {
    const limits = limitsFrom(options, false);
    const problems = checkKeyInput(options.name, limits);
    if (problems.length > 0) return invalid(problems.map((problem) => problem.message).join(' '), problems);
    return withStore(options.store, ctx.io, async (store) => {
      const { key, record } = await createKey(store, options.name, limits);
      if (!ctx.json) ctx.log('Store this key now: it is shown once and cannot be read back.');
      // The secret is shown once, in its own member: the message never repeats it.
      return ok(`Created the key "${record.name}".`, { key, record });
    });
  },
});

const listCommand = defineCommand({
  name: 'list',
  description: 'List the stored keys and their limits (never the keys themselves).',
  options: { ...STORE_OPTION },
  errorCodes: ERROR_CODES,
  run: ({ options }, ctx) =>
    withStore(options.store, ctx.io, async (store) => {
      const keys = await listKeys(store);
      return ok(`${keys.length} key(s).`, {
        keys: keys.map(
          ({ name, prefix, rpm, tpm, budget_tokens, budget_usd, budget_period, revoked_at }) => ({
            name,
            prefix,
            rpm,
            tpm,
            budget_tokens,
            budget_usd,
            budget_period,
            revoked: revoked_at !== null,
          }),
        ),
      });
    }),
});

/** The failure of a command given a key name the store does not hold. */
function noKeyNamed(name: string) {
  return fail(`No key is named "${name}".`, { error: 'not found', error_code: 'not_found' });
}

const showCommand = defineCommand({
  name: 'show',
  description: "Show one key's limits and its usage now (this minute and this budget period).",
  options: { ...STORE_OPTION },
  positionals: nameArgument,
  errorCodes: ERROR_CODES,
  run: ({ options, positionals }, ctx) =>
    withStore(options.store, ctx.io, async (store) => {
      const name = positionals[0] as string;
      const record = await findKeyByName(store, name);
      if (record === undefined) return noKeyNamed(name);
      const at = new Date();
      const spend = await readSpend(store, record, at);
      const used = {
        ...(await readCounts(store, record, at)),
        period_usd: spend.spent,
        reserved_usd: spend.reserved,
      };
      return ok(`The key "${name}"${record.revoked_at === null ? '' : ' (revoked)'}.`, { record, used });
    }),
});

const updateCommand = defineCommand({
  name: 'update',
  description:
    "Change a key's limits: the options of create; --no-rpm, --no-tpm, --no-budget, --no-budget-usd remove a limit, and 'none' clears --routes, --models or --expires.",
  options: {
    ...STORE_OPTION,
    ...LIMIT_OPTIONS,
    'no-rpm': { type: 'boolean', description: 'Remove the rpm limit.' },
    'no-tpm': { type: 'boolean', description: 'Remove the tpm limit.' },
    'no-budget': { type: 'boolean', description: 'Remove the token budget.' },
    'no-budget-usd': { type: 'boolean', description: 'Remove the dollar budget.' },
  },
  positionals: nameArgument,
  errorCodes: ERROR_CODES,
  async run({ options, positionals }, ctx) {
    const name = positionals[0] as string;
    const changes = limitsFrom(options, true);
    const problems = checkKeyInput(undefined, changes);
    if (problems.length > 0) return invalid(problems.map((problem) => problem.message).join(' '), problems);
    if (Object.keys(changes).length === 0) return invalid('Give at least one limit to change.');
    return withStore(options.store, ctx.io, async (store) => {
      const record = await updateKey(store, name, changes);
      if (record === undefined) return noKeyNamed(name);
      return ok(`Updated the key "${name}".`, { record });
    });
  },
});

const revokeCommand = defineCommand({
  name: 'revoke',
  description: 'Revoke a key: every gateway instance on this store refuses it from its next request.',
  options: { ...STORE_OPTION },
  positionals: nameArgument,
  errorCodes: ERROR_CODES,
  run: ({ options, positionals }, ctx) =>
    withStore(options.store, ctx.io, async (store) => {
      const name = positionals[0] as string;
      const record = await revokeKey(store, name);
      if (record === undefined) return noKeyNamed(name);
      return ok(`Revoked the key "${name}".`, { record });
    }),
});

/** `verdict gateway keys`: create, list, show, update and revoke the keys of a store. */
export const gatewayKeysGroup: SubcommandGroup = {
  description: 'Manage the gateway\'s stored keys (docs/gateway.md, "Teams").',
  noun: 'command',
  subcommands: [
    { name: 'create', summary: 'Create a key (printed once).', load: () => ({ command: createCommand }) },
    { name: 'list', summary: 'List keys and their limits.', load: () => ({ command: listCommand }) },
    { name: 'show', summary: "Show a key's limits and usage now.", load: () => ({ command: showCommand }) },
    { name: 'update', summary: "Change a key's limits.", load: () => ({ command: updateCommand }) },
    { name: 'revoke', summary: 'Revoke a key.', load: () => ({ command: revokeCommand }) },
  ],
};

/** `verdict gateway migrate`: apply the store's migrations and print its schema version. */
export const migrateCommand = defineCommand({
  name: 'migrate',
  description: "Apply the store's migrations (the gateway also applies them when it starts with --store).",
  options: { ...STORE_OPTION },
  errorCodes: ERROR_CODES,
  run: ({ options }, ctx) => {
    const location = storeLocation(options.store, ctx.io);
    return (async () => {
      let store: GatewayStore | undefined;
      try {
        store = await openStore(location, { queryTimeoutMs: 30_000 });
        const report = await migrateStore(store);
        return ok(
          report.applied.length === 0
            ? `The store ${store.location} is at schema version ${report.version}; nothing to apply.`
            : `Applied migration(s) ${report.applied.join(', ')} to ${store.location}; schema version ${report.version}.`,
          { store: store.location, ...report },
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return fail(`The store could not be migrated: ${message}`, {
          error: message,
          error_code: error instanceof StoreError ? error.code : 'store_unreachable',
        });
      } finally {
        await store?.close().catch(() => undefined);
      }
    })();
  },
});

/** Run `verdict gateway keys …` or `verdict gateway migrate …` (the words after `gateway`). */
export async function runGatewayStoreCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const group: SubcommandGroup = {
    description: "The gateway's store.",
    noun: 'command',
    subcommands: [
      { name: 'keys', summary: 'Manage stored keys.', load: () => ({ group: gatewayKeysGroup }) },
      { name: 'migrate', summary: 'Apply migrations.', load: () => ({ command: migrateCommand }) },
    ],
  };
  return dispatch(group, argv, io, 'verdict gateway');
}
