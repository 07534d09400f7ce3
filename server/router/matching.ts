// Matching rules (router.md): how a name or lexicon phrase meets the task's words, and how a
// written file name meets the snapshot. Whole tokens, never substrings — the seed's first router
// matched a module `web` in "webhook", `Go` in "going" and `R` in every sentence.
//
// - A phrase is tokenized like the task; its words must equal consecutive task words, with the
//   same joints between them: "." "/" "\" and other punctuation exactly, while a space or a hyphen
//   matches any run of whitespace or a single hyphen ("code reviewer" ~ "code-reviewer").
//   Punctuation before the first or after the last word of the phrase ("C++", ".NET", "@scope/x")
//   must be written too.
// - Names of three characters or fewer match only as written (case-exactly), and never glued to
//   "&", "+" or "#" ("R&D" is not R, "C++" is not C); longer ones ignore case (`toLowerCase`).
//   Lexicon phrases (verbs, signal words) ignore case at any length (`anyCase`).
// - Korean attaches particles and verb endings to the word ("웹훅을", "수정해줘"), so a Hangul
//   phrase's last word, when it has two or more syllables or ends a multi-word phrase, also
//   matches a Hangul task word that starts with it; the span covers the phrase's part only.
// - A trailing possessive "'s" is not part of the name ("Go's runtime" names Go).
import { compareCodeUnits } from "../ledger/canonicalJson";
import type { TaskSpan, TaskStage, Token, WorkspaceSnapshot } from "./planSchema";
import { asciiBlockOf, pathsNamedInBlock } from "./pathBlock";
import { atomsOf, isAtom, isHangulWord, isWordChar, tokenize } from "./tokens";

/** How many characters (code points) a name may have and still be matched only case-exactly. */
export const SHORT_NAME_LENGTH = 3;

export interface PhraseOptions {
  /** Ignore case whatever the length (lexicon words: "API", "Fix", "XSS"). */
  readonly anyCase?: boolean;
}

interface Pattern {
  readonly prefix: string;
  readonly words: readonly string[];
  readonly gaps: readonly string[];
  readonly suffix: string;
  readonly caseExact: boolean;
  readonly short: boolean;
}

function foldApostrophes(text: string): string {
  return text.replaceAll("\u2019", "'");
}

// Lexicon phrases are compiled thousands of times per plan; names from catalogues and snapshots
// are unbounded, so the cache is cleared rather than allowed to grow without limit.
const MAX_CACHED_PATTERNS = 4096;
const patternCache = new Map<string, Pattern | null>();

function patternKey(phrase: string, options: PhraseOptions): string {
  return `${options.anyCase === true ? "1" : "0"}${phrase}`;
}

function compileCached(phrase: string, options: PhraseOptions): Pattern | null {
  const key = patternKey(phrase, options);
  if (patternCache.has(key)) return patternCache.get(key) as Pattern | null;
  if (patternCache.size >= MAX_CACHED_PATTERNS) patternCache.clear();
  const pattern = compile(phrase, options);
  patternCache.set(key, pattern);
  return pattern;
}

function compile(phrase: string, options: PhraseOptions): Pattern | null {
  const text = phrase.normalize("NFC").trim();
  const atoms = tokenize(text).filter(isAtom);
  const first = atoms[0];
  const last = atoms[atoms.length - 1];
  if (first === undefined || last === undefined) return null;
  const gaps: string[] = [];
  for (let index = 1; index < atoms.length; index += 1) gaps.push(text.slice((atoms[index - 1] as Token).end, (atoms[index] as Token).start));
  const short = [...text].length <= SHORT_NAME_LENGTH;
  return {
    prefix: text.slice(0, first.start),
    words: atoms.map((atom) => foldApostrophes(atom.text)),
    gaps,
    suffix: text.slice(last.end),
    caseExact: short && options.anyCase !== true,
    short,
  };
}

const SOFT_GAP = /^(?:\s+|\s*-\s*)$/u;
const SOFT_TASK_GAP = /^(?:\s+|-)$/u;

function gapMatches(phraseGap: string, taskGap: string): boolean {
  return SOFT_GAP.test(phraseGap) ? SOFT_TASK_GAP.test(taskGap) : phraseGap === taskGap;
}

/**
 * Where a task word matches a phrase word: the end offset of the matched part, or -1. `last`
 * allows the possessive; `multi` lets a one-syllable Hangul word match as a stem.
 */
