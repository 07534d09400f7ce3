// Routing values (§4.2–§4.4): the frozen candidate snapshot a frame is routed against, its
// pages and ordered page chain, per-candidate dispositions, the completed-coverage hash, and
// the can-serve basis that lets one selected capability be assigned. Coverage proves what was
// considered; nothing here discharges or concludes anything.
import { arrayAt, exactKeys, fail, idAt, integerAt, objectAt, shaAt, textAt } from "../../ledger/values";
import { integerJson, objectListJson, textJson, textListJson, unwritable, writtenHash } from "./canonicalText";
import { assertCanonicalOrder, assertUnique, canonicalIdListAt, domainHash, expectHash, literalAt } from "./common";

export const CANDIDATE_DOMAIN = "developer/v8/routing-candidate";
export const SNAPSHOT_BASIS_DOMAIN = "developer.snapshot-basis/v1";
export const PAGE_DOMAIN = "developer/v8/routing-candidate-page";
export const PAGE_CHAIN_SEED_DOMAIN = "developer/v8/routing-page-chain/seed";
export const PAGE_CHAIN_LINK_DOMAIN = "developer/v8/routing-page-chain/link";
export const COVERAGE_DOMAIN = "developer/v8/completed-routing-coverage";
export const CAN_SERVE_DOMAIN = "developer/v8/can-serve-routing-basis";
export const MAX_PAGE_SIZE = 100;
/** Snapshot-basis provider revisions use the §1.1 `sourceRevision` limit. */
export const MAX_SOURCE_REVISION_LENGTH = 1_000;

export interface SourceRevisionRef {
  readonly sourceId: string;
  readonly revision: string;
}

export function parseSourceRevisionRef(value: unknown, path = "source", maxRevision = MAX_SOURCE_REVISION_LENGTH): SourceRevisionRef {
  const data = objectAt(value, path);
  exactKeys(data, path, ["sourceId", "revision"]);
  return Object.freeze({
    sourceId: idAt(data.sourceId, `${path}.sourceId`),
    revision: textAt(data.revision, `${path}.revision`, { max: maxRevision }),
  });
}

export interface RefinementProvenance {
  readonly producerId: string;
  readonly producerRevisionSha256: string;
  readonly basisSha256: string;
}

export function parseRefinement(value: unknown, path = "refinement"): RefinementProvenance {
  const data = objectAt(value, path);
  exactKeys(data, path, ["producerId", "producerRevisionSha256", "basisSha256"]);
  return Object.freeze({
    producerId: idAt(data.producerId, `${path}.producerId`),
    producerRevisionSha256: shaAt(data.producerRevisionSha256, `${path}.producerRevisionSha256`),
    basisSha256: shaAt(data.basisSha256, `${path}.basisSha256`),
  });
}

export const CANDIDATE_KINDS = ["capability", "tool", "material", "constraint", "evidence", "decision"] as const;
export type CandidateKind = (typeof CANDIDATE_KINDS)[number];

interface CandidateCommon {
  readonly candidateId: string;
  readonly source: SourceRevisionRef;
  readonly subjectId: string;
  readonly subjectRevisionSha256: string;
}

export type CandidateDescriptorBody =
  | (CandidateCommon & { readonly kind: "capability"; readonly registryRevisionSha256: string })
  | (CandidateCommon & { readonly kind: "tool"; readonly schemaSha256: string })
  | (CandidateCommon & { readonly kind: "material"; readonly contentDescriptorSha256: string })
  | (CandidateCommon & { readonly kind: "constraint" | "evidence" | "decision"; readonly refinement: RefinementProvenance });

export type CandidateDescriptor = CandidateDescriptorBody & { readonly descriptorSha256: string };

const COMMON_KEYS = ["candidateId", "kind", "source", "subjectId", "subjectRevisionSha256"] as const;

function extraKeyOf(kind: CandidateKind): "registryRevisionSha256" | "schemaSha256" | "contentDescriptorSha256" | "refinement" {
  if (kind === "capability") return "registryRevisionSha256";
  if (kind === "tool") return "schemaSha256";
  if (kind === "material") return "contentDescriptorSha256";
  return "refinement";
}

