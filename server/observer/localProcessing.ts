// Local processing (design/observer.md §1.4–§1.6, processing mode `local`): a model on this
// machine does what the developer's agent does in piggyback mode. One job reads Observer's state
// as `observer_status` shows it, sends the material in one chat completion to the loopback
// endpoint the policy names, and applies the one `observer_commit` batch the model answers with
// through the same all-or-nothing path as the agent's commit. Docket still checks everything the
// batch claims; the model only interprets.
//
// - The endpoint is admitted on every run (the resolver's answer may have changed since the
//   policy was written); the client then connects only to the admitted addresses.
// - `episode_id` and `fingerprint` come from the state the job read, never from the model, so a
//   batch applies only to the history the material was taken from.
// - No retry inside a run: any failure settles the job `deferred` with a coded reason, and
//   nothing is half-applied (commitObserverWork appends all of a batch or none of it).
// - Jobs run one at a time on createBackgroundQueue; LocalObserverProcessor adds what the backend
//   needs around it: a job id settled once per epoch is not offered again by routine triggers.
import { countOf, agree } from "../plural";
import { createHash } from "node:crypto";
import { toDocketError } from "../errors";
import { describeIssues, toolInputSchema } from "../mcp/inputSchema";
import type { ObserverOverview } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import { createBackgroundQueue, DEFAULT_MAXIMUM_QUEUED, type BackgroundJob, type BackgroundJobResult, type BackgroundQueue, type BackgroundQueueSnapshot } from "./backgroundQueue";
import { listStagedRuns } from "./captureWindow";
import { requestLocalToolCall, type JsonSchemaObject, type LocalChatMessage } from "./localModelClient";
import { admitLoopbackEndpoint, type LookupAll } from "./loopbackEndpoint";
import { commitObserverWork, observerAgentStatus, type AgentStatus } from "./observerAgentWork";
import { ObserverCommitRequest } from "./observerCommit";
import type { ObserverIds } from "./observerDrafts";
import { observerLogOf, pendingMaterialReviewOf } from "./observerRuntime";
import { readProcessingPolicy } from "./processingPolicy";

export const LOCAL_COMMIT_TOOL = "observer_commit";
/** Characters of material one job sends; a small local model's context is the limit, not Docket's. */
export const LOCAL_MATERIAL_CHARS = 60_000;
/** No single item may take more than this share of the material, so one long file cannot crowd out the rest. */
const ITEM_CHARS = 16_000;
const CUT_MARK = "\n…[cut: the rest is not shown here]";

export type LocalJobOutcome =
  | { readonly status: "completed"; readonly appended: number; readonly followUps: readonly string[] }
  | { readonly status: "skipped"; readonly message: string }
  | { readonly status: "aborted" }
  | { readonly status: "deferred"; readonly code: string; readonly message: string };

export interface LocalJobOptions {
  readonly signal: AbortSignal;
  /** The resolver for the endpoint's host name; the system's unless a test injects one. */
  readonly lookup?: LookupAll;
  /** The model exchange's time limit (localModelClient.ts's default otherwise). */
  readonly timeoutMs?: number;
  readonly ids?: ObserverIds;
}

function deferred(code: string, message: string): LocalJobOutcome {
  return { status: "deferred", code, message };
}

/** What the model fills in: the batch without the two fields Docket takes from the state it read. */
const ModelBatch = ObserverCommitRequest.omit({ episode_id: true, fingerprint: true });

let cachedToolSchema: JsonSchemaObject | null = null;

/** The tool's JSON schema, derived from the zod schema that validates the answer, so the two cannot drift. */
export function localCommitToolSchema(): JsonSchemaObject {
  cachedToolSchema ??= toolInputSchema(ModelBatch);
  return cachedToolSchema;
}

