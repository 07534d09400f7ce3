// The Review & Save entries of an Observer log (observer.md §2.2, §2.6, §6.1): the prepared save
// handoff (`observer.prepared-save`), the approved attempt (`observer.save-attempt`) and the save
// request (`observer.save-request`). Decoding is strict and returns new values whose key order is
// fixed here, because the handoff's digest is the SHA-256 of its decoded JSON text: two entries
// that differ only in key order decode to the same handoff and the same digest, as in the
// reference. Codes are the reference's (`pi-entry.*`, `save-profile.*`, `save-request.shape`).
import path from "node:path";
import { hasKeysExactly, isRecord, isSha256Hex, prefixedUuid, sha256OfText, sortedCopy, trimmedText } from "./observerValues";
import type { PreparedSave as NotebookPreparedSave } from "../notebook/proposal";
import type { EpisodeLanguage } from "./observerLifecycle";

export const PREPARED_SAVE_ENTRY = "observer.prepared-save";
export const SAVE_ATTEMPT_ENTRY = "observer.save-attempt";
export const SAVE_REQUEST_ENTRY = "observer.save-request";

export const PREPARED_SAVE_PROTOCOL = "observer.pi-prepared-save/v1";
export const SAVE_ATTEMPT_PROTOCOL = "observer.pi-save-attempt/v1";
export const SAVE_REQUEST_PROTOCOL = "observer.save-request/v1";
export const OBSERVER_SAVE_SCHEMA = "observer-save/v1";

const ID_LIMIT = 200;
const SUMMARY_LIMIT = 4_000;

export type PreparedRecord =
  | { readonly operation: "create"; readonly record_id: string; readonly markdown: string }
  | { readonly operation: "update"; readonly record_id: string; readonly expected_sha256: string; readonly markdown: string };

/** `observer-save/v1`: the same wire shape as Docket's Notebook PreparedSave (server/notebook/proposal.ts). */
export interface PreparedSave {
  readonly observer_save: typeof OBSERVER_SAVE_SCHEMA;
  readonly proposal_id: string;
  readonly notebook_id: string;
  readonly root: string;
  readonly episode_language: EpisodeLanguage;
  readonly records: readonly PreparedRecord[];
}

/** The prepared save as Docket's Notebook proposal takes it (preflight, sealing, publication): the same value, copied. */
export function notebookPreparedSave(prepared: PreparedSave): NotebookPreparedSave {
  return { ...prepared, records: prepared.records.map((record) => ({ ...record })) };
}

export interface PreparedSaveHandoff {
  readonly protocol: typeof PREPARED_SAVE_PROTOCOL;
  readonly summary: string;
  readonly prepared: PreparedSave;
}

export interface ApprovedSaveAttempt {
  readonly protocol: typeof SAVE_ATTEMPT_PROTOCOL;
  readonly kind: "approved";
  readonly attemptId: string;
  readonly proposalId: string;
  readonly preparedDigest: string;
}

export interface SaveRequest {
  readonly requestId: string;
  readonly proposalId: string;
  readonly requestDigest: string;
  readonly episodeId: string;
  readonly notebookId: string;
  readonly root: string;
  readonly episodeLanguage: EpisodeLanguage;
  readonly memoRevisionId: string | null;
  /** Distinct, sorted. */
  readonly sourceReadIds: readonly string[];
}

export type Decoded<Value, Code extends string> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly code: Code; readonly message: string };

export type SaveProfileCode = "save-profile.object" | "save-profile.shape" | "save-profile.unsupported";

const boundedId = (value: unknown): string | null => trimmedText(value, ID_LIMIT);

function failure<Code extends string>(code: Code, message: string): { readonly ok: false; readonly code: Code; readonly message: string } {
  return { ok: false, code, message };
}

function language(value: unknown): EpisodeLanguage | null {
  return value === "ko" || value === "en" ? value : null;
}

function decodeRecord(value: unknown, index: number): Decoded<PreparedRecord, SaveProfileCode> {
  if (!isRecord(value)) return failure("save-profile.object", `record ${index} is not an object`);
  const recordId = boundedId(value.record_id);
  const markdown = typeof value.markdown === "string" && value.markdown.length > 0 ? value.markdown : null;
  if (value.operation === "create") {
    if (!hasKeysExactly(value, ["operation", "record_id", "markdown"]) || recordId === null || markdown === null) {
      return failure("save-profile.shape", `record ${index}: a create needs exactly record_id and non-empty Markdown`);
    }
    return { ok: true, value: { operation: "create", record_id: recordId, markdown } };
  }
  if (value.operation === "update") {
    if (!hasKeysExactly(value, ["operation", "record_id", "expected_sha256", "markdown"]) || recordId === null || !isSha256Hex(value.expected_sha256) || markdown === null) {
      return failure("save-profile.shape", `record ${index}: an update needs exactly record_id, a SHA-256 expected_sha256 and non-empty Markdown`);
    }
    return { ok: true, value: { operation: "update", record_id: recordId, expected_sha256: value.expected_sha256, markdown } };
  }
  return failure("save-profile.shape", `record ${index}: the operation must be create or update`);
}