// The candidate's `source.revision` is bounded by the general text limit in the reference
// (only the snapshot basis applies the 1,000-unit sourceRevision limit).
function parseDescriptorFields(data: Record<string, unknown>, path: string, withHash: boolean): CandidateDescriptorBody {
  const kind = literalAt(data.kind, `${path}.kind`, CANDIDATE_KINDS);
  const extra = extraKeyOf(kind);
  exactKeys(data, path, withHash ? [...COMMON_KEYS, extra, "descriptorSha256"] : [...COMMON_KEYS, extra]);
  const common: CandidateCommon = {
    candidateId: idAt(data.candidateId, `${path}.candidateId`),
    source: parseSourceRevisionRef(data.source, `${path}.source`, 4_000),
    subjectId: idAt(data.subjectId, `${path}.subjectId`),
    subjectRevisionSha256: shaAt(data.subjectRevisionSha256, `${path}.subjectRevisionSha256`),
  };
  switch (kind) {
    case "capability":
      return Object.freeze({ ...common, kind, registryRevisionSha256: shaAt(data.registryRevisionSha256, `${path}.registryRevisionSha256`) });
    case "tool":
      return Object.freeze({ ...common, kind, schemaSha256: shaAt(data.schemaSha256, `${path}.schemaSha256`) });
    case "material":
      return Object.freeze({ ...common, kind, contentDescriptorSha256: shaAt(data.contentDescriptorSha256, `${path}.contentDescriptorSha256`) });
    default:
      return Object.freeze({ ...common, kind, refinement: parseRefinement(data.refinement, `${path}.refinement`) });
  }
}

function descriptorBodyValue(body: CandidateDescriptorBody): Record<string, unknown> {
  const common = {
    candidateId: body.candidateId,
    kind: body.kind,
    source: { sourceId: body.source.sourceId, revision: body.source.revision },
    subjectId: body.subjectId,
    subjectRevisionSha256: body.subjectRevisionSha256,
  };
  switch (body.kind) {
    case "capability":
      return { ...common, registryRevisionSha256: body.registryRevisionSha256 };
    case "tool":
      return { ...common, schemaSha256: body.schemaSha256 };
    case "material":
      return { ...common, contentDescriptorSha256: body.contentDescriptorSha256 };
    default:
      return { ...common, refinement: { producerId: body.refinement.producerId, producerRevisionSha256: body.refinement.producerRevisionSha256, basisSha256: body.refinement.basisSha256 } };
  }
}

/** The descriptor's members in code-unit order, with `descriptorSha256` among them when given. */
function descriptorJson(body: CandidateDescriptorBody, descriptorHash: string | null): string {
  const source = body.source;
  if (typeof source !== "object" || source === null) return unwritable();
  let extra: string;
  let extraBeforeKind = "";
  switch (body.kind) {
    case "capability":
      extra = `"registryRevisionSha256":${textJson(body.registryRevisionSha256)},`;
      break;
    case "tool":
      extra = `"schemaSha256":${textJson(body.schemaSha256)},`;
      break;
    case "material":
      extra = "";
      extraBeforeKind = `"contentDescriptorSha256":${textJson(body.contentDescriptorSha256)},`;
      break;
    default: {
      const refinement = body.refinement;
      if (typeof refinement !== "object" || refinement === null) return unwritable();
      extra =
        `"refinement":{"basisSha256":${textJson(refinement.basisSha256)},"producerId":${textJson(refinement.producerId)},` +
        `"producerRevisionSha256":${textJson(refinement.producerRevisionSha256)}},`;
    }
  }
  return (
    `{"candidateId":${textJson(body.candidateId)},${extraBeforeKind}` +
    (descriptorHash === null ? "" : `"descriptorSha256":${textJson(descriptorHash)},`) +
    `"kind":${textJson(body.kind)},${extra}"source":{"revision":${textJson(source.revision)},"sourceId":${textJson(source.sourceId)}},` +
    `"subjectId":${textJson(body.subjectId)},"subjectRevisionSha256":${textJson(body.subjectRevisionSha256)}}`
  );
}

function descriptorHashJson(body: CandidateDescriptorBody): string {
  return `{"candidate":${descriptorJson(body, null)},"domain":${JSON.stringify(CANDIDATE_DOMAIN)}}`;
}

function descriptorHashGeneral(body: CandidateDescriptorBody): string {
  return domainHash(CANDIDATE_DOMAIN, { candidate: descriptorBodyValue(body) });
}

export function descriptorSha256(body: CandidateDescriptorBody): string {
  return writtenHash(body, descriptorHashJson, descriptorHashGeneral);
}

