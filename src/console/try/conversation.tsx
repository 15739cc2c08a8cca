import { useState } from 'preact/hooks';
import type { Turn, TurnToolCall } from './request-model.js';

/** How a turn's author is named. */
const AUTHORS: Readonly<Record<Turn['role'], string>> = {
  user: 'You',
  assistant: 'Model',
  tool: 'Tool result',
};

/** Props of {@link Conversation}. */
export interface ConversationProps {
  /** The turns to show, oldest first. */
  turns: readonly Turn[];
  /** Called with a turn's index and its new text. */
  onEdit: (index: number, text: string) => void;
  /** Removes every turn. */
  onClear: () => void;
  /** Whether a request is on its way (nothing is edited then). */
  busy: boolean;
}

/** The conversation so far: each turn with its author, and an Edit button on the turns that have text. */
export function Conversation({ turns, onEdit, onClear, busy }: ConversationProps) {
  const [editing, setEditing] = useState<{ index: number; text: string } | null>(null);
  if (turns.length === 0) return null;
  return (
    <section class="card conversation" aria-label="Conversation">
      <ol class="turns">
        {turns.map((turn, index) => {
          const n = index + 1;
          const editable = turn.role !== 'tool';
          return (
            <li key={index} class={`turn ${turn.role}`}>
              <span class="author">{AUTHORS[turn.role]}</span>
              {editing?.index === index ? (
                <form
                  class="grid"
                  onSubmit={(event) => {
                    event.preventDefault();
                    onEdit(index, editing.text);
                    setEditing(null);
                  }}
                >
                  <label>
                    {`Edit turn ${n}`}
                    <textarea
                      rows={3}
                      value={editing.text}
                      onInput={(e) => setEditing({ index, text: e.currentTarget.value })}
                    />
                  </label>
                  <span class="row">
                    <button type="submit">{`Save turn ${n}`}</button>
                    <button type="button" class="quiet" onClick={() => setEditing(null)}>
                      Cancel the edit
                    </button>
                  </span>
                </form>
              ) : (
                <TurnBody turn={turn} />
              )}
              {editable && editing?.index !== index && (
                <button
                  type="button"
                  class="quiet"
                  disabled={busy}
                  aria-label={`Edit turn ${n}`}
                  onClick={() => setEditing({ index, text: turn.text })}
                >
                  Edit
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <button type="button" class="quiet" disabled={busy} onClick={onClear}>
        Clear the conversation
      </button>
    </section>
  );
}

function TurnBody({ turn }: { turn: Turn }) {
  if (turn.role === 'tool') {
    return (
      <p class="content">
        <code class="name">{turn.name}</code> <code>{turn.content}</code>
      </p>
    );
  }
  return (
    <>
      {turn.text !== '' && <p class="content">{turn.text}</p>}
      {turn.role === 'user' && turn.attachments.length > 0 && (
        <p class="hint">Attached: {turn.attachments.map((file) => file.name).join(', ')}</p>
      )}
      {turn.role === 'assistant' && turn.toolCalls.length > 0 && (
        <ul class="calls">
          {turn.toolCalls.map((call) => (
            <li key={call.id}>
              <code class="name">{call.name}</code> <code>{call.arguments}</code>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** A canned result to start from: the call's name and that it succeeded. */
function cannedResult(call: TurnToolCall): string {
  return JSON.stringify({ tool: call.name, ok: true });
}

/** Props of {@link ToolResults}. */
export interface ToolResultsProps {
  /** The tool calls no result answers yet. */
  calls: readonly TurnToolCall[];
  /** Called with one result per call, in order, to send them and continue. */
  onSend: (results: { call: TurnToolCall; content: string }[]) => void;
  /** Whether a request is on its way. */
  busy: boolean;
}

/**
 * The model asked for tools, which the gateway never runs: a result per call, typed by hand (a canned one to
 * start from), sent back to continue the conversation.
 */
export function ToolResults({ calls, onSend, busy }: ToolResultsProps) {
  const [results, setResults] = useState<Record<string, string>>({});
  const resultOf = (call: TurnToolCall) => results[call.id] ?? cannedResult(call);
  return (
    <form
      class="card tool-results grid"
      aria-label="Answer the tool calls"
      onSubmit={(event) => {
        event.preventDefault();
        onSend(calls.map((call) => ({ call, content: resultOf(call) })));
        setResults({});
      }}
    >
      <h3>The model asks for {calls.length === 1 ? 'a tool' : `${calls.length} tools`}</h3>
      <p class="hint">
        The gateway runs no tool: answer each call here (a canned result is filled in) and send the results.
      </p>
      {calls.map((call) => (
        <label key={call.id}>
          {`Result of ${call.name} (${call.id})`}
          <textarea
            rows={2}
            spellcheck={false}
            value={resultOf(call)}
            onInput={(e) => setResults({ ...results, [call.id]: e.currentTarget.value })}
          />
        </label>
      ))}
      <button type="submit" class="primary" disabled={busy}>
        Send the results
      </button>
    </form>
  );
}