/** `observer-save/v1`, decoded as the reference does: object, then schema string, then shape, then each record. */
export function decodePreparedSave(value: unknown): Decoded<PreparedSave, SaveProfileCode> {
  if (!isRecord(value)) return failure("save-profile.object", "a prepared save must be an object");
  if (value.observer_save !== OBSERVER_SAVE_SCHEMA) {
    return failure(typeof value.observer_save === "string" ? "save-profile.unsupported" : "save-profile.shape", `the prepared save schema is not ${OBSERVER_SAVE_SCHEMA}`);
  }
  const proposalId = boundedId(value.proposal_id);
  const notebookId = prefixedUuid(value.notebook_id, "notebook-");
  const episodeLanguage = language(value.episode_language);
  const root = typeof value.root === "string" && path.isAbsolute(value.root) ? value.root : null;
  if (
    !hasKeysExactly(value, ["observer_save", "proposal_id", "notebook_id", "root", "episode_language", "records"]) ||
    proposalId === null ||
    notebookId === null ||
    root === null ||
    episodeLanguage === null ||
    !Array.isArray(value.records)
  ) {
    return failure("save-profile.shape", `the prepared save does not have the ${OBSERVER_SAVE_SCHEMA} shape`);
  }
  const records: PreparedRecord[] = [];
  for (const [index, item] of (value.records as readonly unknown[]).entries()) {
    const record = decodeRecord(item, index);
    if (!record.ok) return record;
    records.push(record.value);
  }
  return { ok: true, value: { observer_save: OBSERVER_SAVE_SCHEMA, proposal_id: proposalId, notebook_id: notebookId, root, episode_language: episodeLanguage, records } };
}

export type HandoffCode = "pi-entry.handoff.shape" | "pi-entry.handoff.unsupported";

export function decodePreparedSaveHandoff(value: unknown): Decoded<PreparedSaveHandoff, HandoffCode> {
  if (!isRecord(value)) return failure("pi-entry.handoff.shape", "a prepared save handoff must be an object");
  if (value.protocol !== PREPARED_SAVE_PROTOCOL) {
    return failure(typeof value.protocol === "string" ? "pi-entry.handoff.unsupported" : "pi-entry.handoff.shape", `the handoff protocol is not ${PREPARED_SAVE_PROTOCOL}`);
  }
  const summary = trimmedText(value.summary, SUMMARY_LIMIT);
  if (!hasKeysExactly(value, ["protocol", "summary", "prepared"]) || summary === null) {
    return failure("pi-entry.handoff.shape", "a handoff needs exactly one bounded summary and one prepared save");
  }
  const prepared = decodePreparedSave(value.prepared);
  // Whatever is wrong inside the prepared save, the entry is a malformed handoff.
  if (!prepared.ok) return failure("pi-entry.handoff.shape", `${prepared.code}: ${prepared.message}`);
  return { ok: true, value: { protocol: PREPARED_SAVE_PROTOCOL, summary, prepared: prepared.value } };
}

export type AttemptCode = "pi-entry.attempt.shape" | "pi-entry.attempt.unsupported";

export function decodeApprovedSaveAttempt(value: unknown): Decoded<ApprovedSaveAttempt, AttemptCode> {
  if (!isRecord(value)) return failure("pi-entry.attempt.shape", "an approved save attempt must be an object");
  if (value.protocol !== SAVE_ATTEMPT_PROTOCOL) {
    return failure(typeof value.protocol === "string" ? "pi-entry.attempt.unsupported" : "pi-entry.attempt.shape", `the attempt protocol is not ${SAVE_ATTEMPT_PROTOCOL}`);
  }
  const attemptId = boundedId(value.attemptId);
  const proposalId = boundedId(value.proposalId);
  if (!hasKeysExactly(value, ["protocol", "kind", "attemptId", "proposalId", "preparedDigest"]) || value.kind !== "approved" || attemptId === null || proposalId === null || !isSha256Hex(value.preparedDigest)) {
    return failure("pi-entry.attempt.shape", "an approved attempt needs its ids and the prepared handoff's SHA-256");
  }
  return { ok: true, value: { protocol: SAVE_ATTEMPT_PROTOCOL, kind: "approved", attemptId, proposalId, preparedDigest: value.preparedDigest } };
}