export function parseCandidateDescriptorBody(value: unknown, path = "candidate"): CandidateDescriptorBody {
  return parseDescriptorFields(objectAt(value, path), path, false);
}

export function parseCandidateDescriptor(value: unknown, path = "candidate"): CandidateDescriptor {
  const data = objectAt(value, path);
  const body = parseDescriptorFields(data, path, true);
  return Object.freeze({ ...body, descriptorSha256: expectHash(data.descriptorSha256, `${path}.descriptorSha256`, descriptorSha256(body), "candidate descriptor") });
}

export function createCandidateDescriptor(body: CandidateDescriptorBody): CandidateDescriptor {
  const value = descriptorBodyValue(body);
  const parsed = parseCandidateDescriptorBody(value);
  return parseCandidateDescriptor({ ...value, descriptorSha256: descriptorSha256(parsed) });
}

/** The wire form of a descriptor (exact keys, plain objects) for hashing inside pages. */
function descriptorValue(descriptor: CandidateDescriptor): Record<string, unknown> {
  return { ...descriptorBodyValue(descriptor), descriptorSha256: descriptor.descriptorSha256 };
}

export interface SnapshotBasis {
  readonly frameId: string;
  readonly frameRevision: number;
  readonly obligationSetSha256: string;
  readonly admittedUniverseSha256: string;
  readonly providerSourceRevisions: readonly SourceRevisionRef[];
  readonly priorityStrategySha256: string;
}

/** Provider revisions are parsed (and ordered by sourceId) before the scalar fields, as in the reference. */
export function parseSnapshotBasis(value: unknown, path = "snapshotBasis"): SnapshotBasis {
  const data = objectAt(value, path);
  exactKeys(data, path, ["frameId", "frameRevision", "obligationSetSha256", "admittedUniverseSha256", "providerSourceRevisions", "priorityStrategySha256"]);
  const revisions = arrayAt(data.providerSourceRevisions, `${path}.providerSourceRevisions`, (entry, entryPath) => parseSourceRevisionRef(entry, entryPath));
  assertCanonicalOrder(revisions, `${path}.providerSourceRevisions`, (entry) => entry.sourceId);
  return Object.freeze({
    frameId: idAt(data.frameId, `${path}.frameId`),
    frameRevision: integerAt(data.frameRevision, `${path}.frameRevision`),
    obligationSetSha256: shaAt(data.obligationSetSha256, `${path}.obligationSetSha256`),
    admittedUniverseSha256: shaAt(data.admittedUniverseSha256, `${path}.admittedUniverseSha256`),
    providerSourceRevisions: Object.freeze(revisions),
    priorityStrategySha256: shaAt(data.priorityStrategySha256, `${path}.priorityStrategySha256`),
  });
}

export function createSnapshotBasis(basis: SnapshotBasis): SnapshotBasis {
  return parseSnapshotBasis(snapshotBasisValue(basis));
}

function snapshotBasisValue(basis: SnapshotBasis): Record<string, unknown> {
  return {
    frameId: basis.frameId,
    frameRevision: basis.frameRevision,
    obligationSetSha256: basis.obligationSetSha256,
    admittedUniverseSha256: basis.admittedUniverseSha256,
    providerSourceRevisions: basis.providerSourceRevisions.map((entry) => ({ sourceId: entry.sourceId, revision: entry.revision })),
    priorityStrategySha256: basis.priorityStrategySha256,
  };
}

/** H({domain:"developer.snapshot-basis/v1", value: basis}) — the `value` wrapper style. */
export function snapshotBasisSha256(basis: SnapshotBasis): string {
  return writtenHash(basis, snapshotBasisHashJson, snapshotBasisHashGeneral);
}

function sourceRevisionJson(entry: SourceRevisionRef): string {
  return `{"revision":${textJson(entry.revision)},"sourceId":${textJson(entry.sourceId)}}`;
}

function snapshotBasisHashJson(basis: SnapshotBasis): string {
  return (
    `{"domain":${JSON.stringify(SNAPSHOT_BASIS_DOMAIN)},"value":{"admittedUniverseSha256":${textJson(basis.admittedUniverseSha256)},` +
    `"frameId":${textJson(basis.frameId)},"frameRevision":${integerJson(basis.frameRevision)},"obligationSetSha256":${textJson(basis.obligationSetSha256)},` +
    `"priorityStrategySha256":${textJson(basis.priorityStrategySha256)},"providerSourceRevisions":${objectListJson(basis.providerSourceRevisions, sourceRevisionJson)}}}`
  );
}

