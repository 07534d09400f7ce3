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
// - Word roles and fit (Docket rules, docs/router.md "Word roles and fit"): a one-word signal that a
//   behaviour verb acts on ("trim the name") is an object, worth 1 point and never an anchor; a
//   skill reached only by one-word mentions whose domains do not hold the task's is set aside;
//   when the domain word is a work skill's own signal ("rename") or acts directly on one ("change
//   the name"), skills reached by the domain alone yield to it. Set-aside skills are listed with
//   why; with no candidate left, no skill fits well.
import { compareCodeUnits } from "../ledger/canonicalJson";
import { findPhrase } from "./matching";
import { isHangulWord } from "./tokens";
import { wordRole } from "./wordRole";
import type { Candidate, CatalogueEntry, Catalogue, IntentStage, Reason, RoutingFit, RoutingMetadata, RoutingStage, SetAside, TaskSpan, TaskStage } from "./planSchema";

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
  /** A one-word signal a behaviour verb acts on ("trim the name"): data, not the skill's subject. */
  objectSignal: 1,
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

/** What selected a declared candidate; `mention` and `object` are one-word signals by their role. */
type Anchor = "name" | "domain" | "phrase" | "topic" | "mention" | "technology" | "risk";

interface Scored {
  readonly reasons: Reason[];
  readonly score: number;
  readonly anchors: ReadonlySet<Anchor>;
  /** Matched words read as objects of a behaviour verb (their reasons are among `reasons`). */
  readonly objects: TaskSpan[];
  /** Spans of the signals that matched (for the owner rule). */
  readonly signalSpans: TaskSpan[];
  /** A signal word is the domain verb's direct object ("change the name"): the skill owns the task. */
  readonly directTopic: boolean;
}

function domainSpanOf(intent: IntentStage): TaskSpan | null {
  return intent.domain.value === "unspecified" ? null : firstTaskSpan(intent.domain.reasons);
}

function objectReason(skill: string, word: TaskSpan, verb: TaskSpan): Reason {
  return { kind: "task-span", span: verb, note: `"${word.text}" is what "${verb.text}" acts on: data the code handles, not a subject ${skill} judges` };
}

function declaredReasons(task: TaskStage, intent: IntentStage, entry: CatalogueEntry, metadata: RoutingMetadata): Scored | null {
  const reasons: Reason[] = [];
  const objects: TaskSpan[] = [];
  const anchors = new Set<Anchor>();
  const signalSpans: TaskSpan[] = [];
  let directTopic = false;
  let score = 0;
  const add = (field: string, value: string, span: TaskSpan | null, weight: number, anchor: Anchor | null): void => {
    reasons.push({ kind: "catalogue-field", skill: entry.name, field, value, span });
    score += weight;
    if (anchor !== null) anchors.add(anchor);
  };
  const named = nameSpans(task, entry.name)[0];
  if (named !== undefined) add("name", entry.name, named, ROUTING_WEIGHTS.name, "name");
  // The board seats reviewers; as work candidates they need to be asked for by name.
  if (metadata.reviewer !== null && named === undefined) return null;
  if (intent.domain.value !== "unspecified" && metadata.domains.includes(intent.domain.value)) {
    add("domains", intent.domain.value, firstTaskSpan(intent.domain.reasons), ROUTING_WEIGHTS.domains, "domain");
  }
  const domainSpan = domainSpanOf(intent);
  for (const word of metadata.signals) {
    const spans = findPhrase(task, word);
    const first = spans[0];
    if (first === undefined) continue;
    signalSpans.push(...spans);
    // A phrase ("misleading name", "edge cases") is specific wherever it stands; a single word's
    // role in the sentence decides whether it is the task's subject. Any non-object use counts.
    if (isPhrase(word)) {
      add("signals", word, first, ROUTING_WEIGHTS.signals, "phrase");
      continue;
    }
    // The domain word itself ("rename") is the task's topic.
    const roles = spans.map((span) => ({ span, role: domainSpan !== null && overlapsSpan(span, domainSpan) ? { role: "topic" as const, verb: domainSpan, direct: false } : wordRole(task, span, domainSpan) }));
    const used = roles.find((item) => item.role.role !== "object");
    if (used !== undefined) {
      add("signals", word, used.span, ROUTING_WEIGHTS.signals, used.role.role === "topic" ? "topic" : "mention");
      directTopic ||= roles.some((item) => item.role.role === "topic" && item.role.direct);
      continue;
    }
    const object = roles[0];
    if (object !== undefined && object.role.role === "object") {
      add("signals", word, object.span, ROUTING_WEIGHTS.objectSignal, null);
      reasons.push(objectReason(entry.name, object.span, object.role.verb));
      objects.push(object.span);
    }
  }
  for (const technology of metadata.technologies) {
    const wanted = technology.toLowerCase();
    const entity = intent.entities.find((item) => item.kind === "technology" && item.value.toLowerCase() === wanted);
    if (entity !== undefined) add("technologies", technology, entity.span, ROUTING_WEIGHTS.technologies, "technology");
  }
  for (const kind of metadata.entityKinds) {
    const entity = intent.entities.find((item) => item.kind === kind);
    if (entity !== undefined) add("entityKinds", kind, entity.span, ROUTING_WEIGHTS.entityKinds, null);
  }
  for (const tag of metadata.riskTags) {
    const risk = intent.risk.find((item) => item.rule === tag);
    if (risk !== undefined) add("riskTags", tag, firstTaskSpan(risk.reasons), ROUTING_WEIGHTS.riskTags, "risk");
  }
  if (metadata.modes.includes(intent.executionMode.value)) add("modes", intent.executionMode.value, null, ROUTING_WEIGHTS.modes, null);
  return anchors.size > 0 || objects.length > 0 ? { reasons, score, anchors, objects, signalSpans, directTopic } : null;
}

