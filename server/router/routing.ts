// Stage 3, SKILL ROUTING: which catalogue entries the task reaches, each with checkable reasons.
// Pure and deterministic: the same task, intent and catalogue give the same candidates in the same
// order. docs/router.md "Skill routing" documents the weights below.
//
// - Declared (entries with routing metadata): a candidate needs at least one anchor: the task names
//   the skill, the intent's domain is in `domains`, a `signals` word is in the task, a grounded
//   technology entity is in `technologies`, or a fired risk rule is in `riskTags`. `entityKinds` and
//   `modes` only add weight: they are true of too many tasks to select a skill on their own.
// - Reviewer skills (metadata.reviewer set) are seated by the Review Board, so they are candidates
//   only when the task names them.
// - Described (entries without metadata): whole-token overlap of the task with the skill's name
//   and description, minus stop words; weaker (strength "description", 1 point per token).
// - Negative signals: a candidate whose `excludedBy` word or name lies inside a negative signal's
//   target ("don't touch the tests") goes to `excluded` instead.
import { compareCodeUnits } from "../ledger/canonicalJson";
import { findPhrase } from "./matching";
import { isHangulWord } from "./tokens";
import type { Candidate, CatalogueEntry, Catalogue, IntentStage, Reason, RoutingMetadata, RoutingStage, TaskSpan, TaskStage } from "./planSchema";

/** Points per matched field; declared fields outweigh description tokens. */
export const ROUTING_WEIGHTS = Object.freeze({
  name: 8,
  signals: 4,
  technologies: 4,
  domains: 3,
  riskTags: 3,
  entityKinds: 1,
  modes: 1,
  descriptionToken: 1,
} as const);

/** Words too common to say anything about a skill (English, and a few Korean particles/fillers). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "about", "after", "again", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "before", "being",
  "both", "but", "by", "can", "could", "did", "do", "does", "doing", "done", "each", "else", "for", "from", "get", "had",
  "has", "have", "having", "he", "her", "here", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "let",
  "like", "make", "may", "me", "might", "more", "most", "must", "my", "need", "needs", "no", "nor", "not", "now", "of",
  "off", "on", "once", "one", "only", "or", "other", "our", "out", "over", "please", "same", "she", "should", "so",
  "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through",
  "to", "too", "under", "until", "up", "us", "use", "used", "using", "very", "was", "we", "were", "what", "when",
  "where", "which", "while", "who", "whom", "why", "will", "with", "within", "without", "would", "you", "your",
  "code", "thing", "things", "something", "way", "want", "new",
  "은", "는", "이", "가", "을", "를", "에", "의", "와", "과", "도", "로", "으로", "에서", "에게", "하고", "및", "또는",
  "그리고", "좀", "것", "수", "등", "해줘", "해주세요", "하기",
]);

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** Korean particles that attach to the word before them ("테스트를" is "테스트" + "를"), longest first. */
const KOREAN_PARTICLES = ["에서", "에게", "으로", "하고", "을", "를", "이", "가", "은", "는", "에", "의", "와", "과", "도", "로"];

/** The forms a task word may take in a description: itself, and a Hangul word without its particle. */
function wordForms(text: string): string[] {
  const forms = [text];
  if (isHangulWord(text)) {
    const particle = KOREAN_PARTICLES.find((item) => text.endsWith(item) && text.length - item.length >= 2);
    if (particle !== undefined) forms.push(text.slice(0, text.length - particle.length));
  }
  return forms;
}

function firstTaskSpan(reasons: readonly Reason[]): TaskSpan | null {
  for (const reason of reasons) if (reason.kind === "task-span") return reason.span;
  return null;
}

function compareSpans(left: TaskSpan, right: TaskSpan): number {
  return left.start - right.start || left.end - right.end;
}

/**
 * Where the task names a skill. A hyphenated name is specific enough on its own, as written or
 * with its hyphens read as spaces ("security auditor"); a one-word name is often an ordinary word
 * ("model", "signal", "verify"), so it counts only next to the word "skill" ("the doctor skill").
 */