function snapshotBasisHashGeneral(basis: SnapshotBasis): string {
  return domainHash(SNAPSHOT_BASIS_DOMAIN, { value: snapshotBasisValue(basis) });
}

export interface SnapshotManifest {
  readonly snapshotId: string;
  readonly snapshotBasisSha256: string;
  readonly pageCount: number;
  readonly candidateCount: number;
  readonly orderedPageRootSha256: string;
}

export function parseSnapshotManifest(value: unknown, path = "snapshotSealManifest"): SnapshotManifest {
  const data = objectAt(value, path);
  exactKeys(data, path, ["snapshotId", "snapshotBasisSha256", "pageCount", "candidateCount", "orderedPageRootSha256"]);
  return Object.freeze({
    snapshotId: idAt(data.snapshotId, `${path}.snapshotId`),
    snapshotBasisSha256: shaAt(data.snapshotBasisSha256, `${path}.snapshotBasisSha256`),
    pageCount: integerAt(data.pageCount, `${path}.pageCount`),
    candidateCount: integerAt(data.candidateCount, `${path}.candidateCount`),
    orderedPageRootSha256: shaAt(data.orderedPageRootSha256, `${path}.orderedPageRootSha256`),
  });
}

export interface CandidatePage {
  readonly snapshotId: string;
  readonly pageIndex: number;
  readonly candidates: readonly CandidateDescriptor[];
  readonly pageSha256: string;
}

interface PageMembers {
  readonly snapshotId: string;
  readonly pageIndex: number;
  readonly candidates: readonly CandidateDescriptor[];
}

function pagedDescriptorJson(descriptor: CandidateDescriptor): string {
  if (typeof descriptor.descriptorSha256 !== "string") return unwritable();
  return descriptorJson(descriptor, descriptor.descriptorSha256);
}

function pageHashJson({ snapshotId, pageIndex, candidates }: PageMembers): string {
  return (
    `{"candidates":${objectListJson(candidates, pagedDescriptorJson)},"domain":${JSON.stringify(PAGE_DOMAIN)},` +
    `"pageIndex":${integerJson(pageIndex)},"snapshotId":${textJson(snapshotId)}}`
  );
}

function pageHashGeneral({ snapshotId, pageIndex, candidates }: PageMembers): string {
  return domainHash(PAGE_DOMAIN, { snapshotId, pageIndex, candidates: candidates.map(descriptorValue) });
}

export function pageSha256(snapshotId: string, pageIndex: number, candidates: readonly CandidateDescriptor[]): string {
  return writtenHash({ snapshotId, pageIndex, candidates }, pageHashJson, pageHashGeneral);
}

/** A page holds 1..100 hash-valid descriptors with distinct ids; its hash binds snapshot and index. */
export function parseCandidatePage(value: unknown, path = "page"): CandidatePage {
  const data = objectAt(value, path);
  exactKeys(data, path, ["snapshotId", "pageIndex", "candidates", "pageSha256"]);
  const snapshotId = idAt(data.snapshotId, `${path}.snapshotId`);
  const pageIndex = integerAt(data.pageIndex, `${path}.pageIndex`);
  const candidates = arrayAt(data.candidates, `${path}.candidates`, parseCandidateDescriptor, { nonEmpty: true, max: MAX_PAGE_SIZE });
  assertUnique(candidates, `${path}.candidates`, (candidate) => candidate.candidateId);
  return Object.freeze({
    snapshotId,
    pageIndex,
    candidates: Object.freeze(candidates),
    pageSha256: expectHash(data.pageSha256, `${path}.pageSha256`, pageSha256(snapshotId, pageIndex, candidates), "page"),
  });
}

/** Splits ordered candidates into pages of `pageSize` (1..100); ids must be unique snapshot-wide. */
export function createCandidatePages(snapshotId: string, candidates: readonly CandidateDescriptor[], pageSize = MAX_PAGE_SIZE): readonly CandidatePage[] {
  const id = idAt(snapshotId, "snapshotId");
  integerAt(pageSize, "pageSize", { min: 1, max: MAX_PAGE_SIZE });
  const verified = candidates.map((candidate, index) => parseCandidateDescriptor(descriptorValue(candidate), `candidates[${index}]`));
  assertUnique(verified, "candidates", (candidate) => candidate.candidateId);
  const pages: CandidatePage[] = [];
  for (let offset = 0; offset < verified.length; offset += pageSize) {
    const slice = verified.slice(offset, offset + pageSize);
    const pageIndex = pages.length;
    pages.push(parseCandidatePage({ snapshotId: id, pageIndex, candidates: slice.map(descriptorValue), pageSha256: pageSha256(id, pageIndex, slice) }));
  }
  return Object.freeze(pages);
}

