// Reviews as ledger facts (docs/guard.md): `review_open` seals the complete draft, the claims under
// review and their original sources; `review_submit` records one judgment per claim and a separate
// whole-response judgment. Docket judges no meaning: it checks bindings (every claim judged once,
// every citation a sealed source, no sealed source drifted) and derives the status from the
// model's own verdicts. Only a supported review yields the completion control marker; anything
// else yields a decision input — what to correct, or to report as unresolved. Refusals (exit 1)
// write nothing; a recording failure says to submit the same judgments again, never to redo work.
import { randomBytes } from "node:crypto";
import { DocketError, toDocketError } from "../errors";
import { redactPersistedInput } from "../evidence/persistedText";
import { ErrorCodes } from "../protocol/messages";
import { writeFileAtomicContained } from "../workspace/containedFs";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import type { GuardLine } from "../ledger/store";
import type { ReviewOpened, ReviewProblem, ReviewSubmitted } from "./guardEntry";
import {
  MAX_DRAFT_BYTES,
  ReviewOpenRequest,
  ReviewSubmitRequest,
  type DecisionInput,
  type ReviewOpenResult,
  type ReviewSubmitResult,
} from "./guardSchema";
import { answerSha256, completionMarker, findMarker } from "./marker";
import { answerIndexPath, reviewFromLines, writeReviewLocator } from "./reviewLocator";
import { sealSources, sourceDrift } from "./sourceSealing";

function invalid(message: string): DocketError {
  return new DocketError(ErrorCodes.reviewInvalid, message);
}

function describeIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "request"}: ${issue.message}`)
    .join("; ");
}

export function parseOpenRequest(raw: unknown): ReviewOpenRequest {
  const parsed = ReviewOpenRequest.safeParse(raw);
  if (!parsed.success) throw invalid(`The review request is not valid: ${describeIssues(parsed.error)}.`);
  return parsed.data;
}

export function parseSubmitRequest(raw: unknown): ReviewSubmitRequest {
  const parsed = ReviewSubmitRequest.safeParse(raw);
  if (!parsed.success) throw invalid(`The judgments are not valid: ${describeIssues(parsed.error)}.`);
  return parsed.data;
}

export async function openReview(ledger: WorkspaceLedger, raw: unknown, session: { host: string; sessionId: string } | null = null): Promise<ReviewOpenResult> {
  const request = parseOpenRequest(raw);
  const draftBytes = Buffer.byteLength(request.draft, "utf8");
  if (draftBytes > MAX_DRAFT_BYTES) throw new DocketError(ErrorCodes.reviewDraftTooLarge, `The draft has ${draftBytes} bytes; Docket reviews answers of at most ${MAX_DRAFT_BYTES} bytes.`);
  if (findMarker(request.draft).kind !== "none") throw invalid("The draft already holds a completion control marker; review the answer without it.");
  const ids = new Set<string>();
  for (const claim of request.claims) {
    if (ids.has(claim.id)) throw invalid(`Claim id ${claim.id} is used twice; every claim needs its own id.`);
    ids.add(claim.id);
  }
  const workspaceFolder = ledger.options.workspaceFolder;
  const sources = sealSources(workspaceFolder, ledger.evidenceLookup, request.sources);
  const reviewId = `review:${randomBytes(12).toString("hex")}`;
  // Claims are stored; a claim quoting a secret must not carry it into the ledger.
  const claims = request.claims.map((claim) => ({ claimId: claim.id, text: redactPersistedInput(claim.text).value }));
  const entry: ReviewOpened = {
    kind: "review-opened",
    reviewId,
    workScopeId: "",
    draftSha256: answerSha256(request.draft),
    draftBytes,
    coversEntireAnswer: request.coversEntireAnswer ?? false,
    claims,
    sources,
    session,
    openedAt: ledger.now(),
  };
  const recorded = await ledger.appendGuard(
    (_store, history) => {
      if (history.mode === "blocked") throw new DocketError(ErrorCodes.historyBlocked, `The ledger cannot be written: ${history.blockedReason ?? "its history is blocked"}.`);
      const scope = history.activeScope;
      if (scope === null) throw new DocketError(ErrorCodes.docketOff, "Docket is off in this workspace: reviews are recorded in an open work scope (turn Docket on first).");
      const bound = { ...entry, workScopeId: scope.workScopeId };
      return { entries: [bound], context: bound };
    },
    "recording a review",
    (store) => writeReviewLocator(workspaceFolder, store.root, store.guardLines.filter((line) => line.entry.reviewId === reviewId)),
  );
  return {
    reviewId: recorded.reviewId,
    sources: recorded.sources.map((source) => ({
      sourceId: source.sourceId,
      kind: source.kind,
      sha256: source.sha256,
      ...(source.kind === "file" ? { path: source.path } : {}),
      ...(source.kind === "evidence" ? { handle: source.handle } : {}),
    })),
    claims: recorded.claims.map((claim) => ({ claimId: claim.claimId })),
  };
}

/** The recorded problems of a complete, well-bound set of judgments (never a refusal). */
function judgmentProblems(workspaceFolder: string, ledger: WorkspaceLedger, opened: ReviewOpened, request: ReviewSubmitRequest): ReviewProblem[] {
  const problems: ReviewProblem[] = [];
  for (const claim of request.claims) {
    if (claim.verdict === "unsupported") problems.push({ code: "docket.claim-unsupported", message: `Claim ${claim.claimId} is not supported by its sources.`, claimId: claim.claimId, sourceId: null });
    else if (claim.verdict === "partial") problems.push({ code: "docket.claim-partial", message: `Claim ${claim.claimId} is only partly supported; partial evidence does not establish it.`, claimId: claim.claimId, sourceId: null });
    else if (claim.citations.length === 0) problems.push({ code: "docket.claim-uncited", message: `Claim ${claim.claimId} is judged supported but cites no sealed source; an explanation is not proof.`, claimId: claim.claimId, sourceId: null });
  }
  const cited = new Set(request.claims.flatMap((claim) => claim.citations));
  for (const source of opened.sources) {
    if (!cited.has(source.sourceId)) continue;
    const drift = sourceDrift(workspaceFolder, ledger.evidenceLookup, source);
    if (drift !== null) problems.push({ code: "docket.source-changed", message: `${drift}; open a new review against the current sources.`, claimId: null, sourceId: source.sourceId });
  }
  if (request.response.verdict === "unsupported") {
    problems.push({ code: "docket.response-unsupported", message: "The whole-response judgment says the answer is not supported.", claimId: null, sourceId: null });
  }
  return problems;
}

/** Refusals: the judgments do not bind to the review as opened (nothing is written). */
function checkBindings(opened: ReviewOpened, request: ReviewSubmitRequest): void {
  const claimIds = new Set(opened.claims.map((claim) => claim.claimId));
  const sourceIds = new Set(opened.sources.map((source) => source.sourceId));
  const judged = new Set<string>();
  for (const claim of request.claims) {
    if (!claimIds.has(claim.claimId)) throw new DocketError(ErrorCodes.reviewClaimUnknown, `Claim ${claim.claimId} is not a claim of ${opened.reviewId} (its claims: ${[...claimIds].join(", ")}).`);
    if (judged.has(claim.claimId)) throw invalid(`Claim ${claim.claimId} is judged twice; judge each claim once.`);
    judged.add(claim.claimId);
    for (const citation of claim.citations) {
      if (!sourceIds.has(citation)) {
        throw new DocketError(ErrorCodes.reviewCitationUnsealed, `Claim ${claim.claimId} cites ${citation}, which ${opened.reviewId} did not seal (its sources: ${[...sourceIds].join(", ")}).`);
      }
    }
  }
  const missing = [...claimIds].filter((id) => !judged.has(id));
  if (missing.length > 0) throw new DocketError(ErrorCodes.reviewClaimUnjudged, `Every claim needs a judgment; not judged: ${missing.join(", ")}.`);
}

function decisionInputOf(opened: ReviewOpened, request: ReviewSubmitRequest, problems: readonly ReviewProblem[]): DecisionInput {
  const texts = new Map(opened.claims.map((claim) => [claim.claimId, claim.text]));
  const flagged = new Set(problems.flatMap((problem) => (problem.claimId === null ? [] : [problem.claimId])));
  return {
    claims: request.claims.filter((claim) => flagged.has(claim.claimId)).map((claim) => ({ claimId: claim.claimId, verdict: claim.verdict, text: texts.get(claim.claimId) ?? "" })),
    problems: problems.map((problem) => ({ ...problem })),
    next:
      "Correct the answer where these claims are wrong, or say in the answer that they are unresolved; gather the missing evidence only where the objective needs it. Then open a new review of the corrected answer. Do not redo work that is already done.",
  };
}

export async function submitReview(ledger: WorkspaceLedger, raw: unknown): Promise<ReviewSubmitResult> {
  const request = parseSubmitRequest(raw);
  const workspaceFolder = ledger.options.workspaceFolder;
  let answersIndex: { draftSha256: string; reviewId: string } | null = null;
  let recorded: { entry: ReviewSubmitted; opened: ReviewOpened };
  try {
    recorded = await ledger.appendGuard(
      (store) => {
        const found = reviewFromLines(store.guardLines, request.reviewId);
        if (found === null) throw new DocketError(ErrorCodes.reviewUnknown, `No review ${request.reviewId} is recorded in this workspace's ledger; open one with review_open.`);
        if (found.located.submitted !== null) throw new DocketError(ErrorCodes.reviewClosed, `${request.reviewId} was already submitted (${found.located.submitted.status}); open a new review for a new answer.`);
        const opened = found.located.opened;
        checkBindings(opened, request);
        const problems = judgmentProblems(workspaceFolder, ledger, opened, request);
        const unsupported = problems.some((problem) => problem.code === "docket.claim-unsupported" || problem.code === "docket.response-unsupported");
        const status = unsupported ? "unsupported" : problems.length > 0 ? "incomplete" : "supported";
        const entry: ReviewSubmitted = {
          kind: "review-submitted",
          reviewId: request.reviewId,
          openedLineSha256: found.located.openedLineSha256,
          claims: request.claims.map((claim) => ({ claimId: claim.claimId, verdict: claim.verdict, citations: [...claim.citations] })),
          response: { verdict: request.response.verdict, rationale: redactPersistedInput(request.response.rationale).value },
          status,
          problems,
          submittedAt: ledger.now(),
        };
        if (status === "supported" && opened.coversEntireAnswer) answersIndex = { draftSha256: opened.draftSha256, reviewId: opened.reviewId };
        return { entries: [entry], context: { entry, opened } };
      },
      "recording review judgments",
      (store) => {
        writeReviewLocator(workspaceFolder, store.root, reviewLines(store.guardLines, request.reviewId));
        const index = answersIndex as { draftSha256: string; reviewId: string } | null;
        if (index !== null) {
          try {
            writeFileAtomicContained(store.root, answerIndexPath(workspaceFolder, index.draftSha256), `${JSON.stringify({ reviewId: index.reviewId })}\n`, { mode: 0o600 });
          } catch {
            // Automatic matching is a convenience; the marker still works.
          }
        }
      },
    );
  } catch (error) {
    const coded = toDocketError(error);
    if (coded.code === ErrorCodes.ledgerLocked || coded.code === ErrorCodes.ledgerUnwritable || coded.code === ErrorCodes.internal) {
      throw new DocketError(
        ErrorCodes.reviewNotRecorded,
        `The judgments were not recorded (${coded.code}: ${coded.message}). Submit the same judgments again with review_submit; the work itself does not need to be redone.`,
      );
    }
    throw coded;
  }
  const { entry, opened } = recorded;
  if (entry.status === "supported") {
    return { reviewId: entry.reviewId, status: "supported", marker: completionMarker(entry.reviewId, opened.draftSha256) };
  }
  return { reviewId: entry.reviewId, status: entry.status, decisionInput: decisionInputOf(opened, request, entry.problems) };
}

function reviewLines(lines: readonly GuardLine[], reviewId: string): GuardLine[] {
  return reviewFromLines(lines, reviewId)?.lines ?? [];
}
