// Routing transitions (§3.2 events 7–10, §4.3–§4.4): a snapshot is opened against a frame
// revision, its pages are accounted in order, its coverage completes against the seal and is
// attached to the frame, and can-serve bases are derived from selected capability candidates.
// Bookkeeping faults are `routing-state-missing` / `basis-missing`; malformed or unsealed
// routing values are payload faults, as in the reference.
import { stop } from "../../ledger/faults";
import type { CompletedCoverage, RoutingCoverage, RoutingSnapshot } from "../scopeState";
import { obligationSetSha256 } from "../values/obligations";
import {
  MAX_PAGE_SIZE,
  canServeBasisSha256,
  coverageSha256,
  pageChainLink,
  pageChainSeed,
  pageSha256,
  snapshotBasisSha256,
  type CanServeBasis,
  type CandidateDisposition,
  type SnapshotBasis,
  type SnapshotManifest,
  type TargetEffectKind,
} from "../values/routing";
import type { LiveScope } from "./liveScope";
import type { LooseCanServeBody, LoosePage } from "./payloadShapes";
import { openFrame, reject, sameIds } from "./transition";

function invalid(message: string): never {
  return stop("invalid-payload", message);
}

/** Strictly ascending ids, as the reference's routing values require (a payload fault here). */
function canonical(values: readonly string[], name: string, nonEmpty: boolean): readonly string[] {
  if ((nonEmpty && values.length === 0) || values.length > 100) invalid(`${name} has an invalid length`);
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index - 1] ?? "") >= (values[index] ?? "")) invalid(`${name} must be unique and in canonical order`);
  }
  return values;
}

function snapshotById(scope: LiveScope, snapshotId: string): RoutingSnapshot | undefined {
  return scope.snapshots.get(snapshotId);
}

/** Event 7. A replacement drops the still-collecting snapshot it replaces, pages and all. */
export function openSnapshot(scope: LiveScope, basis: SnapshotBasis, manifest: SnapshotManifest, replacesSnapshotId: string | null): void {
  const frame = scope.frame(basis.frameId);
  if (frame === undefined || frame.frame.frameRevision !== basis.frameRevision || frame.conclusion !== null) {
    return stop("routing-state-missing", "routing snapshot frame is not current and open");
  }
  if (replacesSnapshotId === null) {
    if (scope.hasSnapshotFor(basis.frameId, basis.frameRevision)) {
      stop("routing-state-missing", "current frame already has a routing snapshot");
    }
  } else {
    const replaced = snapshotById(scope, replacesSnapshotId);
    if (
      replaced === undefined ||
      replaced.status !== "collecting" ||
      replaced.frameId !== basis.frameId ||
      replaced.frameRevision !== basis.frameRevision
    ) {
      stop("routing-state-missing", "replacement snapshot is absent, completed, or stale");
    }
  }
  // The replaced snapshot no longer counts: its id may be reused by its replacement.
  if (manifest.snapshotId !== replacesSnapshotId && scope.snapshots.has(manifest.snapshotId)) {
    stop("routing-state-missing", "routing snapshot identity already exists");
  }
  if (manifest.snapshotBasisSha256 !== snapshotBasisSha256(basis)) invalid("snapshot manifest does not match its basis");
  if (obligationSetSha256(frame.obligations) !== basis.obligationSetSha256) invalid("snapshot basis does not match the current obligations");
  const coverage: RoutingCoverage = {
    basis,
    manifest,
    obligations: frame.obligations,
    nextPageIndex: 0,
    observedCandidateCount: 0,
    pageChainSha256: pageChainSeed(manifest.snapshotId, manifest.snapshotBasisSha256),
    selectedCandidates: [],
    targetSummaries: frame.obligations.map((entry) => ({
      obligationId: entry.obligationId,
      selectedCount: 0,
      clearedCount: 0,
      blockedCount: 0,
      optionalLimitationCount: 0,
    })),
  };
  const snapshot: RoutingSnapshot = {
    status: "collecting",
    snapshotId: manifest.snapshotId,
    frameId: basis.frameId,
    frameRevision: basis.frameRevision,
    coverage,
  };
  if (replacesSnapshotId !== null) scope.removeSnapshot(replacesSnapshotId);
  scope.addSnapshot(snapshot);
}