interface SeedMembers {
  readonly snapshotId: string;
  readonly basisSha256: string;
}

function seedHashJson({ snapshotId, basisSha256 }: SeedMembers): string {
  return `{"basisSha256":${textJson(basisSha256)},"domain":${JSON.stringify(PAGE_CHAIN_SEED_DOMAIN)},"snapshotId":${textJson(snapshotId)}}`;
}

function seedHashGeneral({ snapshotId, basisSha256 }: SeedMembers): string {
  return domainHash(PAGE_CHAIN_SEED_DOMAIN, { snapshotId, basisSha256 });
}

export function pageChainSeed(snapshotId: string, basisSha256: string): string {
  return writtenHash({ snapshotId, basisSha256 }, seedHashJson, seedHashGeneral);
}

interface LinkMembers {
  readonly previousSha256: string;
  readonly pageIndex: number;
  readonly pageSha256: string;
}

function linkHashJson({ previousSha256, pageIndex, pageSha256: pageHash }: LinkMembers): string {
  return (
    `{"domain":${JSON.stringify(PAGE_CHAIN_LINK_DOMAIN)},"pageIndex":${integerJson(pageIndex)},"pageSha256":${textJson(pageHash)},` +
    `"previousSha256":${textJson(previousSha256)}}`
  );
}

function linkHashGeneral({ previousSha256, pageIndex, pageSha256: pageHash }: LinkMembers): string {
  return domainHash(PAGE_CHAIN_LINK_DOMAIN, { previousSha256, pageIndex, pageSha256: pageHash });
}

export function pageChainLink(previousSha256: string, pageIndex: number, pageHash: string): string {
  return writtenHash({ previousSha256, pageIndex, pageSha256: pageHash }, linkHashJson, linkHashGeneral);
}

/** The order-sensitive chain over pages; with no pages it is the seed itself. */
export function orderedPageRootSha256(snapshotId: string, basisSha256: string, pages: readonly CandidatePage[]): string {
  return pages.reduce((chain, page) => pageChainLink(chain, page.pageIndex, page.pageSha256), pageChainSeed(snapshotId, basisSha256));
}

/** Seals a snapshot: pages must belong to it, be in index order, and keep candidate ids unique. */
export function createSnapshotManifest(snapshotId: string, basis: SnapshotBasis, pages: readonly CandidatePage[]): SnapshotManifest {
  const id = idAt(snapshotId, "snapshotId");
  const basisSha256 = snapshotBasisSha256(createSnapshotBasis(basis));
  const verified = pages.map((page, index) => {
    const parsed = parseCandidatePage(
      { snapshotId: page.snapshotId, pageIndex: page.pageIndex, candidates: page.candidates.map(descriptorValue), pageSha256: page.pageSha256 },
      `pages[${index}]`,
    );
    if (parsed.snapshotId !== id || parsed.pageIndex !== index) fail(`pages[${index}]`, "must belong to the snapshot and keep its index order");
    return parsed;
  });
  assertUnique(verified.flatMap((page) => page.candidates), "pages", (candidate) => candidate.candidateId);
  return parseSnapshotManifest({
    snapshotId: id,
    snapshotBasisSha256: basisSha256,
    pageCount: verified.length,
    candidateCount: verified.reduce((count, page) => count + page.candidates.length, 0),
    orderedPageRootSha256: orderedPageRootSha256(id, basisSha256, verified),
  });
}

export const DISPOSITION_KINDS = [
  "selected-for-material",
  "not-applicable",
  "excluded-by-root-unless",
  "considered-not-selected",
  "needs-context",
  "invalid/unavailable",
] as const;
export type DispositionKind = (typeof DISPOSITION_KINDS)[number];
export const TARGET_EFFECTS = ["selected", "cleared", "blocked", "optional-limitation"] as const;
export type TargetEffectKind = (typeof TARGET_EFFECTS)[number];

