import { useState } from 'preact/hooks';

/** A button that copies a value to the clipboard and says so. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [said, setSaid] = useState('');
  return (
    <span class="copy">
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setSaid('Copied.');
          } catch {
            setSaid('The browser refused the clipboard; select the text to copy it.');
          }
        }}
      >
        {label}
      </button>
      <span role="status" class="hint">
        {said}
      </span>
    </span>
  );
}