export function nameSpans(task: TaskStage, name: string): TaskSpan[] {
  const phrases = name.includes("-") ? [name, name.replaceAll("-", " ")] : [`${name} skill`, `${name} skills`, `skill ${name}`];
  const seen = new Set<string>();
  const spans: TaskSpan[] = [];
  for (const phrase of phrases) {
    for (const span of findPhrase(task, phrase)) {
      const key = `${span.start}:${span.end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      spans.push(span);
    }
  }
  return spans.sort(compareSpans);
}

interface Scored {
  readonly reasons: Reason[];
  readonly score: number;
}

function declaredReasons(task: TaskStage, intent: IntentStage, entry: CatalogueEntry, metadata: RoutingMetadata): Scored | null {
  const reasons: Reason[] = [];
  let score = 0;
  let anchored = false;
  const add = (field: string, value: string, span: TaskSpan | null, weight: number, anchor: boolean): void => {
    reasons.push({ kind: "catalogue-field", skill: entry.name, field, value, span });
    score += weight;
    anchored ||= anchor;
  };
  const named = nameSpans(task, entry.name)[0];
  if (named !== undefined) add("name", entry.name, named, ROUTING_WEIGHTS.name, true);
  // The board seats reviewers; as work candidates they need to be asked for by name.
  if (metadata.reviewer !== null && named === undefined) return null;
  if (intent.domain.value !== "unspecified" && metadata.domains.includes(intent.domain.value)) {
    add("domains", intent.domain.value, firstTaskSpan(intent.domain.reasons), ROUTING_WEIGHTS.domains, true);
  }
  for (const word of metadata.signals) {
    const span = findPhrase(task, word)[0];
    if (span !== undefined) add("signals", word, span, ROUTING_WEIGHTS.signals, true);
  }
  for (const technology of metadata.technologies) {
    const wanted = technology.toLowerCase();
    const entity = intent.entities.find((item) => item.kind === "technology" && item.value.toLowerCase() === wanted);
    if (entity !== undefined) add("technologies", technology, entity.span, ROUTING_WEIGHTS.technologies, true);
  }
  for (const kind of metadata.entityKinds) {
    const entity = intent.entities.find((item) => item.kind === kind);
    if (entity !== undefined) add("entityKinds", kind, entity.span, ROUTING_WEIGHTS.entityKinds, false);
  }
  for (const tag of metadata.riskTags) {
    const risk = intent.risk.find((item) => item.rule === tag);
    if (risk !== undefined) add("riskTags", tag, firstTaskSpan(risk.reasons), ROUTING_WEIGHTS.riskTags, true);
  }
  if (metadata.modes.includes(intent.executionMode.value)) add("modes", intent.executionMode.value, null, ROUTING_WEIGHTS.modes, false);
  return anchored ? { reasons, score } : null;
}

interface Word {
  readonly text: string;
  readonly span: TaskSpan;
}

/** The task's words (sub-words of compound tokens too), skipping path-like tokens. */
function taskWords(task: TaskStage): Word[] {
  const words: Word[] = [];
  for (const token of task.tokens) {
    if (token.pathLike) continue;
    for (const match of token.text.matchAll(WORD)) {
      const start = token.start + (match.index ?? 0);
      words.push({ text: match[0], span: { start, end: start + match[0].length, text: match[0] } });
    }
  }
  return words;
}

function describedReasons(words: readonly Word[], entry: CatalogueEntry): Scored | null {
  const vocabulary = new Set<string>();
  const lower = new Set<string>();
  for (const source of [entry.name, entry.description]) {
    for (const match of source.matchAll(WORD)) {
      vocabulary.add(match[0]);
      lower.add(match[0].toLowerCase());
    }
  }
  const reasons: Reason[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    for (const form of wordForms(word.text)) {
      const token = form.toLowerCase();
      if (seen.has(token) || STOP_WORDS.has(token)) continue;
      // Short words match only as written, like every short name (router.md "Matching rules").
      const hit = form.length <= 3 ? vocabulary.has(form) : lower.has(token);
      if (!hit) continue;
      seen.add(token);
      reasons.push({ kind: "description-token", skill: entry.name, token, span: word.span });
      break;
    }
  }
  return reasons.length === 0 ? null : { reasons, score: reasons.length * ROUTING_WEIGHTS.descriptionToken };
}

function exclusion(task: TaskStage, intent: IntentStage, entry: CatalogueEntry): Reason[] {
  const declared = entry.metadata?.excludedBy ?? [];
  const reasons: Reason[] = [];
  for (const signal of intent.signals) {
    const target = signal.target;
    if (signal.kind !== "negative" || target === null) continue;
    const within = (span: TaskSpan): boolean => span.start >= target.start && span.end <= target.end;
    let found: { field: string; value: string; span: TaskSpan } | null = null;
    for (const word of declared) {
      const span = findPhrase(task, word).find(within);
      if (span !== undefined) {
        found = { field: "excludedBy", value: word, span };
        break;
      }
    }
    const named = found === null ? nameSpans(task, entry.name).find(within) : undefined;
    if (named !== undefined) found = { field: "name", value: entry.name, span: named };
    if (found === null) continue;
    reasons.push({ kind: "task-span", span: signal.span, note: `negative signal "${signal.word}" names "${found.span.text}"` });
    reasons.push({ kind: "catalogue-field", skill: entry.name, field: found.field, value: found.value, span: found.span });
  }
  return reasons;
}

/** Routes the task over the catalogue's available entries. */
export function routeSkills(task: TaskStage, intent: IntentStage, catalogue: Catalogue): RoutingStage {
  const candidates: Candidate[] = [];
  const excluded: RoutingStage["excluded"] = [];
  const unavailable: RoutingStage["unavailable"] = [];
  const words = taskWords(task);
  for (const entry of catalogue.entries) {
    if (entry.status !== "available") {
      unavailable.push({ skill: entry.name, path: entry.path, code: entry.problem?.code ?? "skill-unavailable", message: entry.problem?.message ?? "unavailable" });
      continue;
    }
    const metadata = entry.metadata;
    const scored = metadata === null ? describedReasons(words, entry) : declaredReasons(task, intent, entry, metadata);
    if (scored === null) continue;
    const negated = exclusion(task, intent, entry);
    if (negated.length > 0) {
      excluded.push({ skill: entry.name, reasons: negated });
      continue;
    }
    candidates.push({
      skill: entry.name,
      source: entry.source,
      path: entry.path,
      role: metadata?.role ?? "work",
      strength: metadata === null ? "description" : "declared",
      score: scored.score,
      reasons: scored.reasons,
    });
  }
  candidates.sort((left, right) => right.score - left.score || compareCodeUnits(left.skill, right.skill) || compareCodeUnits(left.path, right.path));
  excluded.sort((left, right) => compareCodeUnits(left.skill, right.skill));
  return { candidates, excluded, unavailable };
}
