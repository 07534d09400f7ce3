// Decoded views of text that itself holds escaped text. A tool can print JSON (`cat
// credentials.json`, an MCP server answering with a JSON string), a log line can hold a quoted
// shell command: there a newline is the two characters `\n` and a quote is `\"`, so a rule that
// anchors on a line start or a quote misses a secret written right after one. Each view undoes one
// level of JSON/shell escaping and remembers where every one of its characters came from, so a
// secret found in the view is redacted at its real place in the original text.

/** A decoded view: `starts[i]` is where view character `i` begins in the original text. */
export interface EscapedView {
  readonly text: string;
  readonly starts: Int32Array;
  readonly originalLength: number;
}

/** Escapes this module undoes; anything else after a backslash stays as it is. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", '"': '"', "'": "'", "\\": "\\", "/": "/", b: "\b", f: "\f" };
const HAS_ESCAPE = /\\(?:[nrt"'\\/bf]|u[0-9A-Fa-f]{4})/;

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** One level of unescaping, or undefined when `text` holds no escape sequence. */
function unescapeOnce(text: string): { text: string; starts: Int32Array } | undefined {
  if (!HAS_ESCAPE.test(text)) return undefined;
  const starts = new Int32Array(text.length);
  const pieces: string[] = [];
  let length = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === "\\" && index + 1 < text.length) {
      const next = text[index + 1] as string;
      const simple = SIMPLE_ESCAPES[next];
      if (simple !== undefined) {
        pieces.push(simple);
        starts[length++] = index;
        index += 2;
        continue;
      }
      if (next === "u" && index + 5 < text.length && isHex(text.charCodeAt(index + 2)) && isHex(text.charCodeAt(index + 3)) && isHex(text.charCodeAt(index + 4)) && isHex(text.charCodeAt(index + 5))) {
        pieces.push(String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 6), 16)));
        starts[length++] = index;
        index += 6;
        continue;
      }
    }
    pieces.push(char);
    starts[length++] = index;
    index += 1;
  }
  return { text: pieces.join(""), starts: starts.slice(0, length) };
}

/** How many levels of escaping are undone at most (JSON in a JSON string in a log line). */
export const MAX_ESCAPE_LEVELS = 2;

/**
 * The decoded views of `text`, innermost last: one per level of escaping it holds, at most
 * MAX_ESCAPE_LEVELS. Linear in the text per level.
 */
export function escapedViews(text: string): EscapedView[] {
  const views: EscapedView[] = [];
  let current = text;
  let starts: Int32Array | undefined;
  for (let level = 0; level < MAX_ESCAPE_LEVELS; level += 1) {
    const next = unescapeOnce(current);
    if (next === undefined) break;
    // Compose with the previous level so every view maps straight back to the original text.
    const composed = starts === undefined ? next.starts : next.starts.map((position) => (starts as Int32Array)[position] as number);
    views.push({ text: next.text, starts: composed, originalLength: text.length });
    current = next.text;
    starts = composed;
  }
  return views;
}

/** The original range of view characters [start, end). */
export function originalRange(view: EscapedView, start: number, end: number): readonly [number, number] {
  const from = view.starts[start] ?? view.originalLength;
  const to = end < view.text.length ? (view.starts[end] as number) : view.originalLength;
  return [from, to];
}
