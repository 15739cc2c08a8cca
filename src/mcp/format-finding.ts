/** Renders a violation or warning as one string that starts with its stable code (SPEC §4 receipts). */
export function formatFinding(finding: { code: string; path: string; message: string }): string {
  return `${finding.code} at ${finding.path === '' ? '(root)' : finding.path}: ${finding.message}`;
}
