// Stage 2, TASK INTENT (router.md): what the task asks, read without a model. A domain is a verb
// from the lexicon, a signal is a word the person wrote, an entity is a written name the snapshot
// has (reported in the project's spelling), and risk is a set of named rules over those. Every
// element carries the span or snapshot fact it came from, so the Plan panel can show it.
import { compareCodeUnits } from "../ledger/canonicalJson";
import {
  CLAUSE_WORDS,
  DETERMINERS,
  DOMAIN_LEXICON,
  DOMAIN_SUFFIXES,
  DOTTED_TECHNOLOGY_NAMES,
  FOLDER_QUALIFIERS,
  KOREAN_CLAUSE_ENDINGS,
  KOREAN_PARTICLES,
  MANIFEST_NAMES,
  MANIFEST_PATTERNS,
  MANY_ENTITIES,
  MAX_TARGET_WORDS,
  MAX_TARGET_WORDS_BEFORE,
  MODULE_QUALIFIERS,
  NEGATED_GERUNDS,
  NEGATIVE_LEXICON,
  NO_IDIOMS,
  NOT_NAMES,
  OBJECT_NAMES_DOMAIN,
  PLAN_FIRST_WORD,
  PLAN_ONLY_LEXICON,
  SECURITY_PATH_SEGMENTS,
  SIGNAL_LEXICON,
  type NegativeEntry,
} from "./lexicon";
import { basename, findPhrase, groundPath, normalizeWrittenPath, pathIndex, SHORT_NAME_LENGTH, withBasename, type PathIndex } from "./matching";
import type {
  Ambiguity,
  Domain,
  ExecutionMode,
  IntentEntity,
  IntentStage,
  Reason,
  RiskItem,
  Signal,
  SnapshotModule,
  TaskSpan,
  TaskStage,
  Token,
  Unmatched,
  WorkspaceSnapshot,
} from "./planSchema";
import { isAtom, isHangulWord, topLevelUnits } from "./tokens";
import { commandVerb } from "./wordRole";

// ── Shared helpers ───────────────────────────────────────────────────────────────────────────

function spanOf(task: TaskStage, start: number, end: number): TaskSpan {
  return { start, end, text: task.text.slice(start, end) };
}

function compareSpans(left: TaskSpan, right: TaskSpan): number {
  return left.start - right.start || left.end - right.end;
}

function contains(outer: TaskSpan, inner: TaskSpan): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

function overlaps(left: TaskSpan, right: TaskSpan): boolean {
  return left.start < right.end && right.start < left.end;
}

function fold(text: string): string {
  return text.replaceAll("\u2019", "'").toLowerCase();
}

/** What one deriveIntent call reads over and over. */
interface Context {
  readonly task: TaskStage;
  readonly snapshot: WorkspaceSnapshot;
  /** Built on first use (tasks that name no file never pay for indexing a large snapshot). */
  readonly index: () => PathIndex;
  /** Tokens not inside another token: words, whole compounds, URLs. */
  readonly units: readonly Token[];
  readonly pathCompounds: readonly Token[];
}