function wordMatch(atom: Token, word: string, pattern: Pattern, last: boolean): number {
  const written = foldApostrophes(atom.text);
  const same = (left: string, right: string): boolean => (pattern.caseExact ? left === right : left.toLowerCase() === right.toLowerCase());
  if (same(written, word)) return atom.end;
  if (last && /'s$/u.test(written) && same(written.slice(0, -2), word)) return atom.end - 2;
  if (isHangulWord(word) && (word.length >= 2 || pattern.words.length > 1) && written.startsWith(word)) return atom.start + word.length;
  return -1;
}

interface AtomIndex {
  readonly atoms: readonly Token[];
  /** Positions of atoms by lower-case text (and by the text before a possessive "'s"). */
  readonly byWord: ReadonlyMap<string, readonly number[]>;
  /** Positions of Hangul atoms by their first syllable (stems match word beginnings). */
  readonly byFirstSyllable: ReadonlyMap<string, readonly number[]>;
}

const atomCache = new WeakMap<TaskStage, AtomIndex>();

function push(map: Map<string, number[]>, key: string, position: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [position]);
  else if (list[list.length - 1] !== position) list.push(position);
}

function taskAtoms(task: TaskStage): AtomIndex {
  const cached = atomCache.get(task);
  if (cached !== undefined) return cached;
  const atoms = atomsOf(task);
  const byWord = new Map<string, number[]>();
  const byFirstSyllable = new Map<string, number[]>();
  atoms.forEach((atom, position) => {
    const lower = foldApostrophes(atom.text).toLowerCase();
    push(byWord, lower, position);
    if (lower.endsWith("'s")) push(byWord, lower.slice(0, -2), position);
    if (isHangulWord(atom.text)) push(byFirstSyllable, atom.text.slice(0, 1), position);
  });
  const index: AtomIndex = { atoms, byWord, byFirstSyllable };
  atomCache.set(task, index);
  return index;
}

function spanOf(task: TaskStage, start: number, end: number): TaskSpan {
  return { start, end, text: task.text.slice(start, end) };
}

function matchAt(task: TaskStage, atoms: readonly Token[], index: number, pattern: Pattern): TaskSpan | null {
  const text = task.text;
  let end = -1;
  for (let offset = 0; offset < pattern.words.length; offset += 1) {
    const atom = atoms[index + offset];
    if (atom === undefined) return null;
    if (offset > 0) {
      const previous = atoms[index + offset - 1] as Token;
      // A word matched only by its stem cannot be followed by more of the phrase.
      if (end !== previous.end) return null;
      if (!gapMatches(pattern.gaps[offset - 1] as string, text.slice(previous.end, atom.start))) return null;
    }
    end = wordMatch(atom, pattern.words[offset] as string, pattern, offset === pattern.words.length - 1);
    if (end < 0) return null;
  }
  const firstAtom = atoms[index] as Token;
  let start = firstAtom.start;
  if (pattern.prefix.length > 0) {
    if (text.slice(start - pattern.prefix.length, start) !== pattern.prefix) return null;
    start -= pattern.prefix.length;
    const before = text[start - 1];
    if (before !== undefined && isWordChar(before)) return null;
  }
  if (pattern.suffix.length > 0) {
    const lastAtom = atoms[index + pattern.words.length - 1] as Token;
    if (end !== lastAtom.end || text.slice(end, end + pattern.suffix.length) !== pattern.suffix) return null;
    end += pattern.suffix.length;
    const after = text[end];
    if (after !== undefined && isWordChar(after)) return null;
  }
  if (pattern.short) {
    const before = text[start - 1];
    const after = text[end];
    if (before === "&" || after === "&") return null;
    if (pattern.suffix.length === 0 && (after === "+" || after === "#")) return null;
  }
  return spanOf(task, start, end);
}

const ASCII_ONLY = /^[\u0000-\u007f]*$/u;
/** Beyond this many distinct task words the shortcut's substring tests could cost more than compiling. */
const MAX_SHORTCUT_WORDS = 64;

/**
 * True when `phrase` certainly matches nowhere in the task, decided without tokenizing it: a match
 * starts at a task word whose lower case (an index key) equals the phrase's first word in lower
 * case, and in ASCII text that word, lower-cased, is a substring of the phrase lower-cased (NFC
 * and trimming change no ASCII text). A plan asks this for every module name and lexicon phrase,
 * and tokenizing each one cost more than the rest of grounding. Non-ASCII phrases (Hangul stems,
 * case folds that change length) are always compiled, and so is every phrase of a task with more
 * than MAX_SHORTCUT_WORDS distinct words.
 */
function cannotMatch(byWord: ReadonlyMap<string, readonly number[]>, phrase: string): boolean {
  if (byWord.size > MAX_SHORTCUT_WORDS || !ASCII_ONLY.test(phrase)) return false;
  const lower = phrase.toLowerCase();
  for (const word of byWord.keys()) if (lower.includes(word)) return false;
  return true;
}

/** cannotMatch for a task. Exported for its tests, which check that no such phrase ever matches. */
export function phraseCannotMatch(task: TaskStage, phrase: string): boolean {
  return cannotMatch(taskAtoms(task).byWord, phrase);
}

