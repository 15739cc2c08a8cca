import type { Receipt } from './create-receipt.js';

/**
 * The `outputSchema` mode a receipt reports as a whole: `not_applicable` for the core profile or when no tool
 * definition was checked, the one mode both cases share, or `mixed` when they differ.
 */
export function outputSchemaModeOf(receipt: Pick<Receipt, 'details'>): string {
  if (receipt.details.profile === 'core') return 'not_applicable';
  const modes = new Set(
    receipt.details.cases.map((c) =>
      'output_schema_mode' in c.profile_facts ? c.profile_facts.output_schema_mode : null,
    ),
  );
  if (modes.size > 1) return 'mixed';
  const [mode] = modes;
  return mode ?? 'not_applicable';
}
