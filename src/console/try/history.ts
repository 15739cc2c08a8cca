import type { Modality } from './send-request.js';

/** One request sent from this browser, as the History list keeps it. */
export interface HistoryEntry {
  /** When it was sent (ISO 8601). */
  at: string;
  /** The route. */
  model: string;
  /** The modality. */
  modality: Modality;
  /** The prompt (empty for a transcription, whose audio is not kept). */
  prompt: string;
  /** The name of a transcription's audio file (the file itself is not kept). */
  audioName?: string;
  /** Whether the text answer was streamed. */
  stream: boolean;
  /** `ok`, or the envelope's error code. */
  outcome: string;
}

/** The `localStorage` key; the list never leaves the browser. */
const KEY = 'verdict-console-history';

/** Most entries kept, newest first. */
export const HISTORY_KEPT = 20;

/** Longest prompt kept, in characters: the list stays small whatever was typed. */
const PROMPT_KEPT = 4000;

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    ['at', 'model', 'modality', 'prompt', 'outcome'].every((key) => typeof entry[key] === 'string') &&
    (entry.audioName === undefined || typeof entry.audioName === 'string')
  );
}

/** The entries kept in this browser; none when storage is unavailable or holds something else. */
export function loadHistory(): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, HISTORY_KEPT) : [];
  } catch {
    return [];
  }
}

/** Keeps the entries; a browser that refuses storage (private mode, full) keeps them for this page only. */
export function saveHistory(entries: readonly HistoryEntry[]): void {
  try {
    if (entries.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // Storage refused: the list still lives in the page's state.
  }
}

/** The list with a new entry first; an earlier entry for the same request is dropped, the oldest beyond the limit too. */
export function addToHistory(entries: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const kept = { ...entry, prompt: entry.prompt.slice(0, PROMPT_KEPT) };
  const same = (e: HistoryEntry) =>
    e.model === kept.model && e.modality === kept.modality && e.prompt === kept.prompt;
  return [kept, ...entries.filter((e) => !same(e))].slice(0, HISTORY_KEPT);
}
