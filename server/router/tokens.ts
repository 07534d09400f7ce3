// The Router's tokenizer (router.md "Matching rules": whole tokens, Unicode word boundaries).
// Pure and locale-free: character classes come from Unicode property escapes, never from the
// host's locale, so the same text gives the same tokens on every machine.
//
// A task yields three kinds of token, all in one list sorted by start (longer first):
// - words ("atoms"): maximal runs of letters, marks, digits and connector punctuation (`_`), with
//   apostrophes kept inside a word ("don't"). A run is split where a no-space script (Hangul,
//   Han, Kana) meets any other script, because Korean particles attach straight onto Latin names
//   ("README를", "webhook.ts를") and the name must stay a token of its own;
// - compounds: two or more words joined by single `.`, `/`, `\` or `-` with no spaces
//   (`src/payments/webhook.ts`, `foo.bar`, `web-hook`), plus dotfiles (`.env`), names written
//   with a leading `./`, `../`, `/` or `~/`, and a trailing `/` (`payments/`). The words inside a
//   compound stay in the list too, so "web-hook" is reachable as "web", "hook" and "web-hook";
// - URLs (`scheme://…`) as one opaque token, so their words never read as task words.
// `pathLike` is true for compounds that contain `.`, `/` or `\` — a syntactic flag; whether a
// name *looks like a file* is the intent stage's judgement (see intent.ts).
import type { TaskStage, Token } from "./planSchema";

const WORD_CHAR = /[\p{L}\p{M}\p{N}\p{Pc}]/u;
const NO_SPACE_SCRIPT = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /^\p{Script=Hangul}+$/u;
const APOSTROPHES = new Set(["'", "\u2019"]);
const SEPARATORS = new Set([".", "/", "\\", "-"]);
const URL = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s<>"'`]+/gu;
const URL_TRAILING_PUNCTUATION = /[.,;:!?)\]}>'"\u2019]+$/u;
/** Prefixes that start a path-like compound, longest first. */
const COMPOUND_PREFIXES = [/(?:\.\.[/\\])+$/u, /\.[/\\]$/u, /~\/$/u, /[/\\]$/u, /\.$/u];

export function isWordChar(char: string): boolean {
  return WORD_CHAR.test(char);
}

/** True for a token made only of Hangul syllables/jamo (Korean words take particles as suffixes). */
export function isHangulWord(text: string): boolean {
  return HANGUL.test(text);
}

/** A word token (no separators); compounds and URLs contain `.`, `/`, `\`, `-` or `:`. */
export function isAtom(token: Token): boolean {
  return !/[./\\\-:~]/u.test(token.text);
}

/** The word tokens of a task, in order. */
export function atomsOf(task: TaskStage): Token[] {
  return task.tokens.filter(isAtom);
}

/** The compound tokens (path-like or hyphenated) of a task, in order; URLs excluded. */
export function compoundsOf(task: TaskStage): Token[] {
  return task.tokens.filter((token) => !isAtom(token) && !token.text.includes("://"));
}

interface Range {
  readonly start: number;
  readonly end: number;
}

function urlRanges(text: string): Range[] {
  const ranges: Range[] = [];
  for (const match of text.matchAll(URL)) {
    const start = match.index ?? 0;
    const trimmed = match[0].replace(URL_TRAILING_PUNCTUATION, "");
    // "http://" alone (nothing after the scheme) is not a URL worth keeping whole.
    if (trimmed.length > trimmed.indexOf("://") + 3) ranges.push({ start, end: start + trimmed.length });
  }
  return ranges;
}

/** Code points of `text` with their UTF-16 offsets. */
function codePoints(text: string): { char: string; start: number }[] {
  const result: { char: string; start: number }[] = [];
  let offset = 0;
  for (const char of text) {
    result.push({ char, start: offset });
    offset += char.length;
  }
  return result;
}