/** Which per-obligation effects each disposition may claim (§4.3). */
export const EFFECTS_BY_DISPOSITION: Readonly<Record<DispositionKind, readonly TargetEffectKind[]>> = {
  "selected-for-material": ["selected", "cleared", "optional-limitation"],
  "not-applicable": ["cleared", "optional-limitation"],
  "excluded-by-root-unless": ["cleared", "optional-limitation"],
  "considered-not-selected": ["cleared", "optional-limitation"],
  "needs-context": ["blocked", "optional-limitation"],
  "invalid/unavailable": ["blocked", "optional-limitation"],
};

export interface TargetEffect {
  readonly obligationId: string;
  readonly effect: TargetEffectKind;
}

export interface CandidateDisposition {
  readonly candidateId: string;
  readonly descriptorSha256: string;
  readonly kind: DispositionKind;
  readonly targetEffects: readonly TargetEffect[];
  readonly rationale: string;
}

/** Value rules only; "one effect per frame obligation, in obligation order" needs the frame. */
export function parseCandidateDisposition(value: unknown, path = "disposition"): CandidateDisposition {
  const data = objectAt(value, path);
  exactKeys(data, path, ["candidateId", "descriptorSha256", "kind", "targetEffects", "rationale"]);
  const kind = literalAt(data.kind, `${path}.kind`, DISPOSITION_KINDS);
  const allowed = EFFECTS_BY_DISPOSITION[kind];
  const targetEffects = arrayAt(data.targetEffects, `${path}.targetEffects`, (entry, entryPath) => {
    const effect = objectAt(entry, entryPath);
    exactKeys(effect, entryPath, ["obligationId", "effect"]);
    const parsed: TargetEffect = Object.freeze({
      obligationId: idAt(effect.obligationId, `${entryPath}.obligationId`),
      effect: literalAt(effect.effect, `${entryPath}.effect`, TARGET_EFFECTS),
    });
    if (!allowed.includes(parsed.effect)) fail(`${entryPath}.effect`, `${kind} cannot produce ${parsed.effect}`);
    return parsed;
  });
  assertCanonicalOrder(targetEffects, `${path}.targetEffects`, (effect) => effect.obligationId);
  return Object.freeze({
    candidateId: idAt(data.candidateId, `${path}.candidateId`),
    descriptorSha256: shaAt(data.descriptorSha256, `${path}.descriptorSha256`),
    kind,
    targetEffects: Object.freeze(targetEffects),
    rationale: textAt(data.rationale, `${path}.rationale`),
  });
}

export interface TargetSummary {
  readonly obligationId: string;
  readonly selectedCount: number;
  readonly clearedCount: number;
  readonly blockedCount: number;
  readonly optionalLimitationCount: number;
}

export interface SelectedCandidateRef {
  readonly candidateId: string;
  readonly descriptorSha256: string;
}

/**
 * H({domain, basisSha256, manifest, selectedCandidates:[{candidateId, descriptorSha256}],
 * targetSummaries}). Selected candidates keep accounting order; summaries keep obligation order.
 */
export function coverageSha256(manifest: SnapshotManifest, selectedCandidates: readonly SelectedCandidateRef[], targetSummaries: readonly TargetSummary[]): string {
  return writtenHash({ manifest, selectedCandidates, targetSummaries }, coverageHashJson, coverageHashGeneral);
}

interface CoverageMembers {
  readonly manifest: SnapshotManifest;
  readonly selectedCandidates: readonly SelectedCandidateRef[];
  readonly targetSummaries: readonly TargetSummary[];
}

function selectedCandidateJson(entry: SelectedCandidateRef): string {
  return `{"candidateId":${textJson(entry.candidateId)},"descriptorSha256":${textJson(entry.descriptorSha256)}}`;
}

function targetSummaryJson(entry: TargetSummary): string {
  return (
    `{"blockedCount":${integerJson(entry.blockedCount)},"clearedCount":${integerJson(entry.clearedCount)},"obligationId":${textJson(entry.obligationId)},` +
    `"optionalLimitationCount":${integerJson(entry.optionalLimitationCount)},"selectedCount":${integerJson(entry.selectedCount)}}`
  );
}

