// What a task word *does* in the sentence (router.md "Word roles and fit", a Docket rule). The
// seed's matcher counts a skill's signal word wherever it appears, so "make greet.ts trim the name"
// reached naming-judgment through "name" — but there the name is data the code trims, not a name
// anyone asked to judge. Two readings decide, both over whole words, no model:
//
// - A behaviour verb in command position ("trim …" first, "make greet.ts trim …", "should trim")
//   says the task changes what the code does: the intent's domain when no domain word is written.
// - A one-word signal governed by a behaviour verb ("trim the name", "validate that the name …")
//   is an *object* of the task; one governed by the task's domain verb ("change the name") is its
//   *topic*; anything else is a *mention* (the word is there, nothing in the sentence acts on it).
//
// English reads left to right (the verb stands before its object); Korean marks the object with
// 을/를 and puts the verb after it ("이름을 다듬어줘").
import {
  BEHAVIOUR_VERBS,
  CAUSATIVE_VERBS,
  CLAUSE_WORDS,
  COMMAND_LEADS,
  DETERMINERS,
  KOREAN_BEHAVIOUR_STEMS,
  KOREAN_OBJECT_PARTICLES,
  KOREAN_PARTICLES,
  MAX_CAUSATIVE_OBJECT_WORDS,
  MAX_GOVERNING_DISTANCE,
  MAX_SUBJECT_WORDS,
} from "./lexicon";
import type { TaskSpan, TaskStage, Token } from "./planSchema";
import { isHangulWord, topLevelUnits } from "./tokens";

