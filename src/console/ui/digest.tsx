import { CopyButton } from './copy-button.js';

/**
 * A SHA-256 digest on one line: the full value is in the page (and its title), shortened with an ellipsis
 * where the width runs out, with a button that copies it whole.
 */
export function Digest({ value, of }: { value: string | null; of: string }) {
  if (value === null) return <span>(no digest: the file was not read)</span>;
  return (
    <span class="digest-row">
      <code class="digest" title={value}>
        {value}
      </code>
      <CopyButton value={value} label="Copy" name={`Copy the SHA-256 of ${of}`} />
    </span>
  );
}
