/**
 * Ids a stranger names (models, targets, aliases, key names, usage filters) travel into the store's text
 * columns and the logs. PostgreSQL refuses a NUL in text outright, and other control characters forge log lines,
 * so an id holding one is refused at the edge (docs/gateway.md, "Security").
 */

/** Longest id accepted: far past any provider's model name. */
export const MAX_ID_LENGTH = 256;

/** True when `value` holds a C0 control character, DEL or a C1 control character. */
export function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** `value` with each control character replaced by U+FFFD, for an id a provider reported about itself. */
export function replaceControlCharacters(value: string): string {
  return hasControlCharacter(value) ? value.replace(/[\p{Cc}]/gu, '\ufffd') : value;
}