function coverageHashJson({ manifest, selectedCandidates, targetSummaries }: CoverageMembers): string {
  if (typeof manifest !== "object" || manifest === null) return unwritable();
  return (
    `{"basisSha256":${textJson(manifest.snapshotBasisSha256)},"domain":${JSON.stringify(COVERAGE_DOMAIN)},` +
    `"manifest":{"candidateCount":${integerJson(manifest.candidateCount)},"orderedPageRootSha256":${textJson(manifest.orderedPageRootSha256)},` +
    `"pageCount":${integerJson(manifest.pageCount)},"snapshotBasisSha256":${textJson(manifest.snapshotBasisSha256)},"snapshotId":${textJson(manifest.snapshotId)}},` +
    `"selectedCandidates":${objectListJson(selectedCandidates, selectedCandidateJson)},"targetSummaries":${objectListJson(targetSummaries, targetSummaryJson)}}`
  );
}

function coverageHashGeneral({ manifest, selectedCandidates, targetSummaries }: CoverageMembers): string {
  return domainHash(COVERAGE_DOMAIN, {
    basisSha256: manifest.snapshotBasisSha256,
    manifest: {
      snapshotId: manifest.snapshotId,
      snapshotBasisSha256: manifest.snapshotBasisSha256,
      pageCount: manifest.pageCount,
      candidateCount: manifest.candidateCount,
      orderedPageRootSha256: manifest.orderedPageRootSha256,
    },
    selectedCandidates: selectedCandidates.map((entry) => ({ candidateId: entry.candidateId, descriptorSha256: entry.descriptorSha256 })),
    targetSummaries: targetSummaries.map((entry) => ({
      obligationId: entry.obligationId,
      selectedCount: entry.selectedCount,
      clearedCount: entry.clearedCount,
      blockedCount: entry.blockedCount,
      optionalLimitationCount: entry.optionalLimitationCount,
    })),
  });
}

export type SkillPolicyRevision = { readonly kind: "absent" } | { readonly kind: "complete"; readonly revisionSha256: string };

export function parsePolicy(value: unknown, path = "policy"): SkillPolicyRevision {
  const data = objectAt(value, path);
  const kind = literalAt(data.kind, `${path}.kind`, ["absent", "complete"]);
  if (kind === "absent") {
    exactKeys(data, path, ["kind"]);
    return Object.freeze({ kind });
  }
  exactKeys(data, path, ["kind", "revisionSha256"]);
  return Object.freeze({ kind, revisionSha256: shaAt(data.revisionSha256, `${path}.revisionSha256`) });
}

/** What the `can-serve-basis-created` payload's `body` carries. */
export interface CanServeBasisBody {
  readonly basisId: string;
  readonly candidateId: string;
  readonly targetObligationIds: readonly string[];
  readonly methodRevisionSha256: string;
  readonly policy: SkillPolicyRevision;
  readonly rootApplicability: "applicable";
}

/** The fields the runtime derives from the snapshot, its coverage and the selected candidate. */
export interface CanServeDerivation {
  readonly snapshotId: string;
  readonly frameId: string;
  readonly frameRevision: number;
  readonly capabilityId: string;
  readonly capabilityRevisionSha256: string;
  readonly descriptorSha256: string;
  readonly contextBasisSha256: string;
}

export interface CanServeBasis extends CanServeBasisBody, CanServeDerivation {
  readonly kind: "can-serve";
  readonly basisSha256: string;
}

const CAN_SERVE_BODY_KEYS = ["basisId", "candidateId", "targetObligationIds", "methodRevisionSha256", "policy", "rootApplicability"] as const;
const CAN_SERVE_DERIVED_KEYS = ["kind", "snapshotId", "frameId", "frameRevision", "capabilityId", "capabilityRevisionSha256", "descriptorSha256", "contextBasisSha256"] as const;

function parseCanServeBodyFields(data: Record<string, unknown>, path: string): CanServeBasisBody {
  return Object.freeze({
    basisId: idAt(data.basisId, `${path}.basisId`),
    candidateId: idAt(data.candidateId, `${path}.candidateId`),
    targetObligationIds: canonicalIdListAt(data.targetObligationIds, `${path}.targetObligationIds`, { nonEmpty: true }),
    methodRevisionSha256: shaAt(data.methodRevisionSha256, `${path}.methodRevisionSha256`),
    policy: parsePolicy(data.policy, `${path}.policy`),
    rootApplicability: literalAt(data.rootApplicability, `${path}.rootApplicability`, ["applicable"]),
  });
}

export function parseCanServeBasisBody(value: unknown, path = "body"): CanServeBasisBody {
  const data = objectAt(value, path);
  exactKeys(data, path, CAN_SERVE_BODY_KEYS);
  return parseCanServeBodyFields(data, path);
}