/** Every place the task says `phrase`, as whole tokens (see the file comment), sorted by start. */
export function findPhrase(task: TaskStage, phrase: string, options: PhraseOptions = {}): TaskSpan[] {
  // A phrase compiled already (a backend planning task after task) is looked up by its first word.
  if (!patternCache.has(patternKey(phrase, options)) && cannotMatch(taskAtoms(task).byWord, phrase)) return [];
  return findCompiledPhrase(task, phrase, options);
}

/** findPhrase without its shortcut: the phrase is always compiled. Exported for the tests that compare the two. */
export function findCompiledPhrase(task: TaskStage, phrase: string, options: PhraseOptions = {}): TaskSpan[] {
  const pattern = compileCached(phrase, options);
  if (pattern === null) return [];
  const { atoms, byWord, byFirstSyllable } = taskAtoms(task);
  const first = pattern.words[0] as string;
  // Only atoms that could match the first word are tried (an exact or stem hit is always indexed).
  const starts = new Set([...(byWord.get(first.toLowerCase()) ?? []), ...(isHangulWord(first) ? (byFirstSyllable.get(first.slice(0, 1)) ?? []) : [])]);
  const spans: TaskSpan[] = [];
  const seen = new Set<string>();
  for (const index of [...starts].sort((left, right) => left - right)) {
    const span = matchAt(task, atoms, index, pattern);
    if (span === null) continue;
    const key = `${span.start}:${span.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    spans.push(span);
  }
  return spans.sort((left, right) => left.start - right.start || left.end - right.end);
}

// ── Grounding written names in the snapshot ──────────────────────────────────────────────────

/**
 * Lookups over the snapshot's files and folders. A process that plans once (`docket plan`) asks a
 * handful of names, so each is answered by one pass over the list (about a millisecond for
 * 100,000 files) and remembered; only after many distinct names (a long-lived backend planning
 * task after task on one snapshot) are tables over every path built, which on 100,000 files cost
 * more than a whole plan. Both ways give the same answers in the same order (list order).
 */
export interface PathIndex {
  hasFile(path: string): boolean;
  hasDirectory(path: string): boolean;
  /** Files whose lower-case basename is `lowerName`. */
  filesNamed(lowerName: string): readonly string[];
  /** Folders whose lower-case basename is `lowerName`. */
  directoriesNamed(lowerName: string): readonly string[];
}

export function basename(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? path : path.slice(slash + 1);
}

/**
 * True when `path`'s basename, lower-cased, is `lowerName`. Compared from the end without building
 * strings while the basename is ASCII (an ASCII letter lower-cases alone, whatever surrounds it);
 * a name with any other character is lower-cased whole, as the tables do.
 */
function basenameIs(path: string, lowerName: string): boolean {
  let want = lowerName.length - 1;
  for (let at = path.length - 1; at >= 0; at -= 1, want -= 1) {
    const code = path.charCodeAt(at);
    if (code === 0x2f) return want === -1;
    if (code >= 0x80) return basename(path).toLowerCase() === lowerName;
    // Lower-casing never removes a character, so a longer basename cannot match.
    if (want < 0) return false;
    const folded = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    if (folded !== lowerName.charCodeAt(want)) return false;
  }
  return want === -1;
}

function byLowerBase(paths: readonly string[]): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const path of paths) {
    const name = basename(path).toLowerCase();
    const list = result.get(name);
    if (list === undefined) result.set(name, [path]);
    else list.push(path);
  }
  return result;
}

/** Distinct names looked up by scanning before the tables are built. */
const SCANS_BEFORE_TABLES = 16;

/** One list's lookups: scans remembered per name, then tables once the scans add up. */
class PathList {
  private set: ReadonlySet<string> | null = null;
  private byBase: ReadonlyMap<string, readonly string[]> | null = null;
  private readonly scanned = new Map<string, readonly string[]>();
  private readonly present = new Map<string, boolean>();

  /** The ASCII text the list was split from, when known (pathBlock.ts): names are searched in it. */
  private readonly block: string | undefined;

  constructor(private readonly paths: readonly string[]) {
    this.block = asciiBlockOf(paths);
  }

  has(path: string): boolean {
    if (this.set !== null) return this.set.has(path);
    let known = this.present.get(path);
    if (known === undefined) {
      known = this.paths.includes(path);
      this.remember(this.present, path, known);
    }
    return known;
  }

  named(lowerName: string): readonly string[] {
    if (this.byBase !== null) return this.byBase.get(lowerName) ?? [];
    let found = this.scanned.get(lowerName);
    if (found === undefined) {
      found = (this.block === undefined ? undefined : pathsNamedInBlock(this.block, lowerName)) ?? this.scan(lowerName);
      this.remember(this.scanned, lowerName, found);
    }
    return found;
  }

  /** A plain loop, not filter's callback: it runs over every path, mostly before the JIT has optimized it. */
  private scan(lowerName: string): string[] {
    const paths = this.paths;
    const hits: string[] = [];
    for (let at = 0; at < paths.length; at += 1) {
      const path = paths[at] as string;
      if (basenameIs(path, lowerName)) hits.push(path);
    }
    return hits;
  }

  private remember<T>(memo: Map<string, T>, key: string, value: T): void {
    memo.set(key, value);
    if (this.scanned.size + this.present.size < SCANS_BEFORE_TABLES) return;
    this.set = new Set(this.paths);
    this.byBase = byLowerBase(this.paths);
    this.scanned.clear();
    this.present.clear();
  }
}

const indexCache = new WeakMap<WorkspaceSnapshot, PathIndex>();

/** Lookups over the snapshot's files and folders (cached per snapshot object). */
export function pathIndex(snapshot: WorkspaceSnapshot): PathIndex {
  const cached = indexCache.get(snapshot);
  if (cached !== undefined) return cached;
  const files = new PathList(snapshot.files);
  const directories = new PathList(snapshot.directories);
  const index: PathIndex = {
    hasFile: (path) => files.has(path),
    hasDirectory: (path) => directories.has(path),
    filesNamed: (lowerName) => files.named(lowerName),
    directoriesNamed: (lowerName) => directories.named(lowerName),
  };
  indexCache.set(snapshot, index);
  return index;
}

/** Files or folders whose basename is `name`, case-exactly or ignoring case. */
export function withBasename(named: (lowerName: string) => readonly string[], name: string, ignoreCase: boolean): string[] {
  const list = named(name.toLowerCase());
  return ignoreCase ? [...list] : list.filter((path) => basename(path) === name);
}

export type Grounding =
  | { readonly outcome: "found"; readonly kind: "file" | "directory"; readonly path: string; readonly how: string }
  | { readonly outcome: "ambiguous"; readonly kind: "file" | "directory"; readonly candidates: readonly string[] }
  | { readonly outcome: "none"; readonly sameName: readonly string[] };

/** A written path as a snapshot-relative POSIX path: `\` → `/`, no leading `./`, `../`, `~/`, `/`. */
export function normalizeWrittenPath(written: string): { path: string; directoryOnly: boolean } {
  let path = written.replaceAll("\\", "/");
  const directoryOnly = path.endsWith("/");
  path = path.replace(/\/+$/u, "");
  path = path.replace(/^(?:\.\.?\/|~\/|\/)+/u, "");
  return { path, directoryOnly };
}

function lookup(path: string, has: (path: string) => boolean, named: (lowerName: string) => readonly string[], ignoreCase: boolean): string[] {
  if (!ignoreCase && has(path)) return [path];
  const key = ignoreCase ? path.toLowerCase() : path;
  const fold = (value: string): string => (ignoreCase ? value.toLowerCase() : value);
  const candidates = withBasename(named, basename(path), ignoreCase);
  // The exact path (ignoring case) wins over longer paths that merely end with it.
  const exactHits = candidates.filter((candidate) => fold(candidate) === key);
  if (exactHits.length > 0) return exactHits;
  return candidates.filter((candidate) => fold(candidate).endsWith(`/${key}`));
}

function decide(kind: "file" | "directory", candidates: readonly string[], how: string): Grounding | null {
  const sorted = [...new Set(candidates)].sort(compareCodeUnits);
  if (sorted.length === 0) return null;
  if (sorted.length === 1) return { outcome: "found", kind, path: sorted[0] as string, how };
  return { outcome: "ambiguous", kind, candidates: sorted };
}

/**
 * Grounds a written file or folder name: the exact relative path, else a unique path ending with
 * it (`webhook.ts` → `src/payments/webhook.ts`); case-exact first, then ignoring case (the person
 * wrote "Readme.md", the project has "README.md"). Several candidates are ambiguous, never guessed.
 */
export function groundPath(written: string, index: PathIndex): Grounding {
  const { path, directoryOnly } = normalizeWrittenPath(written);
  if (path.length === 0) return { outcome: "none", sameName: [] };
  for (const ignoreCase of [false, true]) {
    const how = ignoreCase ? " ignoring case" : "";
    if (!directoryOnly) {
      const found = decide("file", lookup(path, index.hasFile, index.filesNamed, ignoreCase), `a file${how}`);
      if (found !== null) return found;
    }
    const found = decide("directory", lookup(path, index.hasDirectory, index.directoriesNamed, ignoreCase), `a folder${how}`);
    if (found !== null) return found;
  }
  const sameName = withBasename(index.filesNamed, basename(path), true).sort(compareCodeUnits);
  return { outcome: "none", sameName };
}