/** Gaps a clause continues across: spaces, quotes, backticks, emphasis (other punctuation ends it). */
const CLAUSE_GAP = /^[\s"'`*_\u201C\u201D\u2018\u2019]*$/u;

function fold(text: string): string {
  return text.replaceAll("\u2019", "'").toLowerCase();
}

const unitCache = new WeakMap<TaskStage, readonly Token[]>();

/** Tokens not inside another token (a compound such as `greet.ts` is one unit), in order. */
function unitsOf(task: TaskStage): readonly Token[] {
  const cached = unitCache.get(task);
  if (cached !== undefined) return cached;
  const units = topLevelUnits(task);
  unitCache.set(task, units);
  return units;
}

function spanOf(task: TaskStage, token: Token): TaskSpan {
  return { start: token.start, end: token.end, text: task.text.slice(token.start, token.end) };
}

/** True when nothing but spaces and quotes lies between two adjacent units. */
function joined(task: TaskStage, left: Token, right: Token): boolean {
  return CLAUSE_GAP.test(task.text.slice(left.end, right.start));
}

function isDeterminer(token: Token | undefined): boolean {
  if (token === undefined) return false;
  const word = fold(token.text);
  return DETERMINERS.has(word) || word.endsWith("'s");
}

function koreanVerb(text: string): boolean {
  if (!isHangulWord(text)) return false;
  return KOREAN_BEHAVIOUR_STEMS.some((stem) => {
    if (!text.startsWith(stem) || text.length === stem.length) return false;
    // "출력을" is the noun with a particle; "출력해", "다듬어" carry a verb ending.
    return !KOREAN_PARTICLES.includes(text.slice(stem.length));
  });
}

/** Is the unit at `index` a behaviour verb used as a verb (not "the log", not "a sort")? */
function behaviourVerbAt(units: readonly Token[], index: number): boolean {
  const unit = units[index];
  if (unit === undefined) return false;
  if (koreanVerb(unit.text)) return true;
  return BEHAVIOUR_VERBS.has(fold(unit.text)) && !isDeterminer(units[index - 1]);
}

/** How many words stand before `index` in its clause (back to punctuation, a clause word or the start). */
function wordsBefore(task: TaskStage, units: readonly Token[], index: number): number {
  let count = 0;
  for (let back = index - 1; back >= 0; back -= 1) {
    if (!joined(task, units[back] as Token, units[back + 1] as Token) || CLAUSE_WORDS.has(fold((units[back] as Token).text))) break;
    count += 1;
  }
  return count;
}

/**
 * Is the behaviour verb at `index` the task's command: the first word of a clause, after a lead
 * ("should trim", "to trim") or a causative ("make greet.ts trim"), where the lead stands after at
 * most a short subject — "list the edge cases greet must handle" commands "list", not "handle".
 */
function commandPosition(task: TaskStage, units: readonly Token[], index: number): boolean {
  const unit = units[index] as Token;
  if (isHangulWord(unit.text)) return true;
  const before = wordsBefore(task, units, index);
  if (before === 0) return true;
  const previous = units[index - 1] as Token;
  if (COMMAND_LEADS.has(fold(previous.text))) return wordsBefore(task, units, index - 1) <= MAX_SUBJECT_WORDS;
  for (let back = 2; back <= Math.min(before, MAX_CAUSATIVE_OBJECT_WORDS + 1); back += 1) {
    if (CAUSATIVE_VERBS.has(fold((units[index - back] as Token).text))) return wordsBefore(task, units, index - back) <= MAX_SUBJECT_WORDS;
  }
  return false;
}

/**
 * The first behaviour verb in command position, or null: "make greet.ts trim the name" → "trim".
 * Korean behaviour verbs end their clause, so any one with a verb ending counts.
 */
export function commandVerb(task: TaskStage, blocked: readonly TaskSpan[]): TaskSpan | null {
  const units = unitsOf(task);
  for (let index = 0; index < units.length; index += 1) {
    const unit = units[index] as Token;
    if (!behaviourVerbAt(units, index) || !commandPosition(task, units, index)) continue;
    if (blocked.some((span) => span.start < unit.end && unit.start < span.end)) continue;
    return spanOf(task, unit);
  }
  return null;
}

export type WordRole =
  | { readonly role: "object"; readonly verb: TaskSpan }
  /** `direct`: only determiners stand between the verb and the word ("change the name"). */
  | { readonly role: "topic"; readonly verb: TaskSpan; readonly direct: boolean }
  | { readonly role: "mention" };

function unitIndexAt(units: readonly Token[], span: TaskSpan): number {
  return units.findIndex((unit) => unit.start <= span.start && span.end <= unit.end);
}

/**
 * What the word at `span` does in the task: the object of a behaviour verb, the topic of the
 * domain verb (`domainSpan`), or a mention. The nearest verb in the same clause decides.
 */
export function wordRole(task: TaskStage, span: TaskSpan, domainSpan: TaskSpan | null): WordRole {
  const units = unitsOf(task);
  const index = unitIndexAt(units, span);
  if (index < 0) return { role: "mention" };
  const unit = units[index] as Token;
  const isDomain = (token: Token): boolean => domainSpan !== null && token.start <= domainSpan.start && domainSpan.end <= token.end;
  if (isHangulWord(unit.text)) {
    // "이름을 다듬어줘": the object particle, then the verb.
    const rest = unit.text.slice(span.end - unit.start);
    const next = units[index + 1];
    if (!KOREAN_OBJECT_PARTICLES.includes(rest) || next === undefined || !joined(task, unit, next)) return { role: "mention" };
    if (isDomain(next)) return { role: "topic", verb: spanOf(task, next), direct: true };
    if (koreanVerb(next.text)) return { role: "object", verb: spanOf(task, next) };
    return { role: "mention" };
  }
  let direct = true;
  for (let back = 1; back <= MAX_GOVERNING_DISTANCE && index - back >= 0; back += 1) {
    const before = units[index - back] as Token;
    if (!joined(task, before, units[index - back + 1] as Token)) break;
    if (CLAUSE_WORDS.has(fold(before.text))) break;
    if (behaviourVerbAt(units, index - back)) return { role: "object", verb: spanOf(task, before) };
    if (isDomain(before)) return { role: "topic", verb: spanOf(task, before), direct };
    direct &&= isDeterminer(before);
  }
  return { role: "mention" };
}
