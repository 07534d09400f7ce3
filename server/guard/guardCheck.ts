// The Stop check (docs/guard.md "At Stop"), shared by `docket hook … Stop` and
// `docket guard check`: the answer against its recorded review (marker, draft digest, sealed file
// bytes), the recorded necessary work from the ledger state and beside it, the intake warning owed
// to the session, and the decision in the workspace's mode. Nothing here is proof by itself: an
// unavailable answer, a damaged ledger or an internal error is said, never passed as supported.
// Lean: the hook loads it; the full ledger read is injected (readGuardLines) and used only when a
// review's locator does not answer.
import fs from "node:fs";
import path from "node:path";
import type { CheckpointState } from "../hooks/checkpoint";
import type { GuardLinesRead } from "../ledger/store";
import { decideStop, remainingWork, type FlaggedClaim, type GuardMode, type RemainingWork, type ReviewCheck } from "./guardDecision";
import { readBoardFindings, readGuardMode } from "./guardFiles";
import { readSession, writeSession, type GuardSession, type IntakeCause, type StopRecord } from "./guardSession";
import { answerSha256, findMarker } from "./marker";
import { locateReview, readAnswerIndex, reviewFromLines, type LocatedReview } from "./reviewLocator";
import { fileDrift } from "./sourceDigest";

export type GuardLedgerState =
  | { readonly kind: "off" }
  | { readonly kind: "blocked"; readonly reason: string }
  | { readonly kind: "ready"; readonly state: CheckpointState };

export type StopAnswerInput =
  | { readonly kind: "text"; readonly text: string; readonly source: string }
  | { readonly kind: "unavailable"; readonly code: string; readonly reason: string };

export interface GuardCheckRequest {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  /** The folder Docket may write in (the workspace, or the ledger's folder's parent). */
  readonly root: string;
  readonly ledger: GuardLedgerState;
  readonly answer: StopAnswerInput;
  readonly host: string;
  readonly sessionId: string | null;
  readonly alreadyContinued: boolean;
  readonly now: string;
  /** Every guard line of the ledger, read in full (the fallback when a review's locator does not answer). */
  readonly readGuardLines: () => GuardLinesRead;
  /** Write the session's intake warnings, block-once spending and last decision (hooks: yes). */
  readonly record: boolean;
}

export interface GuardCheckOutcome {
  readonly docketOn: boolean;
  readonly mode: GuardMode;
  readonly answer: "available" | "unavailable";
  readonly review: ReviewCheck;
  readonly remaining: RemainingWork[];
  readonly intakeWarning: string | null;
  readonly decision: "silent" | "notice" | "block";
  readonly notice: string | null;
  /** Block-once: what the agent is told when the host continues it. */
  readonly blockReason: string | null;
  /** Problems the caller should log (never shown as proof either way). */
  readonly notes: string[];
}

const INTAKE_WARNINGS: Record<IntakeCause, string> = {
  "no-intake": "Docket recorded no user input for this session (its UserPromptSubmit hook did not run here), so it cannot tell which request this answer completes.",
  "session-start-only": "Docket saw this session start but no user prompt since, so it cannot confirm which request this answer completes.",
  "prompt-unavailable": "The host did not give Docket the text of the latest user prompt, so Docket cannot confirm which request this answer completes.",
};

