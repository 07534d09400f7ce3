// The Stop decision, pure (docs/guard.md "At Stop"): what work remains, and whether the host stops
// silently, with a notice, or — in block-once mode, once per session and intake — continues the
// agent with the remaining work as the reason. Supported with nothing remaining is silent except
// for one intake warning per session and cause. An already-continued Stop always yields, and so
// does a block Docket could not record first (a loop is worse than a missed nudge).
import type { Phase } from "../developer/history";
import type { RuntimeFacts } from "../developer/toolPolicy";

export const GUARD_MODES = ["notice", "block-once", "off"] as const;
export type GuardMode = (typeof GUARD_MODES)[number];

export const REMAINING_KINDS = [
  "open-frame",
  "authorized-change",
  "reroute-debt",
  "verification-debt",
  "board-finding",
  "notebook-proposal",
  "unreviewed-claim",
] as const;
export type RemainingKind = (typeof REMAINING_KINDS)[number];

export interface RemainingWork {
  readonly kind: RemainingKind;
  readonly text: string;
}

export const REVIEW_CHECK_STATUSES = ["supported", "unsupported", "missing", "mismatch", "stale"] as const;

/** How the answer stands against its recorded review. */
export interface ReviewCheck {
  readonly status: (typeof REVIEW_CHECK_STATUSES)[number];
  readonly reviewId: string | null;
  /** A `docket.*` code saying why the review is not supported; null when it is. */
  readonly cause: string | null;
  readonly message: string;
}

export interface BoardFinding {
  readonly task: string;
  readonly verdict: "FIX_REQUIRED" | "BLOCKED";
  readonly reasons: readonly string[];
}

export interface WorkFacts {
  readonly phase: Phase;
  readonly purpose: string | null;
  readonly facts: RuntimeFacts;
}

export interface FlaggedClaim {
  readonly claimId: string;
  readonly verdict: string;
  readonly text: string;
}

const MAX_TEXT = 300;

function clip(text: string): string {
  const single = text.replace(/\s+/gu, " ").trim();
  return single.length <= MAX_TEXT ? single : `${single.slice(0, MAX_TEXT - 1)}…`;
}

/** The recorded necessary work, in a stable order. */
export function remainingWork(input: {
  readonly work: WorkFacts;
  readonly boards: readonly BoardFinding[];
  readonly proposals: readonly string[];
  readonly review: ReviewCheck;
  readonly flaggedClaims: readonly FlaggedClaim[];
}): RemainingWork[] {
  const { work } = input;
  const remaining: RemainingWork[] = [];
  if (work.facts.openFrame && work.phase !== "rerouting" && work.phase !== "verifying") {
    remaining.push({ kind: "open-frame", text: `A judgment frame is open (${work.purpose ?? "work-decision"}): conclude it with conclude_judgment.` });
  }
  if (work.facts.authorizationActive) {
    remaining.push({ kind: "authorized-change", text: "A change is authorized and not landed: record the landing with record_landing." });
  }
  if (work.facts.reroutePending) {
    remaining.push({ kind: "reroute-debt", text: "A landing awaits its reroute judgment (open_judgment with purpose reroute-decision, then conclude it)." });
  }
  if (work.facts.verificationPending) {
    remaining.push({ kind: "verification-debt", text: "A landing awaits its verification judgment (route:claim-evidence-assessment, concluded with evidence)." });
  }
  for (const board of input.boards) {
    remaining.push({ kind: "board-finding", text: clip(`The review board of the plan for "${board.task}" says ${board.verdict}: ${board.reasons.join("; ")}`) });
  }
  for (const proposal of input.proposals) {
    remaining.push({ kind: "notebook-proposal", text: `Notebook proposal ${proposal} awaits the user's approval in VS Code's Observer view.` });
  }
  if (input.review.status !== "supported") {
    if (input.flaggedClaims.length > 0) {
      for (const claim of input.flaggedClaims) remaining.push({ kind: "unreviewed-claim", text: clip(`Claim ${claim.claimId} is ${claim.verdict}: ${claim.text}`) });
    } else {
      remaining.push({ kind: "unreviewed-claim", text: "No supported review backs this answer's claims: review it with review_open and review_submit, then end it with the marker they return." });
    }
  }
  return remaining;
}

export interface StopDecisionInput {
  readonly mode: GuardMode;
  readonly review: ReviewCheck;
  readonly remaining: readonly RemainingWork[];
  readonly phase: Phase;
  /** One intake warning still owed to this session, or null. */
  readonly intakeWarning: string | null;
  /** The host says this Stop follows a continuation (`stop_hook_active` / `stopHookActive`). */
  readonly alreadyContinued: boolean;
  /** Block-once already continued this session's current intake (or there is no session to count on). */
  readonly blockSpent: boolean;
}

export interface StopDecision {
  readonly decision: "silent" | "notice" | "block";
  readonly notice: string | null;
  readonly blockReason: string | null;
}

function listed(remaining: readonly RemainingWork[]): string {
  return remaining.map((item) => `- ${item.kind}: ${item.text}`).join("\n");
}

export function decideStop(input: StopDecisionInput): StopDecision {
  if (input.mode === "off") return { decision: "silent", notice: null, blockReason: null };
  const clear = input.review.status === "supported" && input.remaining.length === 0;
  if (clear) {
    return input.intakeWarning === null ? { decision: "silent", notice: null, blockReason: null } : { decision: "notice", notice: `Docket: ${input.intakeWarning}`, blockReason: null };
  }
  const reviewLine =
    input.review.status === "supported"
      ? `Docket: the answer's review ${input.review.reviewId ?? ""} is supported, but recorded work remains.`
      : `Docket: this answer is not backed by a supported review (${input.review.status}${input.review.cause === null ? "" : `, ${input.review.cause}`}): ${input.review.message}`;
  const parts = [reviewLine, `Remaining (phase ${input.phase}):`, listed(input.remaining)];
  if (input.intakeWarning !== null) parts.push(input.intakeWarning);
  const notice = parts.join("\n");
  if (input.mode === "block-once" && !input.alreadyContinued && !input.blockSpent) {
    const reason = [
      "Docket: before you stop, finish this recorded work or say in your answer that it is unresolved:",
      listed(input.remaining),
      "To back a completion claim, review the final answer with review_open and review_submit and end the answer with the completion control marker they return. Docket continues you only once for this input.",
    ].join("\n");
    return { decision: "block", notice, blockReason: reason };
  }
  return { decision: "notice", notice, blockReason: null };
}
