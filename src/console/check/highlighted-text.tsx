import type { ComponentChildren } from 'preact';
import type { PointerSpan } from '../../json/locate-pointer.js';

/** A place to highlight: its span, the number shown beside it and what it says. */
export interface Mark {
  /** Where it is. */
  span: PointerSpan;
  /** The short label shown at its start (the finding's number). */
  label: string;
  /** What it says, as a tooltip. */
  title: string;
}

/**
 * The document's text with each finding's place marked. Spans may nest or overlap; the text is cut at every
 * span edge and each piece is marked when any span covers it. The number that opens finding N has the id
 * `mark-N`, so the findings list can move focus to it.
 */
export function HighlightedText({ text, marks }: { text: string; marks: Mark[] }) {
  const edges = new Set<number>([0, text.length]);
  for (const { span } of marks) {
    edges.add(Math.min(span.start, text.length));
    edges.add(Math.min(Math.max(span.end, span.start + 1), text.length));
  }
  const cuts = [...edges].sort((a, b) => a - b);
  const pieces: ComponentChildren[] = [];
  const started = new Set<number>();
  for (let k = 0; k + 1 < cuts.length; k++) {
    const from = cuts[k] as number;
    const to = cuts[k + 1] as number;
    const piece = text.slice(from, to);
    const covering = marks
      .map((mark, index) => ({ mark, index }))
      .filter(({ mark }) => mark.span.start <= from && Math.max(mark.span.end, mark.span.start + 1) >= to);
    if (covering.length === 0) {
      pieces.push(piece);
      continue;
    }
    const opening = covering.filter(({ index }) => !started.has(index));
    for (const { index } of opening) started.add(index);
    pieces.push(
      <mark key={from} title={covering.map(({ mark }) => mark.title).join('\n')}>
        {opening.map(({ mark, index }) => (
          <span key={index} id={`mark-${index + 1}`} tabIndex={-1} class="badge">
            {mark.label}
          </span>
        ))}
        {piece}
      </mark>,
    );
  }
  return (
    <figure class="source-figure">
      <figcaption>The document, findings highlighted</figcaption>
      <pre class="source">{pieces}</pre>
    </figure>
  );
}