/** Pending Notebook proposals: a proposal file without its receipt (proposalStore.ts, read lean). */
function pendingProposals(workspaceFolder: string): string[] {
  const folder = path.join(workspaceFolder, ".docket", "notebook");
  let names: string[];
  try {
    names = fs.readdirSync(path.join(folder, "proposals"));
  } catch {
    return [];
  }
  const pattern = /^(proposal-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.json$/u;
  return names
    .flatMap((name) => {
      const id = pattern.exec(name)?.[1];
      return id === undefined || fs.existsSync(path.join(folder, "receipts", `${id}.json`)) ? [] : [id];
    })
    .sort();
}

function review(status: ReviewCheck["status"], reviewId: string | null, cause: string | null, message: string): ReviewCheck {
  return { status, reviewId, cause, message };
}

type Lookup = { readonly kind: "found"; readonly review: LocatedReview } | { readonly kind: "absent" } | { readonly kind: "unreadable"; readonly reason: string };

function lookup(request: GuardCheckRequest, reviewId: string): Lookup {
  const located = locateReview(request.workspaceFolder, request.root, request.ledgerPath, reviewId);
  if (located !== null) return { kind: "found", review: located };
  const read = request.readGuardLines();
  if (read.kind === "unreadable") return read;
  const found = reviewFromLines(read.lines, reviewId);
  return found === null ? { kind: "absent" } : { kind: "found", review: found.located };
}

function unreadable(reviewId: string, reason: string): { check: ReviewCheck; flagged: FlaggedClaim[] } {
  return { check: review("missing", reviewId, "docket.history-blocked", `Docket could not read ${reviewId} from its ledger (${reason}); nothing here is proof of completion.`), flagged: [] };
}

/** A review found for the answer, judged against it. */
function judgeReview(request: GuardCheckRequest, found: LocatedReview, body: string, workScopeId: string): { check: ReviewCheck; flagged: FlaggedClaim[] } {
  const { opened, submitted } = found;
  // A review speaks for the work of its own scope: one from an earlier scope (or a ledger a
  // repository shipped) is not about this work.
  if (opened.workScopeId !== workScopeId) {
    return { check: review("mismatch", opened.reviewId, "docket.review-other-scope", `${opened.reviewId} was recorded in another work scope (${opened.workScopeId}), not in the open one.`), flagged: [] };
  }
  if (answerSha256(body) !== opened.draftSha256) {
    return { check: review("mismatch", opened.reviewId, "docket.answer-changed", `The answer differs from the draft ${opened.reviewId} reviewed; review the answer as it is sent.`), flagged: [] };
  }
  if (submitted === null) {
    return { check: review("missing", opened.reviewId, "docket.review-not-submitted", `${opened.reviewId} was opened but its judgments were never submitted.`), flagged: [] };
  }
  if (submitted.status !== "supported") {
    const texts = new Map(opened.claims.map((claim) => [claim.claimId, claim.text]));
    const flagged = submitted.claims
      .filter((claim) => claim.verdict !== "supported" || submitted.problems.some((problem) => problem.claimId === claim.claimId))
      .map((claim) => ({ claimId: claim.claimId, verdict: claim.verdict === "supported" ? "uncited" : claim.verdict, text: texts.get(claim.claimId) ?? "" }));
    return { check: review("unsupported", opened.reviewId, "docket.review-unsupported", `${opened.reviewId} was recorded as ${submitted.status}.`), flagged };
  }
  const drift = opened.sources.flatMap((source) => (source.kind === "file" ? [fileDrift(request.workspaceFolder, source)] : [])).filter((why): why is string => why !== null);
  if (drift.length > 0) {
    return { check: review("stale", opened.reviewId, "docket.source-changed", `A sealed source changed since the review: ${drift.slice(0, 3).join("; ")}.`), flagged: [] };
  }
  return { check: review("supported", opened.reviewId, null, `${opened.reviewId} is supported and bound to this answer.`), flagged: [] };
}

function checkAnswer(request: GuardCheckRequest, workScopeId: string): { check: ReviewCheck; flagged: FlaggedClaim[] } {
  const answer = request.answer;
  if (answer.kind === "unavailable") {
    return { check: review("missing", null, answer.code, `Docket could not read the final answer (${answer.reason}); nothing was checked against a review.`), flagged: [] };
  }
  const marker = findMarker(answer.text);
  if (marker.kind === "invalid") return { check: review("mismatch", null, marker.code, marker.message), flagged: [] };
  if (marker.kind === "marker") {
    const looked = lookup(request, marker.reviewId);
    if (looked.kind === "unreadable") return unreadable(marker.reviewId, looked.reason);
    if (looked.kind === "absent") {
      return { check: review("mismatch", marker.reviewId, "docket.review-unknown", `The marker names ${marker.reviewId}, which this workspace's ledger does not hold.`), flagged: [] };
    }
    const found = looked.review;
    if (marker.answerSha256 !== found.opened.draftSha256) {
      return { check: review("mismatch", marker.reviewId, "docket.marker-mismatch", `The marker's answer digest is not the digest ${marker.reviewId} sealed.`), flagged: [] };
    }
    return judgeReview(request, found, marker.body, workScopeId);
  }
  // No marker: a supported review whose claims cover the entire answer may still match it exactly.
  const digest = answerSha256(answer.text);
  const indexed = readAnswerIndex(request.workspaceFolder, request.root, digest);
  if (indexed !== null) {
    const looked = lookup(request, indexed);
    const found = looked.kind === "found" ? looked.review : null;
    if (found !== null && found.opened.coversEntireAnswer && found.opened.draftSha256 === digest && found.opened.workScopeId === workScopeId) {
      return judgeReview(request, found, answer.text, workScopeId);
    }
  }
  return {
    check: review("missing", null, "docket.marker-missing", "The answer carries no completion control marker, and no review covering the entire answer matches it."),
    flagged: [],
  };
}

/** The intake warning owed to this session now (once per session and cause), or null. */
function owedIntakeWarning(session: GuardSession | null): { cause: IntakeCause; text: string } | null {
  if (session === null) return null;
  const cause: IntakeCause | null = session.intake === null ? "no-intake" : session.intake.cause;
  if (cause === null || session.warned.includes(cause)) return null;
  return { cause, text: INTAKE_WARNINGS[cause] };
}

export function checkStop(request: GuardCheckRequest): GuardCheckOutcome {
  const notes: string[] = [];
  const modeRead = readGuardMode(request.workspaceFolder);
  if (modeRead.problem !== null) notes.push(modeRead.problem);
  const mode = modeRead.mode;
  const answerState = request.answer.kind === "text" ? "available" : "unavailable";
  const silentOff = (message: string): GuardCheckOutcome => ({
    docketOn: false,
    mode,
    answer: answerState,
    review: review("missing", null, null, message),
    remaining: [],
    intakeWarning: null,
    decision: "silent",
    notice: null,
    blockReason: null,
    notes,
  });
  if (request.ledger.kind === "off") return silentOff("Docket is off in this workspace.");
  if (request.ledger.kind === "blocked") {
    const message = `Docket could not read its ledger (${request.ledger.reason}); it checked nothing, and nothing here is proof of completion.`;
    return {
      docketOn: true,
      mode,
      answer: answerState,
      review: review("missing", null, "docket.history-blocked", message),
      remaining: [],
      intakeWarning: null,
      decision: mode === "off" ? "silent" : "notice",
      notice: mode === "off" ? null : `Docket: ${message} Run \`docket ledger verify\`.`,
      blockReason: null,
      notes,
    };
  }
  const state = request.ledger.state;
  if (!state.facts.scopeActive || state.workScopeId === null) return silentOff("Docket is on but no work scope is open.");

  const { check, flagged } = checkAnswer(request, state.workScopeId);
  const remaining = remainingWork({
    work: { phase: state.phase, purpose: state.purpose, facts: state.facts },
    boards: readBoardFindings(request.workspaceFolder, state.workScopeId),
    proposals: pendingProposals(request.workspaceFolder),
    review: check,
    flaggedClaims: flagged,
  });
  const session = request.sessionId === null ? null : readSession(request.workspaceFolder, request.host, request.sessionId);
  const owed = owedIntakeWarning(session);
  const intakeKey = session?.intake?.intakeId ?? "no-intake";
  const decided = decideStop({
    mode,
    review: check,
    remaining,
    phase: state.phase,
    intakeWarning: owed?.text ?? null,
    alreadyContinued: request.alreadyContinued,
    // Without a session to count in, "once" cannot be kept: never block. Nor on an answer Docket
    // could not read: continuing the agent cannot fix the host's input.
    blockSpent: session === null || session.continued.includes(intakeKey) || request.answer.kind === "unavailable",
  });
  let { decision, blockReason } = decided;
  const sessionId = request.sessionId;
  if (session !== null && sessionId !== null && request.record) {
    const lastStop: StopRecord = { at: request.now, decision, reviewStatus: check.status, reviewId: check.reviewId, remaining, notice: decided.notice };
    const next: GuardSession = {
      ...session,
      warned: owed === null || decided.notice === null ? session.warned : [...session.warned, owed.cause],
      continued: decision === "block" ? [...session.continued, intakeKey] : session.continued,
      lastStop,
    };
    // The block is spent before it is given: a block Docket could not record would repeat.
    if (!writeSession(request.workspaceFolder, sessionId, next)) {
      notes.push("the guard's session state could not be written");
      if (decision === "block") {
        decision = "notice";
        blockReason = null;
        writeSession(request.workspaceFolder, sessionId, { ...next, continued: session.continued, lastStop: { ...lastStop, decision } });
      }
    }
  }
  return { docketOn: true, mode, answer: answerState, review: check, remaining, intakeWarning: owed?.text ?? null, decision, notice: decided.notice, blockReason, notes };
}