const SYSTEM_PROMPT = [
  "You are Observer's local interpreter in Docket. A developer works with a coding agent; Observer keeps what was learned: the tool results the work relied on, a faithful reading of each, and how it bears on the hypotheses held.",
  "The user message is a JSON document with the material: staged_results (tool results captured during the agent's work, each with its tool_call_id and text), unread_candidates (material already captured, e.g. something the user asked to review, each with its candidate_id and text), hypotheses_to_review (the user's hypotheses, recorded in the user's own words), and, when present, memo_guide (a pending Memo reconciliation) and save_guide (a pending Review & Save).",
  `Answer with exactly one call of ${LOCAL_COMMIT_TOOL}. Do not include episode_id or fingerprint: Docket fills them in.`,
  "observations (at most 4): each is one reading. Name what it reads by nominations [{tool_call_id, reason}] for staged results you rely on (ignore ones that do not matter) and/or candidate_ids for unread candidates. source describes the source (external-material: title, lang, uri, revision, content_hash, retrieval_context with at least one of the last four non-null; or direct-observation). faithful_summary says what the source says, not what you think of it. claims list what it states, each with a locator (where) or null. stance is supports, challenges, refines, boundary or uncertain. record is {kind: observation, movement, rationale} or {kind: new-hypothesis, rationale, observer_hypothesis} for a new hypothesis of your own.",
  "hypothesis_context_reviews: for each hypothesis to review, {hypothesis_observation_id, assessment, supporting_clues, challenging_clues, missing_information, source_ids, interpretation_boundary}; the clues must match the assessment (supports needs supporting clues, challenges challenging ones, mixed both, insufficient-context missing information). insufficient-context is an honest answer. Never restate or rewrite the user's wording.",
  "memo only when memo_guide is present (account for every required item exactly once); save only when save_guide is present (complete Markdown records as it asks); never both. Leave out anything you have nothing to say about: an empty list is fine, an invented reading is not.",
].join("\n");

interface Section {
  readonly key: string;
  readonly items: readonly Record<string, unknown>[];
}

function cut(text: string): string {
  return text.length <= ITEM_CHARS ? text : `${text.slice(0, ITEM_CHARS - CUT_MARK.length)}${CUT_MARK}`;
}

/** Fills sections in order while the material stays within budget; what does not fit is counted, not sent. */
function boundedMaterial(header: Record<string, unknown>, sections: readonly Section[], guides: readonly [string, unknown][]): { readonly text: string; readonly omitted: number } {
  const material: Record<string, unknown> = { ...header };
  let used = JSON.stringify(material).length;
  let omitted = 0;
  for (const section of sections) {
    const kept: Record<string, unknown>[] = [];
    for (const item of section.items) {
      const size = JSON.stringify(item).length + 1;
      if (used + size > LOCAL_MATERIAL_CHARS) {
        omitted += 1;
        continue;
      }
      used += size;
      kept.push(item);
    }
    material[section.key] = kept;
  }
  for (const [key, guide] of guides) {
    if (guide === null) continue;
    const size = JSON.stringify(guide).length;
    if (used + size > LOCAL_MATERIAL_CHARS) {
      omitted += 1;
      continue;
    }
    used += size;
    material[key] = guide;
  }
  if (omitted > 0) material.omitted = `${countOf(omitted, "item")} did not fit in this request; ${agree(omitted, "it stays", "they stay")} for a later one.`;
  return { text: JSON.stringify(material, null, 1), omitted };
}

interface Material {
  readonly messages: readonly LocalChatMessage[];
  /** How many items the model is shown (staged results, candidates, hypotheses, guides). */
  readonly items: number;
  /** How many waiting items did not fit. */
  readonly omitted: number;
}

function stagedResults(ledger: WorkspaceLedger, workspaceFolder: string): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const run of listStagedRuns(workspaceFolder)) {
    for (const staged of run.staged) {
      let text: string;
      try {
        text = ledger.showEvidence(staged.branchResultId).text.trim();
      } catch {
        // Rotated out of the evidence store: the commit could not read it either.
        continue;
      }
      items.push({ tool_call_id: staged.toolCallId, tool_name: staged.toolName, is_error: staged.isError, text: cut(text) });
    }
  }
  return items;
}

function materialOf(ledger: WorkspaceLedger, workspaceFolder: string, status: AgentStatus, materialReview: { requestId: string; material: string } | null): Material {
  const overview = status.overview;
  const hypotheses = overview.hypotheses
    .filter((hypothesis) => hypothesis.review === null && !hypothesis.consumed)
    .map((hypothesis) => ({ hypothesis_observation_id: hypothesis.observationId, inquiry_id: hypothesis.inquiryId, hypothesis: hypothesis.original, context: hypothesis.context }));
  const candidates = status.unreadCandidates.map((candidate) => ({ candidate_id: candidate.candidateId, text: cut(candidate.text) }));
  const staged = stagedResults(ledger, workspaceFolder);
  const header = {
    episode_language: overview.episode.language,
    material_review: materialReview === null ? null : { request_id: materialReview.requestId, material: materialReview.material },
  };
  const { text, omitted } = boundedMaterial(
    header,
    [
      { key: "hypotheses_to_review", items: hypotheses },
      { key: "unread_candidates", items: candidates },
      { key: "staged_results", items: staged },
    ],
    [
      ["memo_guide", status.memoGuide],
      ["save_guide", status.saveGuide],
    ],
  );
  const guides = (status.memoGuide === null ? 0 : 1) + (status.saveGuide === null ? 0 : 1);
  return {
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: text },
    ],
    items: hypotheses.length + candidates.length + staged.length + guides - omitted,
    omitted,
  };
}

