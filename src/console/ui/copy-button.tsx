import { useState } from 'preact/hooks';

/** Props of {@link CopyButton}. */
export interface CopyButtonProps {
  /** The text copied. */
  value: string;
  /** The button's visible text. */
  label: string;
  /** Its accessible name, when the visible text alone would be ambiguous (several copy buttons). */
  name?: string;
}

/** A button that copies a value to the clipboard and says so. */
export function CopyButton({ value, label, name }: CopyButtonProps) {
  const [said, setSaid] = useState('');
  return (
    <span class="copy">
      <button
        type="button"
        class="quiet"
        aria-label={name}
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