/** The handoff as it is persisted: keys in the decoder's fixed order (the update's expected hash before its Markdown). */
export function handoffData(handoff: PreparedSaveHandoff): PreparedSaveHandoff {
  const prepared = handoff.prepared;
  return {
    protocol: PREPARED_SAVE_PROTOCOL,
    summary: handoff.summary,
    prepared: {
      observer_save: OBSERVER_SAVE_SCHEMA,
      proposal_id: prepared.proposal_id,
      notebook_id: prepared.notebook_id,
      root: prepared.root,
      episode_language: prepared.episode_language,
      records: prepared.records.map((record) =>
        record.operation === "create"
          ? { operation: "create", record_id: record.record_id, markdown: record.markdown }
          : { operation: "update", record_id: record.record_id, expected_sha256: record.expected_sha256, markdown: record.markdown },
      ),
    },
  };
}

/** `preparedDigest`: SHA-256 of the decoded handoff's JSON text in that fixed key order (so input key order never matters). */
export function preparedSaveDigest(handoff: PreparedSaveHandoff): string {
  return sha256OfText(JSON.stringify(handoffData(handoff)));
}

export function attemptData(attempt: ApprovedSaveAttempt): ApprovedSaveAttempt {
  return { protocol: SAVE_ATTEMPT_PROTOCOL, kind: "approved", attemptId: attempt.attemptId, proposalId: attempt.proposalId, preparedDigest: attempt.preparedDigest };
}

const nonEmpty = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

/** Distinct non-empty trimmed strings, returned sorted; input order does not matter. */
function sourceReadIds(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const items = value as readonly unknown[];
  if (items.some((item) => typeof item !== "string" || item.length === 0 || item.trim() !== item)) return null;
  const sorted = sortedCopy(items as readonly string[]);
  return new Set(sorted).size === sorted.length ? sorted : null;
}

const SAVE_REQUEST_KEYS = ["protocol", "kind", "request_id", "proposal_id", "request_digest", "episode_id", "notebook_id", "root", "episode_language", "memo_revision_id", "source_read_ids"];

export function decodeSaveRequest(value: unknown): Decoded<SaveRequest, "save-request.shape"> {
  if (!isRecord(value)) return failure("save-request.shape", "a save request must be an object");
  if (!hasKeysExactly(value, SAVE_REQUEST_KEYS) || value.protocol !== SAVE_REQUEST_PROTOCOL || value.kind !== "save-requested") {
    return failure("save-request.shape", `a save request needs exactly the ${SAVE_REQUEST_PROTOCOL} fields`);
  }
  const requestId = prefixedUuid(value.request_id, "save-request-");
  const proposalId = prefixedUuid(value.proposal_id, "proposal-");
  const episodeId = nonEmpty(value.episode_id);
  const notebookId = nonEmpty(value.notebook_id);
  const root = typeof value.root === "string" && path.isAbsolute(value.root) ? value.root : null;
  const episodeLanguage = language(value.episode_language);
  const memoRevisionId = value.memo_revision_id === null ? null : nonEmpty(value.memo_revision_id);
  const reads = sourceReadIds(value.source_read_ids);
  if (
    requestId === null ||
    proposalId === null ||
    !isSha256Hex(value.request_digest) ||
    episodeId === null ||
    notebookId === null ||
    root === null ||
    episodeLanguage === null ||
    (value.memo_revision_id !== null && memoRevisionId === null) ||
    reads === null
  ) {
    return failure("save-request.shape", "the save request has invalid values");
  }
  return { ok: true, value: { requestId, proposalId, requestDigest: value.request_digest, episodeId, notebookId, root, episodeLanguage, memoRevisionId, sourceReadIds: reads } };
}

export function saveRequestData(request: SaveRequest): Record<string, unknown> {
  return {
    protocol: SAVE_REQUEST_PROTOCOL,
    kind: "save-requested",
    request_id: request.requestId,
    proposal_id: request.proposalId,
    request_digest: request.requestDigest,
    episode_id: request.episodeId,
    notebook_id: request.notebookId,
    root: request.root,
    episode_language: request.episodeLanguage,
    memo_revision_id: request.memoRevisionId,
    source_read_ids: [...request.sourceReadIds],
  };
}