/** Several words, or a word with a joint ("copy-paste"): specific enough to select wherever it stands. */
function isPhrase(word: string): boolean {
  return [...word.matchAll(WORD)].length > 1;
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

function describedReasons(task: TaskStage, intent: IntentStage, words: readonly Word[], entry: CatalogueEntry): Scored | null {
  const vocabulary = new Set<string>();
  const lower = new Set<string>();
  for (const source of [entry.name, entry.description]) {
    for (const match of source.matchAll(WORD)) {
      vocabulary.add(match[0]);
      lower.add(match[0].toLowerCase());
    }
  }
  const reasons: Reason[] = [];
  // Words read as objects, and why; they explain a set-aside entry when nothing else matched.
  const objectReasons: Reason[] = [];
  const objects: TaskSpan[] = [];
  const seen = new Set<string>();
  const domainSpan = domainSpanOf(intent);
  for (const word of words) {
    for (const form of wordForms(word.text)) {
      const token = form.toLowerCase();
      if (seen.has(token) || STOP_WORDS.has(token)) continue;
      // Short words match only as written, like every short name (router.md "Matching rules").
      const hit = form.length <= 3 ? vocabulary.has(form) : lower.has(token);
      if (!hit) continue;
      const role = wordRole(task, { ...word.span, end: word.span.start + form.length, text: form }, domainSpan);
      if (role.role === "object") {
        // Not `seen`: the same word used elsewhere as the task's subject still counts.
        objectReasons.push(objectReason(entry.name, word.span, role.verb));
        objects.push(word.span);
        break;
      }
      seen.add(token);
      reasons.push({ kind: "description-token", skill: entry.name, token, span: word.span });
      break;
    }
  }
  if (reasons.length > 0) return { reasons, score: reasons.length * ROUTING_WEIGHTS.descriptionToken, anchors: new Set(["mention"]), objects: [], signalSpans: [], directTopic: false };
  if (objects.length === 0) return null;
  return { reasons: objectReasons, score: 0, anchors: new Set(), objects, signalSpans: [], directTopic: false };
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

interface Routed {
  readonly entry: CatalogueEntry;
  readonly candidate: Candidate;
  readonly scored: Scored;
}

function overlapsSpan(left: TaskSpan, right: TaskSpan): boolean {
  return left.start < right.end && right.start < left.end;
}

function rule(text: string): Reason {
  return { kind: "router-rule", rule: text };
}

/**
 * Why a matched skill does not fit the task, or an empty list when it does. The rules are
 * checked in order; the first that applies says why.
 */
function poorFit(routed: Routed, intent: IntentStage, owners: readonly Routed[]): Reason[] {
  const { entry, scored } = routed;
  const anchors = scored.anchors;
  if (anchors.size === 0) {
    return [rule("a word the task acts on with a behaviour verb does not select a skill on its own")];
  }
  const domain = intent.domain.value;
  const declaredDomains = entry.metadata?.domains ?? [];
  if (domain !== "unspecified" && [...anchors].every((anchor) => anchor === "mention") && !declaredDomains.includes(domain)) {
    const declared = declaredDomains.length === 0 ? "declares no domain" : `declares the domains ${declaredDomains.join(", ")}`;
    return [rule(`the task's domain is ${domain} and ${entry.name} ${declared}: a word the task only mentions in passing does not make it fit`)];
  }
  const owner = owners.find((item) => item.entry !== entry);
  if (owner !== undefined && [...anchors].every((anchor) => anchor === "domain")) {
    const span = firstTaskSpan(intent.domain.reasons);
    const word = span === null ? domain : span.text;
    const owns = owner.scored.directTopic ? `"${word}" acts on ${owner.entry.name}'s own signal` : `"${word}" is ${owner.entry.name}'s own signal`;
    return [rule(`${owns}, so ${owner.entry.name} owns this ${domain} task; ${entry.name} matched the domain alone`)];
  }
  return [];
}

function fitOf(candidates: readonly Candidate[], setAside: readonly SetAside[], considered: number, intent: IntentStage): RoutingFit {
  if (candidates.length > 0) {
    const fits = candidates.length === 1 ? "one skill fits: it is" : `${candidates.length} skills fit: each is`;
    return { outcome: "fits", reasons: [rule(`${fits} selected by the task's own words, its domain, a grounded technology or a risk rule`)] };
  }
  if (setAside.length > 0) {
    return { outcome: "no-skill-fits", reasons: [rule(`no skill fits well: ${setAside.map((item) => item.skill).join(", ")} matched only poorly and ${setAside.length === 1 ? "is" : "are"} set aside; do the work without a skill step, under the review board`)] };
  }
  if (intent.executionMode.value === "review") {
    return { outcome: "no-skill-fits", reasons: [rule("no work skill fits a review task: the review board's seats review it")] };
  }
  if (considered === 0) return { outcome: "no-skill-fits", reasons: [rule("no skill fits well: the catalogue has no available skill")] };
  return { outcome: "no-skill-fits", reasons: [rule("no skill fits well: no skill's routing metadata or description matches the task; do the work without a skill step, under the review board")] };
}

/** Routes the task over the catalogue's available entries. */
export function routeSkills(task: TaskStage, intent: IntentStage, catalogue: Catalogue): RoutingStage {
  const routed: Routed[] = [];
  const excluded: RoutingStage["excluded"] = [];
  const unavailable: RoutingStage["unavailable"] = [];
  const words = taskWords(task);
  let considered = 0;
  for (const entry of catalogue.entries) {
    if (entry.status !== "available") {
      unavailable.push({ skill: entry.name, path: entry.path, code: entry.problem?.code ?? "skill-unavailable", message: entry.problem?.message ?? "unavailable" });
      continue;
    }
    considered += 1;
    const metadata = entry.metadata;
    const scored = metadata === null ? describedReasons(task, intent, words, entry) : declaredReasons(task, intent, entry, metadata);
    if (scored === null) continue;
    const negated = exclusion(task, intent, entry);
    if (negated.length > 0) {
      excluded.push({ skill: entry.name, reasons: negated });
      continue;
    }
    const candidate: Candidate = {
      skill: entry.name,
      source: entry.source,
      path: entry.path,
      role: metadata?.role ?? "work",
      strength: metadata === null ? "description" : "declared",
      score: scored.score,
      reasons: scored.reasons,
    };
    routed.push({ entry, candidate, scored });
  }
  const domainSpan = domainSpanOf(intent);
  // The owner rule: the domain word is itself a skill's signal ("rename" for naming-judgment), or
  // the domain verb acts on one ("change the name").
  // Only a work skill owns a task: a review or context skill informs or checks the work, never replaces it.
  const owners =
    domainSpan === null
      ? []
      : routed.filter(
          (item) => item.candidate.role === "work" && (item.scored.directTopic || (item.scored.anchors.size > 0 && item.scored.signalSpans.some((span) => overlapsSpan(span, domainSpan)))),
        );
  const candidates: Candidate[] = [];
  const setAside: SetAside[] = [];
  for (const item of routed) {
    const because = poorFit(item, intent, owners);
    if (because.length === 0) candidates.push(item.candidate);
    else setAside.push({ ...item.candidate, because });
  }
  candidates.sort((left, right) => right.score - left.score || compareCodeUnits(left.skill, right.skill) || compareCodeUnits(left.path, right.path));
  setAside.sort((left, right) => compareCodeUnits(left.skill, right.skill) || compareCodeUnits(left.path, right.path));
  excluded.sort((left, right) => compareCodeUnits(left.skill, right.skill));
  return { candidates, setAside, fit: fitOf(candidates, setAside, considered, intent), excluded, unavailable };
}
