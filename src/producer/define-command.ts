import type { ResultContract } from '../contract/types.js';
import type {
  CommandContext,
  CommandDefinition,
  CommandInput,
  OptionSpecs,
  RuntimeErrorCode,
} from './types.js';

/** The `error_code` of a result type, `undefined` for a success. */
type CodeOf<R> = R extends { error_code: infer K } ? K : R extends { error_code?: infer K } ? K : undefined;

/**
 * The codes a command's results carry as literals that its table `C` does not list (the runtime's own codes
 * need no entry). A code typed only as `string` (a result built elsewhere without its literal) is not checked.
 */
type UnlistedCodes<R, C extends string> = R extends unknown
  ? string extends CodeOf<R>
    ? never
    : Exclude<CodeOf<R>, C | RuntimeErrorCode | undefined>
  : never;

/** Nothing when every code is listed; else a member naming the codes the table lacks, so the call does not type-check. */
type ListedCodes<U> = [U] extends [never] ? unknown : { readonly 'error codes missing from errorCodes': U };

/**
 * Declares a command; returns the definition unchanged, typed so that `run` sees its options parsed and may
 * return only the error codes its `errorCodes` table lists (and the runtime's): a code missing from the table is
 * a type error.
 * @example
 * const hello = defineCommand({
 *   name: 'hello',
 *   description: 'Greets someone.',
 *   options: { name: { type: 'string', description: 'Who to greet.', required: true } },
 *   run: ({ options }) => ok(`Hello, ${options.name}.`, { greeted: options.name }),
 * });
 */
export function defineCommand<
  const O extends OptionSpecs,
  const C extends string = never,
  R extends ResultContract = ResultContract,
>(
  definition: CommandDefinition<O, C> & {
    run(input: CommandInput<O>, ctx: CommandContext): R | Promise<R>;
  } & ListedCodes<UnlistedCodes<R, C>>,
): CommandDefinition<O, C> {
  return definition;
}