function countEffect(
  summary: RoutingCoverage["targetSummaries"][number],
  effect: TargetEffectKind,
): RoutingCoverage["targetSummaries"][number] {
  if (effect === "selected") return { ...summary, selectedCount: summary.selectedCount + 1 };
  if (effect === "cleared") return { ...summary, clearedCount: summary.clearedCount + 1 };
  if (effect === "blocked") return { ...summary, blockedCount: summary.blockedCount + 1 };
  return { ...summary, optionalLimitationCount: summary.optionalLimitationCount + 1 };
}

/** Event 8: the next page, exactly one disposition per candidate, effects on every obligation in order. */
export function accountPage(scope: LiveScope, page: LoosePage, dispositions: readonly CandidateDisposition[]): void {
  const snapshot = snapshotById(scope, page.snapshotId);
  if (snapshot === undefined || snapshot.status !== "collecting") {
    return stop("routing-state-missing", "routing page snapshot is absent or completed");
  }
  const coverage = snapshot.coverage;
  if (coverage.nextPageIndex >= coverage.manifest.pageCount) invalid("routing snapshot has no remaining page");
  if (page.candidates.length === 0 || page.candidates.length > MAX_PAGE_SIZE) invalid("candidate page has an invalid index or size");
  if (pageSha256(page.snapshotId, page.pageIndex, page.candidates) !== page.pageSha256) invalid("candidate page hash mismatch");
  if (page.snapshotId !== coverage.manifest.snapshotId || page.pageIndex !== coverage.nextPageIndex) invalid("routing page is stale or out of order");
  if (dispositions.length !== page.candidates.length) invalid("every page candidate requires exactly one disposition");
  const selected = [...coverage.selectedCandidates];
  let summaries = coverage.targetSummaries;
  page.candidates.forEach((candidate, index) => {
    const disposition = dispositions[index];
    if (
      disposition === undefined ||
      disposition.candidateId !== candidate.candidateId ||
      disposition.descriptorSha256 !== candidate.descriptorSha256 ||
      !sameIds(
        disposition.targetEffects.map((effect) => effect.obligationId),
        coverage.obligations.map((entry) => entry.obligationId),
      )
    ) {
      invalid("candidate disposition does not match the frozen page and targets");
    }
    if (disposition.targetEffects.some((effect) => effect.effect === "selected")) selected.push(candidate);
    summaries = summaries.map((summary, target) => countEffect(summary, disposition.targetEffects[target]?.effect ?? "optional-limitation"));
  });
  scope.updateSnapshot({
    ...snapshot,
    coverage: {
      ...coverage,
      nextPageIndex: coverage.nextPageIndex + 1,
      observedCandidateCount: coverage.observedCandidateCount + page.candidates.length,
      pageChainSha256: pageChainLink(coverage.pageChainSha256, page.pageIndex, page.pageSha256),
      selectedCandidates: selected,
      targetSummaries: summaries,
    },
  });
}

function coverageComplete(coverage: RoutingCoverage): boolean {
  return (
    coverage.nextPageIndex === coverage.manifest.pageCount &&
    coverage.observedCandidateCount === coverage.manifest.candidateCount &&
    coverage.pageChainSha256 === coverage.manifest.orderedPageRootSha256 &&
    coverage.targetSummaries.every((summary) => summary.blockedCount === 0)
  );
}

