// Builds Observer logs for tests: the reference's custom entries (`observer.lifecycle`,
// `observer.observation`, `observer.material-review`, `observer.prepared-memo-pass`,
// `observer.memo-pass`) with digests computed here, independently of server/observer, from the
// wire formats written out in their fixed key order. A log renders as a Pi session (header
// first) or as Docket ledger lines of the `observer/v1` stream.
import { createHash } from "node:crypto";
import { canonicalJson, jsonValueFromUnknown } from "../../server/judgment/json";
import { encodeLedgerLine } from "../../server/ledger/ledgerLine";

export const sha = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
const digestOf = (value: unknown): string => sha(JSON.stringify(value));

/** A typed id: prefix + a fixed version-4 UUID ending in `n`. */
export function id(prefix: string, n: number): string {
  return `${prefix}00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}

export const EPISODE = "episode-observer-1";
export const NOTEBOOK = "notebook-main";

export interface HostEntry {
  readonly type: "custom" | "message";
  readonly customType?: string;
  readonly data?: unknown;
}

export function custom(customType: string, data: unknown): HostEntry {
  return { type: "custom", customType, data };
}

export const lifecycle = (data: Record<string, unknown>): HostEntry => custom("observer.lifecycle", { protocol: "observer/v1", ...data });
export const opened = (episodeId = EPISODE, lang = "en"): HostEntry => lifecycle({ kind: "episode-opened", episodeId, notebookId: NOTEBOOK, lang });
export const modeOn = (): HostEntry => lifecycle({ kind: "activation-changed", enabled: true });
export const modeOff = (): HostEntry => lifecycle({ kind: "activation-changed", enabled: false });

/** Appends `event_digest` (SHA-256 of the payload's JSON text) and wraps it as an observation entry. */
export function observation(payload: Record<string, unknown>): HostEntry {
  return custom("observer.observation", { ...payload, event_digest: digestOf(payload) });
}

export function payloadOf(entry: HostEntry): Record<string, unknown> {
  const { event_digest: _digest, ...payload } = entry.data as Record<string, unknown>;
  return payload;
}

export function digestOfEntry(entry: HostEntry): string {
  return (entry.data as { event_digest: string }).event_digest;
}

const head = (kind: string, episodeId: string): Record<string, unknown> => ({ observer_observation: "observer-observation/v1", kind, episode_id: episodeId });

export function candidatePayload(input: { id: string; origin: Record<string, unknown>; text: string; review?: string; episodeId?: string }): Record<string, unknown> {
  return {
    ...head("candidate-captured", input.episodeId ?? EPISODE),
    candidate_id: input.id,
    origin: input.origin,
    text: input.text,
    content_hash: sha(input.text),
    captured_at: "2026-08-01T10:00:00.000Z",
    ...(input.review === undefined ? {} : { one_shot_request_id: input.review }),
  };
}

export const toolOrigin = (call: string, tool = "read"): Record<string, unknown> => ({ kind: "tool-result", tool_call_id: call, tool_name: tool });
export const userOrigin = (): Record<string, unknown> => ({ kind: "user-input", input_source: "interactive" });
export const explicitOrigin = (): Record<string, unknown> => ({ kind: "explicit-user-hypothesis", input_source: "rpc" });

export function candidateDigest(candidates: readonly { id: string; text: string }[]): string {
  return digestOf(candidates.map((candidate) => ({ candidateId: candidate.id, contentHash: sha(candidate.text) })));
}

export interface ReadSpec {
  readonly readId: string;
  readonly candidates: readonly { id: string; text: string }[];
  readonly sourceId: string;
  readonly summary: string;
  readonly claims: readonly { text: string; locator: string | null }[];
  readonly indexDigest: string;
  readonly indexInquiryIds: readonly string[];
  readonly review?: string;
  readonly episodeId?: string;
}

export function sourceReadPayload(spec: ReadSpec): Record<string, unknown> {
  return {
    ...head("source-read-recorded", spec.episodeId ?? EPISODE),
    read_id: spec.readId,
    candidate_ids: spec.candidates.map((candidate) => candidate.id),
    source: {
      kind: "external-material",
      source_id: spec.sourceId,
      title: "Interruption study",
      lang: "en",
      uri: "https://example.com/interruption",
      revision: null,
      content_hash: null,
      retrieval_context: "tool result",
    },
    faithful_summary: spec.summary,
    claims: spec.claims,
    candidate_digest: candidateDigest(spec.candidates),
    index_digest: spec.indexDigest,
    index_inquiry_ids: spec.indexInquiryIds,
    ...(spec.review === undefined ? {} : { one_shot_request_id: spec.review }),
  };
}

export interface HydrationSpec {
  readonly hydrationId: string;
  readonly readId: string;
  readonly indexDigest: string;
  readonly inquiryIds: readonly string[];
  readonly contextDigest: string;
}

export function hydrationPayload(spec: HydrationSpec, episodeId = EPISODE): Record<string, unknown> {
  return {
    ...head("inquiry-hydrated", episodeId),
    hydration_id: spec.hydrationId,
    read_id: spec.readId,
    index_digest: spec.indexDigest,
    inquiry_ids: spec.inquiryIds,
    context_digest: spec.contextDigest,
  };
}

/** A context basis for `interpret-source-reading` bound to this read (and hydration), with its basis hash. */
export function contextBasis(read: ReadSpec, hydration: HydrationSpec | null, related: readonly string[], options: { question?: string; missing?: string[] } = {}): Record<string, unknown> {
  const question = options.question ?? "interpret-source-reading";
  const input = {
    sourceReading: { readingId: read.readId, episodeId: read.episodeId ?? EPISODE, sourceId: read.sourceId, faithfulSummary: read.summary, claims: read.claims },
    inquiryContext: hydration === null ? null : { inquiryContextId: hydration.hydrationId, readingId: hydration.readId, inquiryIds: hydration.inquiryIds, contextDigest: hydration.contextDigest },
    relatedInquiryIds: related,
  };
  const members = hydration === null ? ["source-reading-evidence"] : ["inquiry-context-evidence", "source-reading-evidence"];
  const verified = (needId: string, evaluator: string, basis: string[]) => ({ needId, basisIds: basis, assurance: "domain-verified", evaluator: { id: evaluator, version: "1" }, evidenceIds: basis });
  const basis = {
    observer_context_basis: "observer-context-basis/v1",
    contract_sha256: sha("contract"),
    question_id: question,
    selection_sha256: sha("selection"),
    input_sha256: sha(canonicalJson(jsonValueFromUnknown(input))),
    selected_source_ids: members,
    coverage: {
      question_id: question,
      sealed_context_sha256: sha("sealed"),
      need_applicability: [
        { ...verified("source-reading-basis", "observer-source-reading", ["source-reading-evidence"]), status: "required", rationale: "The reading is the evidence." },
        { needId: "user-owned-interpretation", basisIds: [], assurance: "agent-asserted", status: "not-required", rationale: "The user owns the interpretation." },
      ],
      claims: [verified("source-reading-basis", "observer-source-reading", ["source-reading-evidence"]), { needId: "semantic-interpretation", basisIds: members, assurance: "agent-asserted" }],
      missing: options.missing ?? [],
      conflicts: [],
      coverage_sha256: sha("coverage"),
    },
  };
  return { ...basis, basis_sha256: sha(canonicalJson(jsonValueFromUnknown(basis))) };
}

export interface SemanticSpec {
  readonly observationId: string;
  readonly read: ReadSpec;
  readonly hydration: HydrationSpec | null;
  readonly stance?: string;
  readonly movement?: string;
  readonly hypothesis?: { inquiry_id: string; original: string } | null;
  readonly basis?: Record<string, unknown>;
  readonly episodeId?: string;
}

export function semanticPayload(spec: SemanticSpec): Record<string, unknown> {
  const related = spec.hydration === null ? [] : spec.hydration.inquiryIds;
  return {
    ...head("semantic-observation-recorded", spec.episodeId ?? EPISODE),
    observation_id: spec.observationId,
    read_id: spec.read.readId,
    hydration_id: spec.hydration === null ? null : spec.hydration.hydrationId,
    related_inquiry_ids: related,
    stance: spec.stance ?? "challenges",
    movement: spec.movement ?? "core-counterexample",
    rationale: "The boundary condition contradicts the unconditional hypothesis.",
    observer_hypothesis: spec.hypothesis ?? null,
    context_basis: spec.basis ?? contextBasis(spec.read, spec.hydration, related),
  };
}

export function userHypothesisPayload(input: { observationId: string; candidateId: string; inquiryId: string; original: string; episodeId?: string }): Record<string, unknown> {
  return {
    ...head("user-hypothesis-recorded", input.episodeId ?? EPISODE),
    observation_id: input.observationId,
    candidate_id: input.candidateId,
    inquiry_id: input.inquiryId,
    original: input.original,
    context: "The user asked to track it.",
  };
}

export function reviewPayload(hypothesisId: string, assessment = "insufficient-context", episodeId = EPISODE): Record<string, unknown> {
  return {
    ...head("hypothesis-context-reviewed", episodeId),
    hypothesis_observation_id: hypothesisId,
    assessment,
    supporting_clues: [],
    challenging_clues: [],
    missing_information: ["No measurement of re-entry cost yet."],
    source_ids: [],
    interpretation_boundary: "Only the user's own account is available.",
  };
}

/** The Memo request digest over the requested observation entries (sorted by id). */
export function memoRequestDigest(episodeId: string, base: string | null, members: readonly HostEntry[]): string {
  const observations = members
    .map((entry) => {
      const data = entry.data as { observation_id: string; event_digest: string };
      return { observation_id: data.observation_id, event_digest: data.event_digest };
    })
    .sort((left, right) => (left.observation_id < right.observation_id ? -1 : 1));
  return digestOf({ episode_id: episodeId, base_memo_revision_id: base, observations });
}

export function memoRequestPayload(requestId: string, members: readonly HostEntry[], base: string | null = null, order?: readonly string[]): Record<string, unknown> {
  const ids = order ?? members.map((entry) => (entry.data as { observation_id: string }).observation_id).sort();
  return {
    ...head("memo-requested", EPISODE),
    request_id: requestId,
    base_memo_revision_id: base,
    observation_ids: ids,
    request_digest: memoRequestDigest(EPISODE, base, members),
  };
}

export function continuationPayload(memoRequestId: string, episodeId = EPISODE): Record<string, unknown> {
  return { ...head("review-save-continuation-requested", episodeId), memo_request_id: memoRequestId, base_save_request_count: 0 };
}

export const review = (data: Record<string, unknown>): HostEntry => custom("observer.material-review", { protocol: "observer.material-review/v1", ...data });
export const reviewRequested = (requestId: string, episodeId = EPISODE): HostEntry =>
  review({ kind: "material-review-requested", request_id: requestId, episode_id: episodeId, user_message_digest: sha("inline material"), material: "inline-user-message" });
export const reviewCancelled = (requestId: string, episodeId = EPISODE): HostEntry => review({ kind: "material-review-cancelled", request_id: requestId, episode_id: episodeId, reason: "user-requested" });
export function reviewCompleted(requestId: string, observationIds: readonly string[], episodeId = EPISODE): HostEntry {
  const ids = [...observationIds].sort();
  return review({ kind: "material-review-completed", request_id: requestId, episode_id: episodeId, observation_ids: ids, digest: digestOf({ request_id: requestId, episode_id: episodeId, observation_ids: ids }) });
}

/** A Memo scope over working sources only (no Notebook records), with its basis digest. */
export function memoScope(input: { revisionId: string | null; sources: readonly { sourceId: string; readId: string; readDigest: string }[]; workingMemos?: readonly [string, string][]; hypotheses?: readonly [string, string][] }): Record<string, unknown> {
  const sources = [...input.sources].sort((left, right) => (left.sourceId < right.sourceId ? -1 : 1));
  const sourceIds = sources.map((source) => source.sourceId);
  const basisRecords = sources.map((source) => ({ recordId: source.sourceId, path: `session:observer/${source.readId}`, sha256: source.readDigest }));
  const basisDigest = digestOf({
    revisionId: input.revisionId,
    episodeId: EPISODE,
    relatedInquiryIds: [],
    workingMemos: input.workingMemos ?? [],
    durableMemos: [],
    existingRecordIds: sourceIds,
    sourceIds,
    basisRecords,
    hypotheses: input.hypotheses ?? [],
  });
  return {
    observer_memo_scope: "observer.memo-scope/v1",
    episode_id: EPISODE,
    episode_language: "en",
    related_inquiry_ids: [],
    durable_memos: [],
    durable_hypotheses: [],
    existing_record_ids: sourceIds,
    source_ids: sourceIds,
    basis_records: basisRecords.map((record) => ({ record_id: record.recordId, path: record.path, sha256: record.sha256 })),
    basis_digest: basisDigest,
  };
}

export interface MemoPassSpec {
  readonly passId: string;
  readonly base: string | null;
  readonly scope: Record<string, unknown>;
  readonly instructionId: string | null;
  readonly hypothesisOutcomes: readonly Record<string, unknown>[];
  readonly memoOutcomes?: readonly Record<string, unknown>[];
  readonly evidence?: readonly Record<string, unknown>[];
}

export function preparedPass(spec: MemoPassSpec): Record<string, unknown> {
  return {
    observer_memo_pass: "observer.prepared-memo-pass/v1",
    pass_id: spec.passId,
    episode_id: EPISODE,
    base_revision_id: spec.base,
    basis_digest: spec.scope.basis_digest,
    related_inquiry_ids: [],
    instruction_id: spec.instructionId,
    evidence: spec.evidence ?? [],
    hypothesis_outcomes: spec.hypothesisOutcomes,
    memo_outcomes: spec.memoOutcomes ?? [],
  };
}

export interface Receipt {
  readonly receiptId: string;
  readonly revisionId: string;
  readonly episodeMemos?: number;
  readonly created?: number;
  readonly hypothesisRevisions?: number;
  readonly keptIncubating?: number;
}

export function receiptOf(passId: string, receipt: Receipt): Record<string, unknown> {
  const created = receipt.created ?? 0;
  const revisions = receipt.hypothesisRevisions ?? 0;
  const kept = receipt.keptIncubating ?? 0;
  return {
    receipt_id: receipt.receiptId,
    pass_id: passId,
    revision_id: receipt.revisionId,
    scope: { episode_memos: receipt.episodeMemos ?? 0, standing_inquiries: 0, durable_memos: 0 },
    changes: { created, revised: 0, merged: 0, kept_incubating: kept, promotion_candidates: 0, hypothesis_revisions: revisions },
    summary: `신규 ${created} · 수정 0 · 병합 0 · incubating ${kept} · 승격 후보 0 · 가설 수정 ${revisions}`,
  };
}

/** prepared-memo-pass, memo-pass (applied) and the lifecycle acknowledgement. */
export function memoCommit(spec: MemoPassSpec, receipt: Receipt): HostEntry[] {
  const pass = preparedPass(spec);
  const stored = receiptOf(spec.passId, receipt);
  return [
    custom("observer.prepared-memo-pass", pass),
    custom("observer.memo-pass", { observer_memo_event: "observer.memo-pass/v1", kind: "applied", pass, scope: spec.scope, next_revision_id: receipt.revisionId, receipt: stored }),
    lifecycle({ kind: "memo-reconciled", revisionId: receipt.revisionId, receipt: { receiptId: receipt.receiptId, summary: stored.summary } }),
  ];
}

/** A Pi session file: header line (format 3, tree), then each entry chained to the previous one. */
export function piSessionText(entries: readonly HostEntry[], extraLines: readonly string[] = []): string {
  const header = JSON.stringify({ type: "session", version: 3, id: "session-observer", timestamp: "2026-08-01T10:00:00.000Z", cwd: "/work" });
  const lines = entries.map((entry, index) => JSON.stringify({ ...entry, id: `e${index}`, parentId: index === 0 ? null : `e${index - 1}`, timestamp: "2026-08-01T10:00:00.000Z" }));
  return `${[header, ...lines, ...extraLines].join("\n")}\n`;
}

/** Docket ledger lines: Observer entries in `observer/v1`, a developer/v8-free chain. */
export function ledgerText(entries: readonly HostEntry[]): string {
  let previous: string | null = null;
  let text = "";
  entries.forEach((entry, line) => {
    const encoded = encodeLedgerLine(line, previous, "observer/v1", { customType: entry.customType, data: entry.data });
    text += encoded.text;
    previous = encoded.lineSha256;
  });
  return text;
}

export interface ReceiptCounts {
  readonly episodeMemos: number;
  readonly created?: number;
  readonly revised?: number;
  readonly merged?: number;
  readonly kept?: number;
  readonly promotions?: number;
  readonly hypothesisRevisions?: number;
}

/** A stored receipt with every count (the summary in the reference's wording). */
export function fullReceipt(passId: string, revisionId: string, receiptId: string, counts: ReceiptCounts): Record<string, unknown> {
  const [created, revised, merged, kept, promotions, revisions] = [counts.created, counts.revised, counts.merged, counts.kept, counts.promotions, counts.hypothesisRevisions].map((value) => value ?? 0);
  return {
    receipt_id: receiptId,
    pass_id: passId,
    revision_id: revisionId,
    scope: { episode_memos: counts.episodeMemos, standing_inquiries: 0, durable_memos: 0 },
    changes: { created, revised, merged, kept_incubating: kept, promotion_candidates: promotions, hypothesis_revisions: revisions },
    summary: `신규 ${created} · 수정 ${revised} · 병합 ${merged} · incubating ${kept} · 승격 후보 ${promotions} · 가설 수정 ${revisions}`,
  };
}

/** prepared + applied + acknowledgement for an already encoded pass, scope and receipt. */
export function commitEntries(pass: Record<string, unknown>, scope: Record<string, unknown>, receipt: Record<string, unknown>): HostEntry[] {
  return [
    custom("observer.prepared-memo-pass", pass),
    custom("observer.memo-pass", { observer_memo_event: "observer.memo-pass/v1", kind: "applied", pass, scope, next_revision_id: receipt.revision_id, receipt }),
    lifecycle({ kind: "memo-reconciled", revisionId: receipt.revision_id, receipt: { receiptId: receipt.receipt_id, summary: receipt.summary } }),
  ];
}

/**
 * One more round of work after earlier passes: a tool result, its SourceRead (source `source-<n>`),
 * an observation and the Memo request over it with `base` — returns the entries and the source basis.
 */
export function observedRound(n: number, base: string | null): { entries: HostEntry[]; requestId: string; observationId: string; source: { sourceId: string; readId: string; readDigest: string } } {
  const text = `tool output ${n}`;
  const spec: ReadSpec = {
    readId: id("source-read-", n),
    candidates: [{ id: id("candidate-", n), text }],
    sourceId: id("source-", n),
    summary: `Reading ${n}.`,
    claims: [{ text: `Claim ${n}.`, locator: null }],
    indexDigest: sha("standing-index"),
    indexInquiryIds: [],
  };
  const read = observation(sourceReadPayload(spec));
  const semantic = observation(semanticPayload({ observationId: id("observation-", n), read: spec, hydration: null, stance: "refines", movement: "minor-refinement" }));
  const requestId = id("memo-request-", n);
  return {
    entries: [observation(candidatePayload({ id: id("candidate-", n), origin: toolOrigin(`call-${n}`), text })), read, semantic, observation(memoRequestPayload(requestId, [semantic], base))],
    requestId,
    observationId: id("observation-", n),
    source: { sourceId: spec.sourceId, readId: spec.readId, readDigest: digestOfEntry(read) },
  };
}

/** A Memo draft of this Episode. */
export function memoDraft(memoId: string, title: string, inquiryIds: readonly string[], evidenceIds: readonly string[]): Record<string, unknown> {
  return { memo_id: memoId, episode_id: EPISODE, title, lang: "en", content: `${title}: what the readings show.`, inquiry_ids: inquiryIds, hypothesis_id: inquiryIds[0] ?? null, evidence_ids: evidenceIds, reason: "From the readings." };
}

/**
 * An Episode with four reconciled Memo passes covering every Memo outcome: create (hypothesis and
 * Memo), keep / keep-incubating, revise (hypothesis), merge, mark-promotion-candidate. Every request
 * is acknowledged, so every observation ends consumed.
 */
export function fourPassEpisode(): { entries: HostEntry[]; requests: string[]; observations: string[]; revisions: string[] } {
  const hypothesis = id("inquiry-", 10);
  const [m1, m2, m3] = [id("memo-", 1), id("memo-", 2), id("memo-", 3)];
  const evidence = (n: number): Record<string, unknown> => ({ evidence_id: id("evidence-", n), kind: "source-claim", source_id: id("source-", n), summary: `Claim ${n}.` });
  const revisions = [1, 2, 3, 4].map((n) => id("memo-working-revision-", n));
  const entries: HostEntry[] = [opened(), modeOn()];
  const requests: string[] = [];
  const observations: string[] = [];
  const rounds: {
    n: number;
    workingMemos: [string, string][];
    hypotheses: [string, string][];
    hypothesisOutcomes: Record<string, unknown>[];
    memoOutcomes: Record<string, unknown>[];
    counts: ReceiptCounts;
  }[] = [
    {
      n: 11,
      workingMemos: [],
      hypotheses: [],
      hypothesisOutcomes: [{ kind: "create", hypothesis: { inquiry_id: hypothesis, episode_id: EPISODE, origin: "observer", original: "Timing matters.", current: "Timing matters.", revision_reason: null, evidence_ids: [id("evidence-", 11)] } }],
      memoOutcomes: [{ kind: "create", memo: memoDraft(m1, "Timing", [hypothesis], [id("evidence-", 11)]) }],
      counts: { episodeMemos: 1, created: 1 },
    },
    {
      n: 12,
      workingMemos: [[m1, revisions[0] as string]],
      hypotheses: [[hypothesis, "Timing matters."]],
      hypothesisOutcomes: [{ kind: "keep", inquiry_id: hypothesis }],
      memoOutcomes: [{ kind: "keep-incubating", memo_id: m1 }, { kind: "create", memo: memoDraft(m2, "Interruptions", [hypothesis], [id("evidence-", 12)]) }],
      counts: { episodeMemos: 2, created: 1, kept: 1 },
    },
    {
      n: 13,
      workingMemos: [
        [m1, revisions[0] as string],
        [m2, revisions[1] as string],
      ],
      hypotheses: [[hypothesis, "Timing matters."]],
      hypothesisOutcomes: [{ kind: "revise", inquiry_id: hypothesis, current: "Timing matters, within bounds.", revision_reason: "Reading 13 bounds it.", evidence_ids: [id("evidence-", 13)] }],
      memoOutcomes: [{ kind: "merge", source_ids: [m1, m2], target: memoDraft(m3, "Timing and interruptions", [hypothesis], [id("evidence-", 11), id("evidence-", 12)]) }],
      counts: { episodeMemos: 3, merged: 1, hypothesisRevisions: 1 },
    },
    {
      n: 14,
      workingMemos: [[m3, revisions[2] as string]],
      hypotheses: [[hypothesis, "Timing matters, within bounds."]],
      hypothesisOutcomes: [{ kind: "keep", inquiry_id: hypothesis }],
      memoOutcomes: [{ kind: "mark-promotion-candidate", memo_id: m3, reason: "Stable across readings.", evidence_ids: [id("evidence-", 14)] }],
      counts: { episodeMemos: 3, promotions: 1 },
    },
  ];
  rounds.forEach((round, k) => {
    const base = k === 0 ? null : (revisions[k - 1] as string);
    const work = observedRound(round.n, base);
    const scope = memoScope({ revisionId: base, sources: [work.source], workingMemos: round.workingMemos, hypotheses: round.hypotheses });
    const pass = preparedPass({
      passId: id("memo-pass-", round.n),
      base,
      scope,
      instructionId: work.requestId,
      evidence: [evidence(round.n)],
      hypothesisOutcomes: round.hypothesisOutcomes,
      memoOutcomes: round.memoOutcomes,
    });
    entries.push(...work.entries, ...commitEntries(pass, scope, fullReceipt(id("memo-pass-", round.n), revisions[k] as string, id("memo-receipt-", round.n), round.counts)));
    requests.push(work.requestId);
    observations.push(work.observationId);
  });
  return { entries, requests, observations, revisions };
}

/**
 * Valid Observer logs the differential check (scripts/observer-differential.mjs) mutates: a full
 * Episode (hydration, every event kind, a reconciled Memo, Review & Save settled), a Material
 * review with Observer off, new-hypothesis movements, and four Memo passes.
 */
export function differentialScenarios(): HostEntry[][] {
  const [uc, tc, readId, hydrationId, major, userObservation, request] = [
    id("candidate-", 301),
    id("candidate-", 302),
    id("source-read-", 303),
    id("hydration-", 304),
    id("observation-", 305),
    id("observation-", 306),
    id("memo-request-", 307),
  ];
  const durable = id("inquiry-", 3);
  const userInquiry = id("inquiry-", 309);
  const readSpec: ReadSpec = {
    readId,
    candidates: [{ id: tc, text: "tool output" }],
    sourceId: id("source-", 308),
    summary: "The source reports X.",
    claims: [{ text: "Claim.", locator: "p1" }],
    indexDigest: sha("idx"),
    indexInquiryIds: [durable],
  };
  const hydration: HydrationSpec = { hydrationId, readId, indexDigest: sha("idx"), inquiryIds: [durable], contextDigest: sha("ctx") };
  const read = observation(sourceReadPayload(readSpec));
  const semantic = observation(semanticPayload({ observationId: major, read: readSpec, hydration }));
  const hypothesis = observation(userHypothesisPayload({ observationId: userObservation, candidateId: uc, inquiryId: userInquiry, original: "Timing matters." }));
  const scope = memoScope({ revisionId: null, sources: [{ sourceId: readSpec.sourceId, readId, readDigest: digestOfEntry(read) }] });
  const full: HostEntry[] = [
    opened(),
    modeOn(),
    observation(candidatePayload({ id: uc, origin: userOrigin(), text: "my hypothesis" })),
    observation(candidatePayload({ id: tc, origin: toolOrigin("call-1"), text: "tool output" })),
    read,
    observation(hydrationPayload(hydration)),
    semantic,
    hypothesis,
    observation(reviewPayload(userObservation, "mixed")),
    observation(memoRequestPayload(request, [semantic, hypothesis])),
    observation(continuationPayload(request)),
    ...memoCommit(
      {
        passId: id("memo-pass-", 312),
        base: null,
        scope,
        instructionId: request,
        hypothesisOutcomes: [{ kind: "create", hypothesis: { inquiry_id: userInquiry, episode_id: EPISODE, origin: "user", original: "Timing matters.", current: "Timing matters.", revision_reason: null, evidence_ids: [] } }],
      },
      { receiptId: id("memo-receipt-", 311), revisionId: id("memo-working-revision-", 310) },
    ),
    lifecycle({ kind: "save-proposed", proposalId: "proposal-1", summary: "Save." }),
    lifecycle({ kind: "save-committed", proposalId: "proposal-1", receipt: { receiptId: "receipt-1", status: "validated", recordIds: [] } }),
  ];
  const reviewRequest = id("material-review-", 312);
  const linkedSpec: ReadSpec = { ...readSpec, candidates: [{ id: uc, text: "inline material" }], indexInquiryIds: [], review: reviewRequest };
  const material: HostEntry[] = [
    opened(),
    reviewRequested(reviewRequest),
    observation(candidatePayload({ id: uc, origin: userOrigin(), text: "inline material", review: reviewRequest })),
    observation(sourceReadPayload(linkedSpec)),
    observation(semanticPayload({ observationId: major, read: linkedSpec, hydration: null, stance: "supports", movement: "repeated-support" })),
    reviewCompleted(reviewRequest, [major]),
    observation(candidatePayload({ id: tc, origin: explicitOrigin(), text: "explicit" })),
    observation(userHypothesisPayload({ observationId: userObservation, candidateId: tc, inquiryId: userInquiry, original: "Explicit." })),
    observation(reviewPayload(userObservation)),
    modeOn(),
    modeOff(),
  ];
  const movements: HostEntry[] = [opened(), modeOn()];
  ["repeated-support", "independent-new-hypothesis", "major-direction-change"].forEach((movement, n) => {
    const text = `tool ${n}`;
    const spec: ReadSpec = { ...readSpec, readId: id("source-read-", 500 + n), candidates: [{ id: id("candidate-", 500 + n), text }], indexInquiryIds: [] };
    movements.push(observation(candidatePayload({ id: id("candidate-", 500 + n), origin: toolOrigin(`c${n}`), text })));
    movements.push(observation(sourceReadPayload(spec)));
    const own = movement === "independent-new-hypothesis" ? { inquiry_id: id("inquiry-", 600), original: "New." } : null;
    movements.push(observation(semanticPayload({ observationId: id("observation-", 500 + n), read: spec, hydration: null, stance: "refines", movement, hypothesis: own })));
  });
  return [full, material, movements, fourPassEpisode().entries];
}