function wordRuns(text: string, skip: readonly Range[]): Range[] {
  const points = codePoints(text);
  const runs: Range[] = [];
  let runStart = -1;
  let runNoSpace = false;
  let skipIndex = 0;
  const close = (end: number): void => {
    if (runStart >= 0) runs.push({ start: runStart, end });
    runStart = -1;
  };
  for (let index = 0; index < points.length; index += 1) {
    const point = points[index] as { char: string; start: number };
    while (skipIndex < skip.length && (skip[skipIndex] as Range).end <= point.start) skipIndex += 1;
    const range = skip[skipIndex];
    if (range !== undefined && point.start >= range.start) {
      close(point.start);
      continue;
    }
    const { char, start } = point;
    if (isWordChar(char)) {
      const mark = /\p{M}/u.test(char);
      const noSpace = NO_SPACE_SCRIPT.test(char);
      if (runStart >= 0 && !mark && noSpace !== runNoSpace) close(start);
      if (runStart < 0) {
        runStart = start;
        runNoSpace = noSpace;
      }
      continue;
    }
    // An apostrophe joins two word characters ("don't"); anywhere else it ends the word.
    const next = points[index + 1];
    if (runStart >= 0 && APOSTROPHES.has(char) && next !== undefined && isWordChar(next.char) && !NO_SPACE_SCRIPT.test(next.char)) continue;
    close(start);
  }
  close(text.length);
  return runs;
}

function compoundStart(text: string, first: Range): number {
  const before = text.slice(Math.max(0, first.start - 30), first.start);
  for (const prefix of COMPOUND_PREFIXES) {
    const match = prefix.exec(before);
    if (match === null) continue;
    const start = first.start - match[0].length;
    const previous = text[start - 1];
    // "a.b" is already a join; a prefix needs a boundary before it (start, space, bracket, quote).
    if (previous === undefined || !(isWordChar(previous) || SEPARATORS.has(previous) || previous === "~")) return start;
  }
  return first.start;
}

function compounds(text: string, atoms: readonly Range[]): Token[] {
  const result: Token[] = [];
  let index = 0;
  while (index < atoms.length) {
    const first = atoms[index] as Range;
    let last = first;
    let count = 1;
    while (index + count < atoms.length) {
      const next = atoms[index + count] as Range;
      const gap = text.slice(last.end, next.start);
      if (gap.length !== 1 || !SEPARATORS.has(gap)) break;
      last = next;
      count += 1;
    }
    const start = compoundStart(text, first);
    let end = last.end;
    const after = text[end];
    const afterNext = text[end + 1];
    if ((after === "/" || after === "\\") && (afterNext === undefined || !(isWordChar(afterNext) || SEPARATORS.has(afterNext)))) end += 1;
    if (count > 1 || start !== first.start || end !== last.end) {
      const value = text.slice(start, end);
      result.push({ text: value, start, end, pathLike: /[./\\]/u.test(value) });
    }
    index += count;
  }
  return result;
}

export function compareTokens(left: Token, right: Token): number {
  return left.start - right.start || right.end - left.end;
}

/** Tokenizes NFC text (see the file comment for the three kinds of token). */
export function tokenize(text: string): Token[] {
  const urls = urlRanges(text);
  const runs = wordRuns(text, urls);
  const tokens: Token[] = runs.map((run) => ({ text: text.slice(run.start, run.end), start: run.start, end: run.end, pathLike: false }));
  tokens.push(...compounds(text, runs));
  for (const url of urls) tokens.push({ text: text.slice(url.start, url.end), start: url.start, end: url.end, pathLike: false });
  return tokens.sort(compareTokens);
}

/** Tokens not inside another token (a compound such as `greet.ts` is one unit: words, whole compounds, URLs), in order. */
export function topLevelUnits(task: TaskStage): Token[] {
  const units: Token[] = [];
  let end = 0;
  for (const token of task.tokens) {
    if (token.start < end) continue;
    units.push(token);
    end = token.end;
  }
  return units;
}
