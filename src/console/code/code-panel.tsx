import { useEffect, useState } from 'preact/hooks';
import type { TextRequest } from '../../client/types.js';
import { CopyButton } from '../ui/copy-button.js';
import { RadioGroup } from '../ui/radio-group.js';
import type { Snippet, SnippetKind } from './snippets.js';

/** The snippets' writer, loaded the first time the panel is opened: a page that never copies code never loads it. */
type SnippetsModule = typeof import('./snippets.js');

/** Props of {@link CodePanel}. */
export interface CodePanelProps {
  /** The request the view would send now; undefined when there is none to write. */
  request: TextRequest | undefined;
  /** Why there is no request to write, for people (when `request` is undefined). */
  unavailable?: string;
  /** Which request is written, when it is not the one the view would send now. */
  note?: string;
  /** The gateway's base URL as a program outside the page reaches it. */
  baseUrl: string;
  /** Whether the gateway asks for a key (the snippets then read it from `VERDICT_GATEWAY_KEY`). */
  keyed: boolean;
}

/**
 * Copy as code: the current request as curl, `verdict/client`, the OpenAI SDK and the Anthropic SDK, one at a time
 * with a button that copies it (docs/console.md, "Copy as code").
 */
export function CodePanel({ request, unavailable, note, baseUrl, keyed }: CodePanelProps) {
  const [opened, setOpened] = useState(false);
  const [module, setModule] = useState<SnippetsModule | undefined>();
  const [kind, setKind] = useState<SnippetKind>('curl');
  useEffect(() => {
    if (opened && module === undefined) void import('./snippets.js').then(setModule);
  }, [opened]);
  const snippets: Snippet[] =
    module === undefined || request === undefined ? [] : module.writeSnippets(request, { baseUrl, keyed });
  const shown = snippets.find((snippet) => snippet.kind === kind);
  return (
    <details class="panel code" onToggle={(event) => setOpened(event.currentTarget.open)}>
      <summary>Copy as code</summary>
      {request === undefined ? (
        <p class="hint">{unavailable ?? 'Copy as code writes text requests: choose the Text modality.'}</p>
      ) : module === undefined ? (
        <p class="hint">Loading…</p>
      ) : (
        <div class="grid">
          {note !== undefined && <p class="hint">{note}</p>}
          <RadioGroup
            legend="Client"
            name="snippet-kind"
            choices={module.SNIPPET_KINDS}
            value={kind}
            onChange={setKind}
            variant="segmented"
          />
          {shown !== undefined && (
            <>
              <section aria-label={`${shown.title} code`}>
                <pre class="source snippet">
                  <code>{shown.code}</code>
                </pre>
              </section>
              <p class="hint">
                {shown.language === 'sh'
                  ? 'Run it in a shell.'
                  : `Save it as a .mjs file and run it with Node.js, ${shown.kind === 'client' ? 'verdict' : shown.kind === 'openai' ? 'openai' : '@anthropic-ai/sdk'} installed.`}
                {keyed && ` Set ${module.KEY_VARIABLE} to the gateway key first.`}
              </p>
              <CopyButton value={shown.code} label="Copy" name={`Copy the ${shown.title} code`} />
            </>
          )}
        </div>
      )}
    </details>
  );
}
