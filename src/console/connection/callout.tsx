import type { ComponentChildren } from 'preact';

/** Props of {@link Callout}. */
export interface CalloutProps {
  /** The state in a few words: what blocks the user. */
  title: string;
  /** The fix, for people. */
  children: ComponentChildren;
  /** A button that applies the fix, when the page can. */
  action?: { label: string; run: () => void };
}

/**
 * A state that blocks the view, said where the user looks, with its fix: never a grey hint under a control
 * (docs/console.md, "When something blocks").
 */
export function Callout({ title, children, action }: CalloutProps) {
  return (
    <section class="callout" role="alert" aria-label={title}>
      <h3>{title}</h3>
      <div class="callout-body">{children}</div>
      {action !== undefined && (
        <button type="button" class="primary" onClick={action.run}>
          {action.label}
        </button>
      )}
    </section>
  );
}
