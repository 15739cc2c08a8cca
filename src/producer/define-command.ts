import type { CommandDefinition, OptionSpecs } from './types.js';

/**
 * Declares a command; returns the definition unchanged, typed so that `run` sees its options parsed.
 * @example
 * const hello = defineCommand({
 *   name: 'hello',
 *   description: 'Greets someone.',
 *   options: { name: { type: 'string', description: 'Who to greet.', required: true } },
 *   run: ({ options }) => ok(`Hello, ${options.name}.`, { greeted: options.name }),
 * });
 */
export function defineCommand<const O extends OptionSpecs>(
  definition: CommandDefinition<O>,
): CommandDefinition<O> {
  return definition;
}