/** Index of the first unit starting at or after `offset` (units are sorted and do not overlap). */
function firstUnitFrom(context: Context, offset: number): number {
  let low = 0;
  let high = context.units.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((context.units[middle] as Token).start < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A span strictly inside a path-like compound is part of a name, not a word ("test" in `test/a.ts`). */
function insidePath(context: Context, span: TaskSpan): boolean {
  return context.pathCompounds.some((token) => token.start <= span.start && span.end <= token.end && (token.start !== span.start || token.end !== span.end));
}

function lexiconSpans(context: Context, phrase: string): TaskSpan[] {
  return findPhrase(context.task, phrase, { anyCase: true }).filter((span) => !insidePath(context, span));
}

/** Every word of either lexicon, lower case (a name that is also a lexicon word needs a qualifier). */
const LEXICON_WORDS: ReadonlySet<string> = new Set([...DOMAIN_LEXICON, ...SIGNAL_LEXICON].map((entry) => entry.phrase.toLowerCase()));

// ── Signals ──────────────────────────────────────────────────────────────────────────────────

/** Drops a signal whose span lies inside a longer one of the same kind ("must" inside "must not"). */
function dropContained(signals: readonly Signal[]): Signal[] {
  return signals.filter(
    (signal) =>
      !signals.some(
        (other) => other !== signal && other.kind === signal.kind && contains(other.span, signal.span) && other.span.end - other.span.start > signal.span.end - signal.span.start,
      ),
  );
}

function plainSignals(context: Context): Signal[] {
  const signals: Signal[] = [];
  const seen = new Set<string>();
  for (const entry of SIGNAL_LEXICON) {
    for (const span of lexiconSpans(context, entry.phrase)) {
      const key = `${entry.value}:${span.start}:${span.end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      signals.push({ kind: entry.value, word: entry.phrase, span, target: null });
    }
  }
  return dropContained(signals);
}

/** Gaps a negated target may cross: spaces, quotes, backticks, emphasis (any other punctuation ends it). */
const TARGET_GAP = /^[\s"'`*_\u201C\u201D\u2018\u2019]*$/u;

function targetSpan(context: Context, picked: readonly Token[], lastEnd?: number): TaskSpan | null {
  const first = picked[0];
  const last = picked[picked.length - 1];
  if (first === undefined || last === undefined) return null;
  return spanOf(context.task, first.start, lastEnd ?? last.end);
}

function targetAfter(context: Context, from: number): Token[] {
  const picked: Token[] = [];
  let cursor = from;
  for (const unit of context.units.slice(firstUnitFrom(context, from))) {
    if (!TARGET_GAP.test(context.task.text.slice(cursor, unit.start))) break;
    const word = fold(unit.text);
    if (CLAUSE_WORDS.has(word)) break;
    cursor = unit.end;
    if (picked.length === 0 && (DETERMINERS.has(word) || NEGATED_GERUNDS.has(word))) continue;
    picked.push(unit);
    if (picked.length >= MAX_TARGET_WORDS) break;
  }
  return picked;
}

function endsClause(word: string): boolean {
  return isHangulWord(word) && KOREAN_CLAUSE_ENDINGS.some((ending) => word.length > ending.length && word.endsWith(ending));
}

function isKoreanVerbNoun(word: string): boolean {
  return DOMAIN_LEXICON.some((entry) => isHangulWord(entry.phrase) && word.startsWith(entry.phrase));
}

/** The target before a Korean trigger, and where the trigger starts (a skipped verb noun joins it: "변경 금지"). */
function targetBefore(context: Context, to: number, entry: NegativeEntry): { target: TaskSpan; triggerStart: number } | null {
  const picked: Token[] = [];
  let cursor = to;
  let skipped: Token | null = null;
  for (let index = firstUnitFrom(context, to) - 1; index >= 0; index -= 1) {
    const unit = context.units[index] as Token;
    if (unit.end > to) continue;
    if (!TARGET_GAP.test(context.task.text.slice(unit.end, cursor))) break;
    if (CLAUSE_WORDS.has(fold(unit.text)) || endsClause(unit.text)) break;
    cursor = unit.start;
    if (picked.length === 0 && skipped === null && entry.skipsVerb === true && isKoreanVerbNoun(unit.text)) {
      skipped = unit;
      continue;
    }
    picked.unshift(unit);
    if (picked.length >= MAX_TARGET_WORDS_BEFORE) break;
  }
  // "테스트 금지" (no tests): with nothing before it, the noun is the target after all.
  if (picked.length === 0 && skipped !== null) {
    picked.push(skipped);
    skipped = null;
  }
  const triggerStart = skipped === null ? to : skipped.start;
  const last = picked[picked.length - 1];
  if (last === undefined) return null;
  let lastEnd = last.end;
  if (isHangulWord(last.text)) {
    const particle = KOREAN_PARTICLES.find((item) => last.text.length > item.length && last.text.endsWith(item));
    if (particle !== undefined) lastEnd -= particle.length;
  }
  const target = targetSpan(context, picked, lastEnd);
  return target === null ? null : { target, triggerStart };
}

function targetBetween(context: Context, from: number, entry: NegativeEntry): { target: TaskSpan; marker: string } | null {
  const markers = entry.until
    .flatMap((phrase) => lexiconSpans(context, phrase).map((span) => ({ span, phrase })))
    .filter((item) => item.span.start >= from)
    .sort((left, right) => compareSpans(left.span, right.span) || compareCodeUnits(left.phrase, right.phrase));
  const first = markers[0];
  if (first === undefined) return null;
  const marker = first.span;
  const picked: Token[] = [];
  let cursor = from;
  for (const unit of context.units.slice(firstUnitFrom(context, from))) {
    if (unit.start >= marker.start) break;
    if (!TARGET_GAP.test(context.task.text.slice(cursor, unit.start))) return null;
    const word = fold(unit.text);
    if (CLAUSE_WORDS.has(word)) return null;
    cursor = unit.end;
    if (picked.length === 0 && DETERMINERS.has(word)) continue;
    picked.push(unit);
  }
  if (picked.length > MAX_TARGET_WORDS || !TARGET_GAP.test(context.task.text.slice(cursor, marker.start))) return null;
  const target = targetSpan(context, picked);
  return target === null ? null : { target, marker: first.phrase };
}

function negativeSignals(context: Context): Signal[] {
  const signals: Signal[] = [];
  for (const entry of NEGATIVE_LEXICON) {
    for (const span of lexiconSpans(context, entry.phrase)) {
      let target: TaskSpan | null;
      let word = entry.phrase;
      let trigger = span;
      if (entry.place === "after") {
        const picked = targetAfter(context, span.end);
        // "no longer", "no matter": idioms, not negations.
        if (entry.phrase === "no" && picked[0] !== undefined && NO_IDIOMS.has(fold(picked[0].text))) continue;
        target = targetSpan(context, picked);
      } else if (entry.place === "before") {
        const before = targetBefore(context, span.start, entry);
        target = before?.target ?? null;
        if (before !== null && before.triggerStart < span.start) trigger = spanOf(context.task, before.triggerStart, span.end);
      } else {
        const between = targetBetween(context, span.end, entry);
        target = between?.target ?? null;
        if (between !== null) word = `${entry.phrase} … ${between.marker}`;
      }
      if (target === null) continue;
      signals.push({ kind: "negative", word, span: trigger, target });
    }
  }
  // "except for X" also reads as "except" + "for X": the longer trigger wins.
  return dropContained(signals);
}

// ── Entities ─────────────────────────────────────────────────────────────────────────────────

interface Names {
  readonly entities: IntentEntity[];
  readonly unmatched: Unmatched[];
  readonly ambiguous: Ambiguity[];
}

function sameName(written: string, name: string): boolean {
  return [...name].length <= SHORT_NAME_LENGTH ? written === name : written.toLowerCase() === name.toLowerCase();
}

/** The qualifier a word is ("module", or "모듈" in "모듈은"), or null. */
function qualifierOf(word: string, qualifiers: readonly string[]): string | null {
  const lower = word.toLowerCase();
  return qualifiers.find((qualifier) => lower === qualifier || (isHangulWord(qualifier) && lower.startsWith(qualifier))) ?? null;
}

/** The unit right after `span` when only whitespace separates them. */
function nextUnit(context: Context, span: TaskSpan): Token | null {
  const unit = context.units[firstUnitFrom(context, span.end)];
  return unit !== undefined && /^\s+$/u.test(context.task.text.slice(span.end, unit.start)) ? unit : null;
}

function qualifiedAsModule(context: Context, span: TaskSpan): boolean {
  const next = nextUnit(context, span);
  return next !== null && (qualifierOf(next.text, MODULE_QUALIFIERS) !== null || qualifierOf(next.text, FOLDER_QUALIFIERS) !== null);
}

function looksLikeFile(written: string): boolean {
  if (DOTTED_TECHNOLOGY_NAMES.has(written.toLowerCase())) return false;
  const { path } = normalizeWrittenPath(written);
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  if (dot < 0) return false;
  const extension = name.slice(dot + 1);
  if (!/^[A-Za-z][A-Za-z0-9]{0,9}$/u.test(extension)) return false;
  if (extension !== extension.toLowerCase() && extension !== extension.toUpperCase()) return false;
  const parts = name.split(".");
  // "e.g", "i.e", "U.S": abbreviations; "1.x", "v2.beta": versions.
  if (parts.every((part) => [...part].length <= 1)) return false;
  const stem = parts.slice(0, -1).filter((part) => part.length > 0);
  if (stem.length > 0 && stem.every((part) => /^v?\d+$/iu.test(part))) return false;
  if (!path.includes("/") && DOMAIN_SUFFIXES.has(extension.toLowerCase())) return false;
  return true;
}

function looksLikePath(context: Context, written: string): boolean {
  if (!/[/\\]/u.test(written)) return false;
  const { path } = normalizeWrittenPath(written);
  const segments = path.split("/").filter((segment) => segment.length > 0);
  if (segments.length === 0) return false;
  if (/^(?:\.\.?[/\\]|~\/|[/\\])/u.test(written) || /[/\\]$/u.test(written)) return true;
  // "and/or", "client/server": two plain words are prose unless the first is a top-level folder.
  return segments.length >= 3 || context.index().hasDirectory(segments[0] as string);
}

function moduleAt(snapshot: WorkspaceSnapshot, path: string): SnapshotModule | null {
  const modules = snapshot.modules.filter((module) => module.path === path);
  return modules.length === 1 ? (modules[0] as SnapshotModule) : null;
}

function groundNames(context: Context): Names {
  const { task, snapshot } = context;
  const entities: IntentEntity[] = [];
  const unmatched: Unmatched[] = [];
  const ambiguous: Ambiguity[] = [];
  const covered: TaskSpan[] = [];
  const isCovered = (span: TaskSpan): boolean => covered.some((item) => item.start === span.start && item.end === span.end);
  // A name written twice is grounded once, and an unresolved one is reported at its first mention:
  // every candidate is listed, so repeating a list of thousands of paths would only bloat the plan.
  const groundings = new Map<string, ReturnType<typeof groundPath>>();
  const reported = new Set<string>();

  for (const technology of snapshot.technologies) {
    for (const span of findPhrase(task, technology.name)) {
      if (insidePath(context, span)) continue;
      entities.push({ kind: "technology", value: technology.name, span, path: technology.sources[0] ?? null });
      covered.push(span);
    }
  }

  const modulesByName = new Map<string, SnapshotModule[]>();
  for (const module of snapshot.modules) modulesByName.set(module.name, [...(modulesByName.get(module.name) ?? []), module]);
  for (const name of [...modulesByName.keys()].sort(compareCodeUnits)) {
    const modules = modulesByName.get(name) as SnapshotModule[];
    // A module called "test" or "docs" is read as a name only when the task says so ("the docs folder").
    const needsQualifier = LEXICON_WORDS.has(name.toLowerCase());
    for (const span of findPhrase(task, name)) {
      if (insidePath(context, span) || (needsQualifier && !qualifiedAsModule(context, span))) continue;
      covered.push(span);
      if (modules.length === 1) {
        const module = modules[0] as SnapshotModule;
        entities.push({ kind: "module", value: module.name, span, path: module.path });
      } else {
        ambiguous.push({ text: span.text, span, kind: "module", candidates: modules.map((module) => module.path).sort(compareCodeUnits) });
      }
    }
  }

  for (const unit of context.units) {
    const span = spanOf(task, unit.start, unit.end);
    if (isCovered(span)) continue;
    if (unit.pathLike) {
      const grounding = groundings.get(unit.text) ?? groundPath(unit.text, context.index());
      groundings.set(unit.text, grounding);
      covered.push(span);
      if (grounding.outcome !== "found") {
        if (reported.has(unit.text)) continue;
        reported.add(unit.text);
      }
      if (grounding.outcome === "found") {
        const module = grounding.kind === "directory" ? moduleAt(snapshot, grounding.path) : null;
        entities.push(
          module === null ? { kind: grounding.kind, value: grounding.path, span, path: grounding.path } : { kind: "module", value: module.name, span, path: module.path },
        );
      } else if (grounding.outcome === "ambiguous") {
        ambiguous.push({ text: unit.text, span, kind: grounding.kind, candidates: [...grounding.candidates] });
      } else {
        const file = looksLikeFile(unit.text);
        if (!file && !looksLikePath(context, unit.text)) continue;
        const path = normalizeWrittenPath(unit.text).path;
        const others = grounding.sameName.slice(0, 5);
        const more = grounding.sameName.length > others.length ? `, and ${grounding.sameName.length - others.length} more` : "";
        const hint = others.length > 0 ? `; files named "${basename(path)}" elsewhere: ${others.join(", ")}${more}` : "";
        unmatched.push({
          text: unit.text,
          span,
          looksLike: file ? "file" : "path",
          why: `no file or folder in the workspace snapshot is "${path}" or ends with "/${path}"${hint}`,
        });
      }
      continue;
    }
    // Extensionless file names written as such ("Makefile", "Dockerfile", "LICENSE").
    if (isAtom(unit) && [...unit.text].length > SHORT_NAME_LENGTH && /^\p{Lu}/u.test(unit.text) && !LEXICON_WORDS.has(unit.text.toLowerCase())) {
      const files = withBasename(context.index().filesNamed, unit.text, false).filter((path) => !basename(path).includes("."));
      if (files.length === 1) entities.push({ kind: "file", value: files[0] as string, span, path: files[0] as string });
      else if (files.length > 1) ambiguous.push({ text: unit.text, span, kind: "file", candidates: [...files].sort(compareCodeUnits) });
      if (files.length > 0) {
        covered.push(span);
        continue;
      }
    }
    qualifiedName(context, unit, span, covered, { entities, unmatched, ambiguous });
  }
  return { entities, unmatched, ambiguous };
}

/** "the billing module", "the payments folder": a name the task calls a module or a folder. */
function qualifiedName(context: Context, unit: Token, span: TaskSpan, covered: TaskSpan[], names: Names): void {
  const next = nextUnit(context, span);
  if (next === null) return;
  const moduleWord = qualifierOf(next.text, MODULE_QUALIFIERS);
  const qualifier = moduleWord ?? qualifierOf(next.text, FOLDER_QUALIFIERS);
  if (qualifier === null) return;
  const asModule = moduleWord !== null;
  const written = unit.text;
  const lower = fold(written);
  if ([...written].length < 2 || MODULE_QUALIFIERS.includes(lower) || FOLDER_QUALIFIERS.includes(lower)) return;
  if (context.snapshot.technologies.some((technology) => sameName(written, technology.name))) return;
  const modules = context.snapshot.modules.filter((module) => sameName(written, module.name));
  const folders = withBasename(context.index().directoriesNamed, written, true).filter((path) => sameName(written, basename(path)));
  const order = asModule ? ([["module", modules], ["directory", folders]] as const) : ([["directory", folders], ["module", modules]] as const);
  for (const [kind, found] of order) {
    if (found.length === 0) continue;
    covered.push(span);
    if (kind === "module") {
      const list = found as readonly SnapshotModule[];
      if (list.length === 1) names.entities.push({ kind: "module", value: (list[0] as SnapshotModule).name, span, path: (list[0] as SnapshotModule).path });
      else names.ambiguous.push({ text: written, span, kind: "module", candidates: list.map((module) => module.path).sort(compareCodeUnits) });
    } else {
      const list = [...(found as readonly string[])].sort(compareCodeUnits);
      const module = list.length === 1 ? moduleAt(context.snapshot, list[0] as string) : null;
      if (module !== null) names.entities.push({ kind: "module", value: module.name, span, path: module.path });
      else if (list.length === 1) names.entities.push({ kind: "directory", value: list[0] as string, span, path: list[0] as string });
      else names.ambiguous.push({ text: written, span, kind: "directory", candidates: list });
    }
    return;
  }
  // "the new module", "the test folder": ordinary words are not names that went missing.
  if (NOT_NAMES.has(lower) || LEXICON_WORDS.has(lower)) return;
  covered.push(span);
  names.unmatched.push({
    text: written,
    span,
    looksLike: asModule ? "module" : "path",
    why: asModule
      ? `the task writes "${qualifier}" after "${written}", but no module, package or folder in the workspace snapshot is named "${written}"`
      : `the task writes "${qualifier}" after "${written}", but no folder or module in the workspace snapshot is named "${written}"`,
  });
}

// ── Domain and execution mode ────────────────────────────────────────────────────────────────

function deriveDomain(context: Context, negatives: readonly Signal[], entities: readonly IntentEntity[]): IntentStage["domain"] {
  const blocked: TaskSpan[] = [...entities.map((entity) => entity.span)];
  for (const signal of negatives) {
    // The whole negated stretch, trigger to target ("without changing the API").
    const target = signal.target ?? signal.span;
    const start = Math.min(signal.span.start, target.start);
    const end = Math.max(signal.span.end, target.end);
    blocked.push({ start, end, text: context.task.text.slice(start, end) });
  }
  let best: { span: TaskSpan; value: Exclude<Domain, "unspecified"> } | null = null;
  for (const entry of DOMAIN_LEXICON) {
    for (const span of lexiconSpans(context, entry.phrase)) {
      // Words a negation covers ("don't change the tests") or that are a name say nothing about the verb.
      if (blocked.some((item) => overlaps(item, span))) continue;
      const better =
        best === null ||
        span.start < best.span.start ||
        (span.start === best.span.start && (span.end > best.span.end || (span.end === best.span.end && compareCodeUnits(entry.value, best.value) < 0)));
      if (better) best = { span, value: entry.value };
    }
  }
  if (best === null) {
    // Docket rule: "make greet.ts trim the name" names no domain verb, but a behaviour verb in
    // command position says the task changes what the code does.
    const verb = commandVerb(context.task, blocked);
    if (verb !== null) return { value: "change", reasons: [{ kind: "task-span", span: verb, note: `"${verb.text}" says what the code should do: a behaviour change` }] };
    return { value: "unspecified", reasons: [{ kind: "router-rule", rule: "no domain word from the lexicon appears in the task" }] };
  }
  const object = OBJECT_NAMES_DOMAIN.has(best.value) ? objectDomain(context, best.span, blocked) : null;
  if (object !== null) {
    return { value: object.value, reasons: [{ kind: "task-span", span: object.span, note: `"${object.span.text}" is what "${best.span.text}" acts on, so the domain is ${object.value}` }] };
  }
  return { value: best.value, reasons: [{ kind: "task-span", span: best.span, note: `"${best.span.text}" is the first domain word in the task, so the domain is ${best.value}` }] };
}

/** Test and documentation words name the work when an add/change verb acts on them. */
const OBJECT_DOMAINS: readonly { phrase: string; value: "test" | "document" }[] = [
  ...DOMAIN_LEXICON.filter((entry) => entry.value === "test" || entry.value === "document").map((entry) => ({ phrase: entry.phrase, value: entry.value as "test" | "document" })),
  ...SIGNAL_LEXICON.filter((entry) => entry.value === "testing" || entry.value === "documentation").map((entry) => ({
    phrase: entry.phrase,
    value: entry.value === "testing" ? ("test" as const) : ("document" as const),
  })),
];

/**
 * "add a unit test for greet.ts", "update the README": the verb's object (after determiners) is a
 * test or documentation word, so that is the kind of work. Null when the object is anything else.
 */
function objectDomain(context: Context, verb: TaskSpan, blocked: readonly TaskSpan[]): { span: TaskSpan; value: "test" | "document" } | null {
  let index = firstUnitFrom(context, verb.end);
  let cursor = verb.end;
  for (; index < context.units.length; index += 1) {
    const unit = context.units[index] as Token;
    if (!TARGET_GAP.test(context.task.text.slice(cursor, unit.start))) return null;
    if (!DETERMINERS.has(fold(unit.text))) break;
    cursor = unit.end;
  }
  const object = context.units[index];
  if (object === undefined || !TARGET_GAP.test(context.task.text.slice(cursor, object.start))) return null;
  let found: { span: TaskSpan; value: "test" | "document" } | null = null;
  for (const entry of OBJECT_DOMAINS) {
    for (const span of findPhrase(context.task, entry.phrase, { anyCase: true })) {
      if (span.start !== object.start || blocked.some((item) => overlaps(item, span))) continue;
      if (found === null || span.end > found.span.end) found = { span, value: entry.value };
    }
  }
  return found;
}

function planOnlySpans(context: Context): TaskSpan[] {
  const spans = PLAN_ONLY_LEXICON.flatMap((phrase) => lexiconSpans(context, phrase));
  const first = context.units[0];
  if (first !== undefined && isAtom(first) && first.text.toLowerCase() === PLAN_FIRST_WORD) spans.push(spanOf(context.task, first.start, first.end));
  const unique = new Map<string, TaskSpan>();
  for (const span of spans) unique.set(`${span.start}:${span.end}`, span);
  return [...unique.values()].sort(compareSpans);
}

function deriveMode(context: Context, domain: IntentStage["domain"], forced: ExecutionMode | null): IntentStage["executionMode"] {
  if (forced !== null) return { value: forced, reasons: [{ kind: "execution-mode", mode: forced }] };
  const plan = planOnlySpans(context);
  if (plan.length > 0) return { value: "plan-only", reasons: plan.map((span) => ({ kind: "task-span", span, note: "asks for a plan or an explanation, not changes" })) };
  const domainSpan = domain.reasons.find((reason) => reason.kind === "task-span");
  if (domainSpan !== undefined && domainSpan.kind === "task-span") {
    if (domain.value === "review") return { value: "review", reasons: [{ kind: "task-span", span: domainSpan.span, note: "a review task" }] };
    if (domain.value === "investigate") return { value: "investigate", reasons: [{ kind: "task-span", span: domainSpan.span, note: "an investigation task" }] };
    return { value: "implement", reasons: [{ kind: "task-span", span: domainSpan.span, note: `the domain ${domain.value} changes the workspace, so the mode is implement` }] };
  }
  return { value: "implement", reasons: [{ kind: "router-rule", rule: "no plan, review or investigation wording: the mode is implement" }] };
}

// ── Risk ─────────────────────────────────────────────────────────────────────────────────────

function entityReason(entity: IntentEntity): Reason {
  return { kind: "snapshot-entity", entityKind: entity.kind, value: entity.value, path: entity.path };
}

function signalReasons(signals: readonly Signal[], kind: Signal["kind"]): Reason[] {
  return signals.filter((signal) => signal.kind === kind).map((signal) => ({ kind: "task-span", span: signal.span, note: `${kind} signal "${signal.word}"` }));
}

function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

function isManifest(path: string, snapshot: WorkspaceSnapshot): boolean {
  const name = basename(path);
  return MANIFEST_NAMES.has(name) || MANIFEST_PATTERNS.some((pattern) => pattern.test(name)) || snapshot.modules.some((module) => module.manifest === path);
}

function isSecurityPath(path: string): boolean {
  return path.split("/").some((segment) => {
    const lower = segment.toLowerCase();
    const stem = lower.includes(".") ? lower.slice(0, lower.indexOf(".")) : lower;
    return SECURITY_PATH_SEGMENTS.has(lower) || SECURITY_PATH_SEGMENTS.has(stem);
  });
}

function dedupe(reasons: readonly Reason[]): Reason[] {
  const seen = new Set<string>();
  return reasons.filter((reason) => {
    const key = JSON.stringify(reason);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface RiskInput {
  readonly snapshot: WorkspaceSnapshot;
  readonly domain: IntentStage["domain"];
  readonly mode: IntentStage["executionMode"];
  readonly names: Names;
  readonly signals: readonly Signal[];
}

/** The named risk rules (docs/router.md lists them); each fires with the facts it rests on. */
function assessRisk({ snapshot, domain, mode, names, signals }: RiskInput): RiskItem[] {
  const items: RiskItem[] = [];
  const add = (rule: string, level: RiskItem["level"], reasons: readonly Reason[]): void => {
    if (reasons.length > 0) items.push({ rule, level, reasons: dedupe(reasons) });
  };
  const domainReasons = domain.reasons.filter((reason) => reason.kind === "task-span");
  // A name the task says to leave alone ("don't touch src/auth") is not something the change touches.
  const negated = signals.flatMap((signal) => (signal.kind === "negative" && signal.target !== null ? [signal.target] : []));
  const grounded = names.entities.filter(
    (entity) => entity.kind !== "technology" && entity.path !== null && !negated.some((target) => contains(target, entity.span)),
  );
  const files = grounded.filter((entity) => entity.kind === "file");

  add("security-signal", "high", [...signalReasons(signals, "security"), ...(domain.value === "secure" ? domainReasons : [])]);
  add("security-sensitive-path", "high", grounded.filter((entity) => isSecurityPath(entity.path as string)).map(entityReason));
  add("data-signal", "high", signalReasons(signals, "data"));
  add("compatibility-signal", "medium", signalReasons(signals, "compatibility"));
  add("destructive-change", "medium", domain.value === "remove" ? domainReasons : []);
  if (mode.value === "implement") add("urgent-change", "medium", signalReasons(signals, "urgency"));
  const ruleFiles = new Set(snapshot.ruleFiles.map((file) => file.path));
  add("touches-rule-file", "medium", files.filter((entity) => ruleFiles.has(entity.path as string)).map(entityReason));
  add("touches-manifest", "medium", files.filter((entity) => isManifest(entity.path as string, snapshot)).map(entityReason));
  const hot: Reason[] = [];
  for (const entity of grounded) {
    for (const hint of snapshot.hotPaths) {
      if (isWithin(entity.path as string, hint.path)) hot.push({ kind: "hot-path", path: hint.path, hint: hint.hint }, entityReason(entity));
    }
  }
  add("hot-path-entity", "medium", hot);
  const paths = new Set(grounded.map((entity) => entity.path as string));
  if (paths.size >= MANY_ENTITIES) add("many-entities", "medium", grounded.map(entityReason));
  add(
    "unmatched-names",
    "medium",
    names.unmatched.map((item) => ({ kind: "task-span", span: item.span, note: `"${item.text}" looks like a ${item.looksLike} but matches nothing in the workspace` })),
  );
  add(
    "ambiguous-names",
    "medium",
    names.ambiguous.map((item) => ({ kind: "task-span", span: item.span, note: `"${item.text}" matches ${item.candidates.length} ${item.kind} candidates` })),
  );
  return items.sort((left, right) => compareCodeUnits(left.rule, right.rule));
}

// ── The stage ────────────────────────────────────────────────────────────────────────────────

function compareEntities(left: IntentEntity, right: IntentEntity): number {
  return compareSpans(left.span, right.span) || compareCodeUnits(left.kind, right.kind) || compareCodeUnits(left.value, right.value);
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const value = key(item);
    if (seen.has(value)) return false;
    seen.add(value);
    return true;
  });
}

/** Derives the task's intent against the snapshot; `mode` (when given) overrides the derived execution mode. */
export function deriveIntent(task: TaskStage, snapshot: WorkspaceSnapshot, mode: ExecutionMode | null): IntentStage {
  const context: Context = {
    task,
    snapshot,
    index: () => pathIndex(snapshot),
    units: topLevelUnits(task),
    pathCompounds: task.tokens.filter((token) => token.pathLike),
  };
  const grounded = groundNames(context);
  const names: Names = {
    entities: uniqueBy(grounded.entities, (item) => `${item.span.start}:${item.span.end}:${item.kind}:${item.value}`).sort(compareEntities),
    // Unresolved names are reported once, at their first mention.
    unmatched: uniqueBy(
      [...grounded.unmatched].sort((left, right) => compareSpans(left.span, right.span) || compareCodeUnits(left.text, right.text)),
      (item) => `${item.looksLike}:${item.text}`,
    ),
    ambiguous: uniqueBy(
      [...grounded.ambiguous].sort((left, right) => compareSpans(left.span, right.span) || compareCodeUnits(left.kind, right.kind) || compareCodeUnits(left.text, right.text)),
      (item) => `${item.kind}:${item.text}`,
    ),
  };
  const negatives = negativeSignals(context);
  const signals = [...plainSignals(context), ...negatives].sort(
    (left, right) => compareSpans(left.span, right.span) || compareCodeUnits(left.kind, right.kind) || compareCodeUnits(left.word, right.word),
  );
  const domain = deriveDomain(context, negatives, names.entities);
  const executionMode = deriveMode(context, domain, mode);
  const risk = assessRisk({ snapshot, domain, mode: executionMode, names, signals });
  return { domain, entities: names.entities, unmatched: names.unmatched, ambiguous: names.ambiguous, signals, risk, executionMode };
}
