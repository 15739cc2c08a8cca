import { useState } from 'preact/hooks';
import type { Receipt, ReceiptCase } from '../../evidence/create-receipt.js';
import { outputSchemaModeOf } from '../../evidence/output-schema-mode-of.js';
import { Digest } from '../ui/digest.js';
import { bytesOf, FileDrop } from '../ui/file-drop.js';
import { sha256Web } from '../ui/format.js';
import {
  type DroppedFile,
  type EvidenceMatch,
  evidenceEntries,
  matchEvidence,
  type ReceiptRead,
  readReceipt,
  recheckReceipt,
} from './read-receipt.js';
import { receiptVerdict } from './receipt-verdict.js';

/** The Receipt view: a Conformance Receipt v1 shown as PASS or FAIL, its evidence digests checked in the page. */
export function ReceiptView() {
  const [read, setRead] = useState<(ReceiptRead & { name: string }) | null>(null);
  const [files, setFiles] = useState<DroppedFile[]>([]);

  const addEvidence = async (chosen: File[]) => {
    const added = await Promise.all(
      chosen.map(async (file) => {
        const bytes = await bytesOf(file);
        return { name: file.name, bytes, sha256: await sha256Web(bytes) };
      }),
    );
    setFiles((old) => [...old.filter((f) => !added.some((a) => a.name === f.name)), ...added]);
  };

  // Several files at once: the one that reads as a receipt is the receipt, the others its evidence.
  const openReceipt = async (chosen: File[]) => {
    const reads = await Promise.all(
      chosen.map(async (file) => ({ file, read: readReceipt(await bytesOf(file)) })),
    );
    const found = reads.find((r) => r.read.ok) ?? reads[0];
    if (found === undefined) return;
    setRead({ ...found.read, name: found.file.name });
    const others = chosen.filter((file) => file !== found.file);
    if (others.length > 0) await addEvidence(others);
  };

  return (
    <section aria-labelledby="receipt-title">
      <h2 id="receipt-title">Read a receipt</h2>
      <p class="hint">
        A Conformance Receipt v1 as <code>verdict evidence</code> writes it. Add the evidence files to check
        their SHA-256 digests in this page.
      </p>
      <div class="row">
        <FileDrop label="Open a receipt" accept=".json,application/json" multiple onFiles={openReceipt} />
        <FileDrop label="Add evidence files" accept=".json,application/json" multiple onFiles={addEvidence} />
      </div>
      {read !== null && !read.ok && (
        <div class="card failure" role="alert">
          <h3>{read.name} cannot be shown as a receipt</h3>
          <p>
            {read.message}
            {read.readError !== undefined &&
              ` ${read.readError.reason}${read.readError.line === undefined ? '' : ` at line ${read.readError.line}, column ${read.readError.column}`}: ${read.readError.message}`}
          </p>
        </div>
      )}
      {read?.ok && <ReceiptDetails read={read} files={files} />}
      {read === null && files.length > 0 && (
        <p class="hint">{files.length} evidence file(s) added; open the receipt to compare them.</p>
      )}
    </section>
  );
}