function canServeValue(basis: CanServeBasisBody & CanServeDerivation): Record<string, unknown> {
  return {
    basisId: basis.basisId,
    kind: "can-serve",
    snapshotId: basis.snapshotId,
    frameId: basis.frameId,
    frameRevision: basis.frameRevision,
    candidateId: basis.candidateId,
    capabilityId: basis.capabilityId,
    capabilityRevisionSha256: basis.capabilityRevisionSha256,
    descriptorSha256: basis.descriptorSha256,
    targetObligationIds: [...basis.targetObligationIds],
    methodRevisionSha256: basis.methodRevisionSha256,
    policy: basis.policy.kind === "absent" ? { kind: "absent" } : { kind: "complete", revisionSha256: basis.policy.revisionSha256 },
    rootApplicability: basis.rootApplicability,
    contextBasisSha256: basis.contextBasisSha256,
  };
}

/** H({domain, basis: every field but basisSha256}). */
export function canServeBasisSha256(basis: CanServeBasisBody & CanServeDerivation): string {
  return writtenHash(basis, canServeHashJson, canServeHashGeneral);
}

function canServeHashJson(basis: CanServeBasisBody & CanServeDerivation): string {
  const policy = basis.policy;
  if (typeof policy !== "object" || policy === null) return unwritable();
  const policyJson = policy.kind === "absent" ? `{"kind":"absent"}` : `{"kind":"complete","revisionSha256":${textJson(policy.revisionSha256)}}`;
  return (
    `{"basis":{"basisId":${textJson(basis.basisId)},"candidateId":${textJson(basis.candidateId)},"capabilityId":${textJson(basis.capabilityId)},` +
    `"capabilityRevisionSha256":${textJson(basis.capabilityRevisionSha256)},"contextBasisSha256":${textJson(basis.contextBasisSha256)},` +
    `"descriptorSha256":${textJson(basis.descriptorSha256)},"frameId":${textJson(basis.frameId)},"frameRevision":${integerJson(basis.frameRevision)},` +
    `"kind":"can-serve","methodRevisionSha256":${textJson(basis.methodRevisionSha256)},"policy":${policyJson},` +
    `"rootApplicability":${textJson(basis.rootApplicability)},"snapshotId":${textJson(basis.snapshotId)},` +
    `"targetObligationIds":${textListJson(basis.targetObligationIds)}},"domain":${JSON.stringify(CAN_SERVE_DOMAIN)}}`
  );
}

function canServeHashGeneral(basis: CanServeBasisBody & CanServeDerivation): string {
  return domainHash(CAN_SERVE_DOMAIN, { basis: canServeValue(basis) });
}

export function parseCanServeBasis(value: unknown, path = "basis"): CanServeBasis {
  const data = objectAt(value, path);
  exactKeys(data, path, [...CAN_SERVE_BODY_KEYS, ...CAN_SERVE_DERIVED_KEYS, "basisSha256"]);
  const body = parseCanServeBodyFields(data, path);
  literalAt(data.kind, `${path}.kind`, ["can-serve"]);
  const derived: CanServeDerivation = {
    snapshotId: idAt(data.snapshotId, `${path}.snapshotId`),
    frameId: idAt(data.frameId, `${path}.frameId`),
    frameRevision: integerAt(data.frameRevision, `${path}.frameRevision`),
    capabilityId: idAt(data.capabilityId, `${path}.capabilityId`),
    capabilityRevisionSha256: shaAt(data.capabilityRevisionSha256, `${path}.capabilityRevisionSha256`),
    descriptorSha256: shaAt(data.descriptorSha256, `${path}.descriptorSha256`),
    contextBasisSha256: shaAt(data.contextBasisSha256, `${path}.contextBasisSha256`),
  };
  const basisSha256 = expectHash(data.basisSha256, `${path}.basisSha256`, canServeBasisSha256({ ...body, ...derived }), "can-serve basis");
  return Object.freeze({ ...body, ...derived, kind: "can-serve", basisSha256 });
}

export function createCanServeBasis(body: CanServeBasisBody, derivation: CanServeDerivation): CanServeBasis {
  const value = canServeValue({ ...body, ...derivation });
  return parseCanServeBasis({ ...value, basisSha256: canServeBasisSha256({ ...body, ...derivation }) });
}
