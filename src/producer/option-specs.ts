// The option specs of a command are plain data that `verdict/mcp` maps to JSON Schema too, so they live apart
// from the Node-only stream types of the producer runtime: the pure entries' declarations need no @types/node.

/** One command-line option of a command: its type, its help text and its constraints. */
export interface OptionSpec {
  /** How the value is parsed; `boolean` options take no value. */
  type: 'string' | 'integer' | 'number' | 'boolean';
  /** One line of help. */
  description: string;
  /** The value is required (a usage error when missing). */
  required?: boolean;
  /** Value used when the option is not given. */
  default?: string | number | boolean;
  /** The only values accepted. */
  choices?: readonly string[];
  /** The option may repeat; its value is then an array. */
  multiple?: boolean;
  /** One-letter alias. */
  short?: string;
  /** Name of the value in help text (`--path <PATH>`). */
  valueName?: string;
  /** Smallest accepted number (integer and number options). */
  min?: number;
  /** Largest accepted number (integer and number options). */
  max?: number;
}

/** A map of option names (as written after `--`) to their specs. */
export type OptionSpecs = Record<string, OptionSpec>;

// A string option with `choices` narrows to their union, so `run` needs no cast (`--format iso|unix`).
type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['type'] extends 'integer' | 'number'
    ? number
    : S extends { choices: readonly (infer C extends string)[] }
      ? C
      : string;

/** The parsed options of a command, typed from its specs. */
export type ParsedOptions<O extends OptionSpecs> = {
  [K in keyof O]: O[K]['multiple'] extends true
    ? ValueOf<O[K]>[]
    : O[K]['required'] extends true
      ? ValueOf<O[K]>
      : O[K] extends { default: string | number | boolean }
        ? ValueOf<O[K]>
        : ValueOf<O[K]> | undefined;
};