/** One local job: read the state, ask the model once, apply its batch or defer. Never throws. */
export async function runLocalObserverJob(ledger: WorkspaceLedger, workspaceFolder: string, options: LocalJobOptions): Promise<LocalJobOutcome> {
  const { signal } = options;
  try {
    const policy = readProcessingPolicy(workspaceFolder).policy;
    if (policy.mode !== "local" || policy.local_model === null) {
      return deferred("observer.commit-mode", `Observer's processing mode is ${policy.mode}; local jobs run only in local mode.`);
    }
    const admission = await admitLoopbackEndpoint(policy.local_model.endpoint, options.lookup);
    if (!admission.ok) return deferred(admission.code, admission.message);
    if (signal.aborted) return { status: "aborted" };
    const status = await observerAgentStatus(ledger, workspaceFolder);
    const overview = status.overview;
    if (overview.issueCount > 0) return deferred("observer.replay-issues", "the Observer history has replay issues; nothing is interpreted until they are repaired");
    if (overview.episode.status !== "open" || overview.episode.episodeId === null) return { status: "skipped", message: "no Episode is open" };
    const materialReview = await ledger.readCaughtUp((store) => pendingMaterialReviewOf(observerLogOf(store)));
    const material = materialOf(ledger, workspaceFolder, status, materialReview);
    if (material.items === 0 && material.omitted > 0) return deferred("observer.local-material-oversized", `the waiting material (${countOf(material.omitted, "item")}) does not fit in one request of ${LOCAL_MATERIAL_CHARS} characters`);
    if (material.items === 0) return { status: "skipped", message: "nothing waits for interpretation" };
    if (signal.aborted) return { status: "aborted" };
    const answer = await requestLocalToolCall({
      endpoint: admission.endpoint,
      modelId: policy.local_model.model_id,
      messages: material.messages,
      tool: { name: LOCAL_COMMIT_TOOL, description: "Record what you observed in the material, in one atomic Observer batch.", parameters: localCommitToolSchema() },
      signal,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    if (signal.aborted) return { status: "aborted" };
    if (!answer.ok) return deferred(answer.code, answer.message);
    // Docket's values win over anything the model put under these keys.
    const parsed = ObserverCommitRequest.safeParse({ ...answer.arguments, episode_id: overview.episode.episodeId, fingerprint: overview.fingerprint });
    if (!parsed.success) return deferred("observer.local-batch-invalid", `the model's ${LOCAL_COMMIT_TOOL} batch is not the schema: ${describeIssues(parsed.error)}`);
    const outcome = await commitObserverWork(ledger, workspaceFolder, parsed.data, { processing: "local", ...(options.ids === undefined ? {} : { ids: options.ids }) });
    return { status: "completed", appended: outcome.appended, followUps: outcome.followUps };
  } catch (error) {
    if (signal.aborted) return { status: "aborted" };
    const coded = toDocketError(error);
    const observerCode = coded.details?.observerCode;
    return deferred(typeof observerCode === "string" ? observerCode : coded.code, coded.message);
  }
}

/** The queue's view of an outcome; a deferred message starts with its code. */
export function backgroundResultOf(outcome: LocalJobOutcome): BackgroundJobResult {
  switch (outcome.status) {
    case "completed":
      return { status: "completed" };
    case "skipped":
      return { status: "skipped" };
    case "aborted":
      return { status: "aborted" };
    case "deferred":
      return { status: "deferred", message: `${outcome.code}: ${outcome.message}` };
  }
}

// ---- the backend's queue ---------------------------------------------------------------------

export interface LocalObserverJob extends BackgroundJob {
  /** `material-<request id>` for a Material review the user asked for, `routine-…` for work the overview shows. */
  readonly id: string;
  /** An explicit request (Review Material again) may run a job id that already settled: that is the retry. */
  readonly explicit: boolean;
}

export function materialJob(requestId: string): LocalObserverJob {
  return { id: `material-${requestId}`, explicit: true };
}

/** Names the state a routine job answers: the Observer history and which results are staged. */
export function routineJob(overview: ObserverOverview): LocalObserverJob {
  const staged = overview.staged.map((item) => item.toolCallId).sort();
  const digest = createHash("sha256").update(staged.join("\n"), "utf8").digest("hex").slice(0, 12);
  return { id: `routine-${overview.fingerprint}-${digest}`, explicit: false };
}

/** Whether the overview shows work a local model could do: staged results, unread material, unreviewed hypotheses, a Memo request. */
export function localWorkPending(overview: ObserverOverview): boolean {
  if (overview.issueCount > 0 || overview.episode.status !== "open") return false;
  const episodeId = overview.episode.episodeId;
  return (
    overview.staged.length > 0 ||
    overview.candidates.some((candidate) => candidate.episodeId === episodeId && !candidate.read && candidate.label !== "user hypothesis") ||
    overview.hypotheses.some((hypothesis) => hypothesis.review === null && !hypothesis.consumed) ||
    overview.pendingMemoRequest !== null
  );
}

export interface LocalObserverProcessorOptions {
  readonly settled?: (job: LocalObserverJob, outcome: LocalJobOutcome) => void;
  readonly lookup?: LookupAll;
  readonly timeoutMs?: number;
  readonly maximumQueued?: number;
}

/** How many settled job ids an epoch remembers; older ones may be offered again. */
const SETTLED_MEMORY = 256;

/**
 * The local queue for one workspace ledger. It starts paused (createBackgroundQueue's rule): the
 * owner resumes it when no foreground request is running. A routine job id that already settled
 * in this epoch is not run again, so an overview refreshed over an unchanged history does not
 * ask the model the same question in a loop.
 */
export class LocalObserverProcessor {
  private readonly queue: BackgroundQueue<LocalObserverJob>;
  private readonly settledIds = new Set<string>();
  /** What each job's last run ended in, until the queue settles it (it settles only jobs of the current epoch). */
  private readonly outcomes = new Map<string, LocalJobOutcome>();

  constructor(
    readonly ledger: WorkspaceLedger,
    readonly workspaceFolder: string,
    options: LocalObserverProcessorOptions = {},
  ) {
    this.queue = createBackgroundQueue<LocalObserverJob>({
      maximumQueued: options.maximumQueued ?? DEFAULT_MAXIMUM_QUEUED,
      run: async (job, signal) => {
        const outcome = await runLocalObserverJob(ledger, workspaceFolder, {
          signal,
          ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        });
        this.outcomes.set(job.id, outcome);
        return backgroundResultOf(outcome);
      },
      settled: (job, result) => {
        // No outcome of its own: the job was evicted from the full queue without running.
        const outcome = this.outcomes.get(job.id) ?? { status: "deferred", code: "observer.local-queue-full", message: result.status === "deferred" ? result.message : "the job did not run" };
        this.outcomes.delete(job.id);
        this.remember(job.id);
        options.settled?.(job, outcome);
      },
    });
  }

  private remember(id: string): void {
    this.settledIds.delete(id);
    this.settledIds.add(id);
    if (this.settledIds.size > SETTLED_MEMORY) {
      const oldest = this.settledIds.values().next().value;
      if (oldest !== undefined) this.settledIds.delete(oldest);
    }
  }

  /** False when the job is running or queued, or is routine and already settled in this epoch. */
  offer(job: LocalObserverJob): boolean {
    if (!job.explicit && this.settledIds.has(job.id)) return false;
    if (job.explicit) this.settledIds.delete(job.id);
    return this.queue.enqueue(job);
  }

  pause(): void {
    this.queue.pause();
  }

  resume(): void {
    this.queue.resume();
  }

  /** Drops queued work and aborts the running job without applying it; the queue stays paused until resumed. */
  reset(): void {
    this.settledIds.clear();
    this.outcomes.clear();
    this.queue.reset();
  }

  dispose(): void {
    this.queue.dispose();
  }

  snapshot(): BackgroundQueueSnapshot {
    return this.queue.snapshot();
  }
}