/** Event 9: complete against the seal, then attach to the (still open, unrouted) frame. */
export function completeCoverage(scope: LiveScope, snapshotId: string, expectedCoverageSha256: string): void {
  const snapshot = snapshotById(scope, snapshotId);
  if (snapshot === undefined || snapshot.status !== "collecting") {
    return stop("routing-state-missing", "routing coverage snapshot is absent or completed");
  }
  const coverage = snapshot.coverage;
  if (!coverageComplete(coverage)) invalid("routing coverage is incomplete, blocked, unknown, or does not match its seal");
  // Written out, not spread (see createBasis).
  const completed: CompletedCoverage = {
    basis: coverage.basis,
    manifest: coverage.manifest,
    obligations: coverage.obligations,
    nextPageIndex: coverage.nextPageIndex,
    observedCandidateCount: coverage.observedCandidateCount,
    pageChainSha256: coverage.pageChainSha256,
    selectedCandidates: coverage.selectedCandidates,
    targetSummaries: coverage.targetSummaries,
    coverageSha256: coverageSha256(coverage.manifest, coverage.selectedCandidates, coverage.targetSummaries),
  };
  if (completed.coverageSha256 !== expectedCoverageSha256) stop("routing-state-missing", "completed routing coverage hash mismatch");
  const frame = openFrame(scope, snapshot.frameId);
  if (frame.routing !== null) reject("routing-not-current", "frame already has routing coverage");
  if (
    coverage.basis.frameId !== frame.frame.frameId ||
    coverage.basis.frameRevision !== frame.frame.frameRevision ||
    coverage.basis.obligationSetSha256 !== frame.frame.obligationSetSha256 ||
    !sameIds(coverage.obligations.map((entry) => entry.obligationId), frame.frame.obligationIds)
  ) {
    reject("routing-not-current", "routing coverage is stale for this frame");
  }
  frame.setRouting(completed);
  scope.updateSnapshot({ ...snapshot, status: "completed", coverage: completed });
}

/** Event 10: only a selected capability candidate can serve, on targets of the covered frame. */
export function createBasis(scope: LiveScope, snapshotId: string, body: LooseCanServeBody, expectedBasisSha256: string): void {
  const snapshot = snapshotById(scope, snapshotId);
  if (snapshot === undefined || snapshot.status !== "completed") {
    return stop("routing-state-missing", "can-serve snapshot is absent or incomplete");
  }
  const coverage = snapshot.coverage;
  const candidate = coverage.selectedCandidates.find((entry) => entry.candidateId === body.candidateId);
  if (candidate === undefined) return invalid("can-serve candidate was not selected");
  if (candidate.kind !== "capability") invalid("only a registered capability candidate can serve a Route");
  const targets = canonical(body.targetObligationIds, "targetObligationIds", true);
  const known = new Set(coverage.obligations.map((entry) => entry.obligationId));
  if (targets.some((target) => !known.has(target))) invalid("can-serve targets must belong to the current frame");
  const fields = {
    basisId: body.basisId,
    candidateId: body.candidateId,
    targetObligationIds: targets,
    methodRevisionSha256: body.methodRevisionSha256,
    policy: body.policy,
    rootApplicability: body.rootApplicability,
    snapshotId: coverage.manifest.snapshotId,
    frameId: coverage.basis.frameId,
    frameRevision: coverage.basis.frameRevision,
    capabilityId: candidate.subjectId,
    capabilityRevisionSha256: candidate.subjectRevisionSha256,
    descriptorSha256: candidate.descriptorSha256,
    contextBasisSha256: coverage.coverageSha256,
  };
  // The kept record is written out field by field: V8 gives each object built by spread plus new
  // fields a map of its own (see parseEnvelope).
  const basis: CanServeBasis = {
    basisId: fields.basisId,
    candidateId: fields.candidateId,
    targetObligationIds: fields.targetObligationIds,
    methodRevisionSha256: fields.methodRevisionSha256,
    policy: fields.policy,
    rootApplicability: fields.rootApplicability,
    snapshotId: fields.snapshotId,
    frameId: fields.frameId,
    frameRevision: fields.frameRevision,
    capabilityId: fields.capabilityId,
    capabilityRevisionSha256: fields.capabilityRevisionSha256,
    descriptorSha256: fields.descriptorSha256,
    contextBasisSha256: fields.contextBasisSha256,
    kind: "can-serve",
    basisSha256: canServeBasisSha256(fields),
  };
  if (basis.basisSha256 !== expectedBasisSha256) stop("basis-missing", "can-serve basis hash mismatch");
  if (scope.bases.has(basis.basisId)) stop("basis-missing", "basis identity already exists");
  scope.addBasis(basis);
}
