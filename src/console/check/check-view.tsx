import { useState } from 'preact/hooks';
import { MCP_REVISIONS, type McpRevision } from '../../mcp/codes.js';
import { bytesOf, FileDrop } from '../ui/file-drop.js';
import { showPointer } from '../ui/format.js';
import { RadioGroup } from '../ui/radio-group.js';
import {
  CHECK_CONTRACTS,
  type CheckContract,
  type CheckSettings,
  checkDocument,
  checkLines,
  type DocumentCheck,
  type Finding,
  type LinesCheck,
} from './check-document.js';
import { HighlightedText } from './highlighted-text.js';

type Outcome =
  | { kind: 'document'; text: string; check: DocumentCheck; against: string }
  | { kind: 'lines'; check: LinesCheck; against: string };

/** Most findings of one document listed and marked; the heading counts all of them. */
const MAX_FINDINGS_SHOWN = 200;

/** Most failing lines a JSONL table shows; the totals count all of them. */
const MAX_LINES_SHOWN = 500;

/** The Check view: a document checked in the browser against a contract, its findings placed in the text. */
export function CheckView() {
  const [contract, setContract] = useState<CheckContract>('result');
  const [revision, setRevision] = useState<McpRevision>(
    MCP_REVISIONS[MCP_REVISIONS.length - 1] as McpRevision,
  );
  const [toolDefinition, setToolDefinition] = useState('');
  const [text, setText] = useState('');
  const [bytes, setBytes] = useState<Uint8Array | null>(null);
  const [fileName, setFileName] = useState('');
  const [jsonl, setJsonl] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const settings: CheckSettings = { contract, revision, toolDefinition };
  const run = (source: { text: string; bytes: Uint8Array | null; jsonl: boolean }) => {
    const against = CHECK_CONTRACTS[contract];
    if (source.jsonl)
      setOutcome({
        kind: 'lines',
        check: checkLines(source.text, settings, source.bytes ?? undefined),
        against,
      });
    else
      setOutcome({
        kind: 'document',
        text: source.text,
        check: checkDocument(source.bytes ?? source.text, source.text, settings),
        against,
      });
  };

  const openFile = async ([file]: File[]) => {
    if (file === undefined) return;
    const data = await bytesOf(file);
    const decoded = new TextDecoder().decode(data);
    const lines = /\.(jsonl|ndjson)$/i.test(file.name);
    setText(decoded);
    setBytes(data);
    setFileName(file.name);
    setJsonl(lines);
    run({ text: decoded, bytes: data, jsonl: lines });
  };

  return (
    <section aria-labelledby="check-title">
      <h2 id="check-title">Check a document</h2>
      <p class="hint">Runs verdict's own validators in this page; nothing is sent anywhere.</p>
      <form
        class="panel grid"
        aria-label="Document to check"
        onSubmit={(event) => {
          event.preventDefault();
          run({ text, bytes, jsonl });
        }}
      >
        <RadioGroup
          legend="Contract"
          name="contract"
          choices={CHECK_CONTRACTS}
          value={contract}
          onChange={setContract}
        />
        {contract === 'mcp' && (
          <fieldset>
            <legend>MCP</legend>
            <label>
              MCP revision
              <select value={revision} onChange={(e) => setRevision(e.currentTarget.value as McpRevision)}>
                {MCP_REVISIONS.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Tool definition (optional)
              <textarea
                rows={4}
                spellcheck={false}
                value={toolDefinition}
                onInput={(e) => setToolDefinition(e.currentTarget.value)}
              />
            </label>
            <FileDrop
              label="Open a tool definition"
              accept=".json,application/json"
              onFiles={async ([file]) => {
                if (file !== undefined) setToolDefinition(await file.text());
              }}
            />
          </fieldset>
        )}
        <label>
          Document
          <textarea
            rows={10}
            spellcheck={false}
            value={text}
            placeholder='{"success": true, "message": "Done."}'
            onInput={(e) => {
              setText(e.currentTarget.value);
              setBytes(null);
            }}
          />
        </label>
        <FileDrop label="Open a file" accept=".json,.jsonl,.ndjson,application/json" onFiles={openFile} />
        {fileName !== '' && bytes !== null && <p class="hint">Checking the bytes of {fileName}.</p>}
        <label class="choice">
          <input type="checkbox" checked={jsonl} onChange={(e) => setJsonl(e.currentTarget.checked)} />
          One document per line (JSONL)
        </label>
        <button type="submit" class="primary">
          Check
        </button>
      </form>
      {outcome?.kind === 'document' && (
        <DocumentOutcome text={outcome.text} check={outcome.check} against={outcome.against} />
      )}
      {outcome?.kind === 'lines' && <LinesOutcome check={outcome.check} against={outcome.against} />}
    </section>
  );
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The summary line of a checked document: the verdict first, then the finding behind it. */
export function documentHeadline(check: DocumentCheck, against: string): string {
  if (check.read === 'tool-definition-failed') return 'FAIL: the tool definition is not readable JSON';
  if (check.read === 'failed') {
    const where =
      check.error.line === undefined ? '' : ` at line ${check.error.line}, column ${check.error.column}`;
    return `FAIL: Not readable JSON (${check.error.reason})${where}`;
  }
  const warned = check.warnings.length > 0 ? `, ${plural(check.warnings.length, 'warning')}` : '';
  if (check.valid) return `PASS: conforms to the ${against}${warned}`;
  const first = check.violations[0];
  return (
    `FAIL: ${plural(check.violations.length, 'violation')} of the ${against}${warned}` +
    (first === undefined ? '' : `; first ${first.code} at ${showPointer(first.path)}`)
  );
}

function DocumentOutcome({ text, check, against }: { text: string; check: DocumentCheck; against: string }) {
  if (check.read === 'tool-definition-failed') {
    return (
      <div class="card failure" role="alert">
        <h3>{documentHeadline(check, against)}</h3>
        <p>
          {check.error.reason}
          {check.error.line !== undefined && ` at line ${check.error.line}, column ${check.error.column}`}:{' '}
          {check.error.message}
        </p>
      </div>
    );
  }
  if (check.read === 'failed') {
    const { error, span } = check;
    return (
      <div class="outcome">
        <div class="card failure" role="alert">
          <h3>{documentHeadline(check, against)}</h3>
          <p>
            {error.line !== undefined && (
              <strong>
                Line {error.line}, column {error.column}:{' '}
              </strong>
            )}
            {error.message}
          </p>
        </div>
        {span !== null && (
          <HighlightedText
            text={text}
            marks={[{ span, label: '1', title: `${error.reason}: ${error.message}` }]}
          />
        )}
      </div>
    );
  }
  const found = [...check.violations, ...check.warnings];
  const all = found.slice(0, MAX_FINDINGS_SHOWN);
  return (
    <div class="outcome">
      <div class={check.valid ? 'card success' : 'card failure'} role="status">
        <h3>{documentHeadline(check, against)}</h3>
      </div>
      {all.length > 0 && (
        <ol class="findings" aria-label="Findings">
          {all.map((finding, index) => (
            <FindingItem
              key={`${finding.code}${finding.path}${index}`}
              finding={finding}
              number={index + 1}
              warning={index >= check.violations.length}
            />
          ))}
        </ol>
      )}
      {found.length > all.length && (
        <p class="hint">The first {MAX_FINDINGS_SHOWN} findings are listed and marked.</p>
      )}
      <HighlightedText
        text={text}
        marks={all.map((f, index) => ({
          span: f.span,
          label: String(index + 1),
          title: `${f.code}: ${f.message}`,
        }))}
      />
      {check.facts !== undefined && (
        <details>
          <summary>MCP profile facts</summary>
          <pre class="json">{JSON.stringify(check.facts, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}

function FindingItem({ finding, number, warning }: { finding: Finding; number: number; warning: boolean }) {
  const { span } = finding;
  return (
    <li class={warning ? 'finding warning' : 'finding'}>
      <span class="badge" aria-hidden="true">
        {number}
      </span>{' '}
      <code class="code">{finding.code}</code>
      {warning && ' (warning)'} at <code>{showPointer(finding.path)}</code>{' '}
      <a
        href={`#mark-${number}`}
        onClick={(event) => {
          event.preventDefault();
          const mark = document.getElementById(`mark-${number}`);
          mark?.focus();
          mark?.scrollIntoView({ block: 'center' });
        }}
      >
        line {span.line}, column {span.column}
      </a>
      {!span.exact && ' (where it is missing)'}
      <div>{finding.message}</div>
    </li>
  );
}

function LinesOutcome({ check, against }: { check: LinesCheck; against: string }) {
  const failing = check.documents - check.conformant;
  return (
    <div class="outcome">
      <div class={failing === 0 && check.documents > 0 ? 'card success' : 'card failure'} role="status">
        <h3>
          {check.documents === 0
            ? 'FAIL: no documents, every line is blank.'
            : `${failing === 0 ? 'PASS' : 'FAIL'}: ${check.conformant} of ${check.documents} lines conform to the ${against}; ${failing} fail${failing === 1 ? 's' : ''}` +
              (check.unreadable > 0 ? ` (${check.unreadable} unreadable)` : '')}
        </h3>
      </div>
      {check.failures.length > 0 && (
        <div>
          <table>
            <caption>Failing lines</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Problems</th>
                <th scope="col">First finding</th>
              </tr>
            </thead>
            <tbody>
              {check.failures.slice(0, MAX_LINES_SHOWN).map((failure) => (
                <tr key={failure.line}>
                  <th scope="row">{failure.line}</th>
                  <td>{codesOf(failure.check).join(', ')}</td>
                  <td>{firstFinding(failure.check)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {check.failures.length > MAX_LINES_SHOWN && (
            <p class="hint">The first {MAX_LINES_SHOWN} failing lines are listed.</p>
          )}
        </div>
      )}
    </div>
  );
}

function codesOf(check: DocumentCheck): string[] {
  if (check.read === 'ok') return check.violations.map((v) => v.code);
  return [check.error.reason];
}

function firstFinding(check: DocumentCheck): string {
  if (check.read !== 'ok') {
    const where = check.error.column === undefined ? '' : `column ${check.error.column}: `;
    return `${where}${check.error.message}`;
  }
  const first = check.violations[0];
  return first === undefined ? '' : `${showPointer(first.path)}: ${first.message}`;
}