function ReceiptDetails({
  read,
  files,
}: {
  read: ReceiptRead & { ok: true; name: string };
  files: DroppedFile[];
}) {
  const { receipt } = read;
  const { details } = receipt;
  const { matches, unmatched } = matchEvidence(evidenceEntries(receipt), files);
  const recheck = recheckReceipt(read, matches);
  const verdict = receiptVerdict(receipt, read.problems, matches, recheck);
  return (
    <div class="outcome">
      <div
        class={verdict.word === 'PASS' ? 'card success verdict' : 'card failure verdict'}
        role="status"
        aria-labelledby="receipt-verdict"
      >
        <p class="big" id="receipt-verdict">
          {verdict.word}
        </p>
        <p class="reason">{verdict.reason}</p>
        {receipt.error_code !== undefined && (
          <p>
            error_code <code>{receipt.error_code}</code>
          </p>
        )}
      </div>
      {read.problems.length > 0 && (
        <div class="card warn">
          <h3>Problems with the receipt itself</h3>
          <ul>
            {read.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <dl class="facts">
        <dt>File</dt>
        <dd>{read.name}</dd>
        <dt>Profile</dt>
        <dd>{details.profile}</dd>
        <dt>MCP revision</dt>
        <dd>{details.mcp_specification ?? 'none (core profile)'}</dd>
        <dt>Output schema mode</dt>
        <dd>{outputSchemaModeOf(receipt)}</dd>
        <dt>Tool definition</dt>
        <dd>
          {details.tool_definition === null ? (
            'none'
          ) : (
            <>
              {details.tool_definition.file}{' '}
              <Digest value={details.tool_definition.sha256} of={details.tool_definition.file} />
            </>
          )}
        </dd>
      </dl>
      <Findings title="Violations of the pair" items={details.violations} />
      <Findings title="Warnings" items={receipt.warnings} />
      {details.cases.map((c) => (
        <CaseDetails key={c.name} item={c} />
      ))}
      <Evidence matches={matches} unmatched={unmatched} recheck={recheck} receipt={receipt} />
    </div>
  );
}

function Findings({ title, items }: { title: string; items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h4>{title}</h4>
      <ul class="plain">
        {items.map((item) => (
          <li key={item}>
            <code>{item}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

function CaseDetails({ item }: { item: ReceiptCase }) {
  const id = `case-${item.name}`;
  return (
    <section class={item.conformant ? 'case conformant' : 'case'} aria-labelledby={id}>
      <h3 id={id}>
        {item.name === 'success' ? 'Success' : 'Failure'} case:{' '}
        {item.conformant ? 'conformant' : 'not conformant'}
      </h3>
      <dl class="facts">
        <dt>File</dt>
        <dd>{item.file}</dd>
        <dt>SHA-256</dt>
        <dd>
          <Digest value={item.sha256} of={item.file} />
        </dd>
        <dt>Must say</dt>
        <dd>success: {String(item.expected_success)}</dd>
        <dt>Says</dt>
        <dd>
          {item.actual_success === null ? 'neither success nor failure' : `success: ${item.actual_success}`}
        </dd>
      </dl>
      <Findings title="Violations" items={item.violations} />
      <Findings title="Warnings" items={item.warnings} />
      {Object.keys(item.profile_facts).length > 0 && (
        <details>
          <summary>Profile facts</summary>
          <pre class="json">{JSON.stringify(item.profile_facts, null, 2)}</pre>
        </details>
      )}
    </section>
  );
}

const STATUS_TEXT: Record<EvidenceMatch['status'], string> = {
  match: 'matches',
  mismatch: 'DIFFERS: not the file the receipt describes',
  missing: 'not added',
  unrecorded: 'no digest recorded',
};

function Evidence({
  matches,
  unmatched,
  recheck,
  receipt,
}: {
  matches: EvidenceMatch[];
  unmatched: DroppedFile[];
  recheck: ReturnType<typeof recheckReceipt>;
  receipt: Receipt;
}) {
  const mismatches = matches.filter((m) => m.status === 'mismatch').length;
  const given = matches.filter((m) => m.dropped !== undefined).length;
  return (
    <section class="case" aria-labelledby="evidence-title">
      <h3 id="evidence-title">Evidence digests</h3>
      {given > 0 && (
        <p class={mismatches > 0 ? 'card failure' : 'card success'} role="status">
          {mismatches > 0
            ? `${mismatches} evidence file${mismatches === 1 ? ' differs' : 's differ'} from the receipt.`
            : `Every evidence file added matches the receipt (${given} of ${matches.length}).`}
        </p>
      )}
      <table class="evidence">
        <thead>
          <tr>
            <th scope="col">Evidence</th>
            <th scope="col">In the receipt</th>
            <th scope="col">File added</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {matches.map((m) => (
            <tr key={m.entry.role} class={m.status}>
              <th scope="row">{m.entry.role}</th>
              <td data-label="In the receipt">
                <span class="file">{m.entry.file}</span>
                <Digest value={m.entry.sha256} of={`${m.entry.file} in the receipt`} />
              </td>
              <td data-label="File added">
                {m.dropped === undefined ? (
                  '—'
                ) : (
                  <>
                    <span class="file">{m.dropped.name}</span>
                    <Digest value={m.dropped.sha256} of={`${m.dropped.name} as added`} />
                  </>
                )}
              </td>
              <td data-label="Result" class="result">
                {STATUS_TEXT[m.status]}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {unmatched.length > 0 && (
        <p class="hint">
          Not named by the receipt and matching no digest: {unmatched.map((f) => f.name).join(', ')}.
        </p>
      )}
      {recheck !== null && (
        <p class="card" role="status">
          {recheck.identical
            ? 'Checked again in this page: these files give exactly this receipt.'
            : `Checked again in this page: these files give a different receipt (${recheck.receipt.success ? 'PASS' : 'FAIL'}${
                recheck.receipt.success === receipt.success ? ', same verdict' : ', a different verdict'
              }): ${recheck.receipt.message}`}
        </p>
      )}
    </section>
  );
}
