// Crash recovery of an interrupted publication (observer.md §6.3 "Crash recovery", extended): run
// before every publication, by `docket notebook recover`, and by the backend when the Observer view
// first asks for a notebook's status. It always ends with the notebook complete in its old state or
// complete in its new state, or changes nothing and says why:
//
// - The lock belongs to a live process, another machine or another tool (a journal without
//   Docket's owner file: the reference Observer may be publishing right now): nothing is touched.
// - No journal: nothing was published (the journal is written, whole, before the first target is
//   touched), so the lock is removed. An empty lock folder, or one holding only a half-written
//   owner file, is a publisher that died before it owned anything; it is removed with rmdir, which
//   fails if a live publisher has put its owner file there meanwhile.
// - A journal: each record is judged by its target's bytes. All approved bytes → settled (receipt,
//   no republish). All before bytes → cleared. A mix → **rolled back**: each published record gets
//   its hash-verified before image back (a create is unlinked), in reverse plan order. Only if a
//   before image is missing or fails its hash is the batch **rolled forward** instead, which needs
//   every unpublished record's staged image to verify. Rolling back is preferred because it is what
//   the publisher itself does on any failure (§6.3 "On failure"): the notebook returns to the
//   state the drift check verified, the read-back of the new state never ran, and the proposal stays
//   pending, so publishing it again re-checks it against the notebook as it is then.
// - A target that holds neither its before nor its approved bytes was changed by someone else:
//   writing anything would destroy their bytes, so the state is reported (`mixed`, one diagnostic
//   per record) and nothing is written. That is the only way recovery leaves a lock in place.
//
// Recovery is itself crash-safe: it takes the lock over (its own owner file) before it changes a
// record, every change is atomic and hash-checked, and a recovery killed at any step is finished by
// the next one. It never throws: what it cannot read or write is reported as `unreadable`.
import { countOf } from "../plural";
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../ledger/canonicalJson";
import { UnsafePathError } from "../workspace/containedFs";
import { compareNotebookText } from "./referenceOrder";
import { stepsFromEnvironment, type StepCounter } from "./crashSeam";
import { notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import { MANIFEST_FILENAME, OBSERVER_DIRECTORY, parseManifestBytes } from "./manifest";
import { transactionLayoutProblem } from "./notebookStore";
import { NotebookWriter } from "./notebookWriter";
import { OBSERVER_SAVE_RECEIPT_SCHEMA, type SaveReceipt } from "./proposal";
import { readProposal, writeReceipt } from "./proposalStore";
import {
  activeTransactionDirectory,
  beforeImage,
  Journal,
  JOURNAL_FILE,
  placeImage,
  publicationTemporaryTarget,
  recordTarget,
  removeLock,
  stagedImage,
  sweepRemovedLocks,
  TRANSACTION_SCHEMA,
  type JournalRecord,
} from "./transactionFiles";
import { isOwnerTemporary, liveOwner, OWNER_FILE, readOwner, releaseLock, takeOverLock } from "./transactionOwner";

export { OWNER_FILE, TRANSACTION_SCHEMA };

export type RecordState = "before" | "final" | "other";

export type RecoveryOutcome =
  | { readonly status: "clean" }
  | { readonly status: "busy"; readonly message: string }
  | { readonly status: "settled"; readonly message: string; readonly receipt: SaveReceipt; readonly completed: number }
  | { readonly status: "not-published"; readonly message: string; readonly proposalId: string | null; readonly restored: number }
  | {
      readonly status: "mixed";
      readonly message: string;
      readonly proposalId: string;
      readonly records: readonly { readonly recordId: string; readonly path: string; readonly state: RecordState }[];
      readonly diagnostics: readonly NotebookDiagnostic[];
    }
  | { readonly status: "unreadable"; readonly message: string };

export interface RecoveryInput {
  /** Canonical notebook root. */
  readonly root: string;
  /** Where a settled receipt is recorded (only for proposals stored in this workspace); null = report only. */
  readonly workspace: string | null;
  readonly receiptId: () => string;
  /** Injectable for tests; defaults to signal 0. */
  readonly isAlive?: (pid: number) => boolean;
  /** Every disk change is a step; defaults to the crash seam of the environment (crashSeam.ts). */
  readonly steps?: StepCounter;
}

/** What recovery would do now, without doing it: the plan below, and a sentence for status reports. */
export type RecoveryAction = "none" | "wait" | "clear" | "settle" | "roll-back" | "roll-forward" | "blocked";

interface JudgedRecord {
  readonly record: JournalRecord;
  readonly index: number;
  readonly target: string;
  readonly final: boolean;
  readonly before: boolean;
  readonly state: RecordState;
}

type Assessment =
  | { readonly kind: "clean" }
  /** `live`: a process of this machine works on it; `other`: another tool's lock, or another machine's. */
  | { readonly kind: "busy"; readonly holder: "live" | "other"; readonly message: string }
  | { readonly kind: "unreadable"; readonly message: string }
  /** A publisher died before its owner file was in place: only these owner temporaries (if any) are inside. */
  | { readonly kind: "abandoned"; readonly temporaries: readonly string[] }
  /** The owner is gone and no journal was written: nothing was published. */
  | { readonly kind: "unstaged" }
  | {
      readonly kind: "journal";
      readonly journal: Journal;
      readonly records: readonly JudgedRecord[];
      readonly plan: "settle" | "clear" | "roll-back" | "roll-forward" | "stuck";
      /** Why neither direction can be taken, when the plan is `stuck` without foreign bytes. */
      readonly blocker: string | null;
    };

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** SHA-256 of a regular file's bytes; null when absent; "not-regular" for a link, a folder or anything else. */
function hashOf(writer: NotebookWriter, file: string): string | null | "not-regular" {
  try {
    const bytes = writer.read(file);
    return bytes === null ? null : sha256Hex(bytes);
  } catch (error) {
    if (error instanceof UnsafePathError) return "not-regular";
    if (errnoOf(error) === "EISDIR") return "not-regular";
    throw error;
  }
}

/**
 * Each state is judged on its own: an update whose approved bytes equal its before bytes is both
 * published and not, so it never makes a batch look half-published.
 */
function judge(writer: NotebookWriter, record: JournalRecord, index: number): JudgedRecord {
  const target = recordTarget(writer.root, record.path);
  const hash = hashOf(writer, target);
  const final = hash === record.next_sha256;
  const before = record.operation === "create" ? hash === null : hash === record.before_sha256;
  return { record, index, target, final, before, state: final ? "final" : before ? "before" : "other" };
}

function imageVerifies(writer: NotebookWriter, image: string, sha256: string | null): boolean {
  if (sha256 === null) return false;
  try {
    return hashOf(writer, image) === sha256;
  } catch {
    return false;
  }
}

function planFor(writer: NotebookWriter, active: string, records: readonly JudgedRecord[]): { plan: "settle" | "clear" | "roll-back" | "roll-forward" | "stuck"; blocker: string | null } {
  if (records.every((item) => item.final)) return { plan: "settle", blocker: null };
  if (records.every((item) => item.before)) return { plan: "clear", blocker: null };
  if (records.some((item) => item.state === "other")) return { plan: "stuck", blocker: null };
  // Every record is before or final: a crash between two of the publisher's atomic steps.
  const rollBackBlocker = records.find((item) => item.final && !item.before && item.record.operation === "update" && !imageVerifies(writer, beforeImage(active, item.index), item.record.before_sha256));
  if (rollBackBlocker === undefined) return { plan: "roll-back", blocker: null };
  const forwardBlocker = records.find((item) => !item.final && !imageVerifies(writer, stagedImage(active, item.index), item.record.next_sha256));
  if (forwardBlocker === undefined) return { plan: "roll-forward", blocker: null };
  return {
    plan: "stuck",
    blocker: `the before image of ${rollBackBlocker.record.path} and the staged image of ${forwardBlocker.record.path} are missing or damaged, so the batch can be neither rolled back nor completed`,
  };
}

function readJournal(writer: NotebookWriter, active: string): { readonly state: "missing" } | { readonly state: "bad"; readonly message: string } | { readonly state: "ok"; readonly journal: Journal } {
  let bytes: Buffer | null;
  try {
    bytes = writer.read(path.join(active, JOURNAL_FILE));
  } catch (error) {
    return { state: "bad", message: messageOf(error) };
  }
  if (bytes === null) return { state: "missing" };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { state: "bad", message: `${active}/${JOURNAL_FILE} is not UTF-8 JSON` };
  }
  const parsed = Journal.safeParse(value);
  return parsed.success ? { state: "ok", journal: parsed.data } : { state: "bad", message: `${active}/${JOURNAL_FILE} is not an ${TRANSACTION_SCHEMA} journal` };
}

function assess(writer: NotebookWriter, isAlive: ((pid: number) => boolean) | undefined): Assessment {
  const root = writer.root;
  const active = activeTransactionDirectory(root);
  try {
    fs.lstatSync(active);
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return { kind: "clean" };
    return { kind: "unreadable", message: `cannot inspect ${active}: ${messageOf(error)}` };
  }
  const layout = transactionLayoutProblem(root);
  if (layout !== null) return { kind: "unreadable", message: `${layout}; recovery does not follow links out of the notebook, nothing was changed` };
  let entries: string[];
  try {
    const stat = fs.lstatSync(active);
    if (!stat.isDirectory()) return { kind: "unreadable", message: `${active} is not a folder; nothing was changed` };
    entries = fs.readdirSync(active);
  } catch (error) {
    return { kind: "unreadable", message: `cannot list ${active}: ${messageOf(error)}` };
  }
  const owner = readOwner(writer, active);
  const journal = readJournal(writer, active);
  if (owner.state === "missing") {
    // A journal without Docket's owner file is another tool's (the reference Observer's), which may
    // be publishing right now: its lock is never removed or settled from here.
    if (journal.state !== "missing") return { kind: "busy", holder: "other", message: `${active} holds another tool's publication (no ${OWNER_FILE}); if no other program is saving to this notebook, finish or remove it there` };
    if (entries.every(isOwnerTemporary)) return { kind: "abandoned", temporaries: entries };
    return { kind: "busy", holder: "other", message: `${active} holds another tool's publication in progress (staging without ${OWNER_FILE}); if no other program is saving to this notebook, remove the folder` };
  }
  if (owner.state === "bad") return { kind: "unreadable", message: `${owner.message}; if no publication is running, inspect and remove ${active}` };
  const live = liveOwner(owner.owner, isAlive);
  if (live !== null) return { kind: "busy", holder: live.where === "here" ? "live" : "other", message: live.message };
  if (journal.state === "missing") return { kind: "unstaged" };
  if (journal.state === "bad") return { kind: "unreadable", message: `the publication journal cannot be used (${journal.message}); nothing was changed` };
  let records: JudgedRecord[];
  try {
    records = journal.journal.records.map((record, index) => judge(writer, record, index));
  } catch (error) {
    return { kind: "unreadable", message: `cannot read a record of the interrupted publication: ${messageOf(error)}` };
  }
  return { kind: "journal", journal: journal.journal, records, ...planFor(writer, active, records) };
}

function progress(records: readonly JudgedRecord[]): string {
  const published = records.filter((item) => item.final && !item.before).length;
  return `${published} of ${countOf(records.length, "record")} published`;
}

/** What recovery would do to this notebook now, in a word and a sentence; reads only. */
export function describeRecovery(root: string, isAlive?: (pid: number) => boolean): { readonly action: RecoveryAction; readonly message: string } {
  let assessment: Assessment;
  try {
    assessment = assess(new NotebookWriter(root, { step: () => undefined, count: 0 }), isAlive);
  } catch (error) {
    return { action: "blocked", message: `the interrupted publication cannot be inspected: ${messageOf(error)}` };
  }
  switch (assessment.kind) {
    case "clean":
      return { action: "none", message: "no publication is in progress" };
    case "busy":
      return assessment.holder === "live" ? { action: "wait", message: `${assessment.message}; wait for it to finish` } : { action: "blocked", message: assessment.message };
    case "unreadable":
      return { action: "blocked", message: assessment.message };
    case "abandoned":
    case "unstaged":
      return { action: "clear", message: "a publication was interrupted before it changed any record; recovery removes its lock" };
    case "journal": {
      const about = `the interrupted publication of ${assessment.journal.proposal_id} (${progress(assessment.records)})`;
      switch (assessment.plan) {
        case "settle":
          return { action: "settle", message: `${about} had completed; recovery settles it without writing a record` };
        case "clear":
          return { action: "clear", message: `${about} had not changed the notebook; recovery removes its lock` };
        case "roll-back":
          return { action: "roll-back", message: `${about}: recovery restores every record to its bytes before the publication` };
        case "roll-forward":
          return { action: "roll-forward", message: `${about}: recovery completes it from the verified staged images` };
        case "stuck":
          return { action: "blocked", message: `${about}: ${assessment.blocker ?? "some record holds bytes that are neither its before nor its approved bytes (someone else changed it)"}; recovery will not overwrite them` };
      }
    }
  }
}

/** Settles, clears, rolls back or completes an interrupted publication; see the file comment. Never throws. */
export function recoverNotebook(input: RecoveryInput): RecoveryOutcome {
  const writer = new NotebookWriter(input.root, input.steps ?? stepsFromEnvironment("recover"));
  let assessment: Assessment;
  try {
    assessment = assess(writer, input.isAlive);
  } catch (error) {
    return { status: "unreadable", message: `recovery stopped, nothing was changed: ${messageOf(error)}` };
  }
  const active = activeTransactionDirectory(input.root);
  try {
    switch (assessment.kind) {
      case "clean":
        sweepLeftovers(writer);
        return { status: "clean" };
      case "busy":
        return { status: "busy", message: assessment.message };
      case "unreadable":
        return { status: "unreadable", message: assessment.message };
      case "abandoned":
        return clearAbandoned(writer, active, assessment.temporaries);
      case "unstaged":
        removeLock(writer, active);
        sweepLeftovers(writer);
        return { status: "not-published", message: "an interrupted publication had not published anything; its staging folder was removed", proposalId: null, restored: 0 };
      case "journal":
        return recoverJournal(input, writer, active, assessment);
    }
  } catch (error) {
    return { status: "unreadable", message: `recovery stopped, nothing more was changed: ${messageOf(error)}` };
  }
}

/** Deletes what interrupted lock removals left behind; garbage nothing reads, so a failure here changes no outcome. */
function sweepLeftovers(writer: NotebookWriter): void {
  try {
    sweepRemovedLocks(writer, writer.root);
  } catch {
    // Tried again by the next recovery.
  }
}

function clearAbandoned(writer: NotebookWriter, active: string, temporaries: readonly string[]): RecoveryOutcome {
  for (const name of temporaries) {
    try {
      writer.unlink(path.join(active, name));
    } catch (error) {
      if (errnoOf(error) !== "ENOENT") throw error;
    }
  }
  try {
    writer.removeEmptyDirectory(active);
  } catch (error) {
    // A publisher put its owner file there meanwhile: the lock is live after all.
    if (errnoOf(error) === "ENOTEMPTY" || errnoOf(error) === "EEXIST") return { status: "busy", message: `a publication started on this notebook while recovery looked at it (${active})` };
    if (errnoOf(error) !== "ENOENT") throw error;
  }
  sweepLeftovers(writer);
  return { status: "not-published", message: "an interrupted publication had not started staging; its empty lock folder was removed", proposalId: null, restored: 0 };
}

function mixedOutcome(assessment: Extract<Assessment, { kind: "journal" }>): RecoveryOutcome {
  const { journal, records } = assessment;
  const diagnostics = records
    .filter((item) => !item.final)
    .map((item) =>
      notebookDiagnostic({
        phase: "record",
        code: "publication-transaction.mixed",
        path: item.record.path,
        recordId: item.record.record_id,
        message:
          item.state === "before"
            ? `${item.record.path} still holds its bytes from before the publication while other records were published`
            : `${item.record.path} holds neither its before nor its approved bytes`,
      }),
    );
  const why = assessment.blocker ?? "a record holds bytes that are neither its before nor its approved bytes, so someone else changed it";
  return {
    status: "mixed",
    message: `the interrupted publication of ${journal.proposal_id} left the notebook partly published (${records.filter((item) => item.state === "final").length} of ${records.length} records): ${why}; nothing was changed, recovery required`,
    proposalId: journal.proposal_id,
    records: records.map((item) => ({ recordId: item.record.record_id, path: item.record.path, state: item.state })),
    diagnostics,
  };
}

function recoverJournal(input: RecoveryInput, writer: NotebookWriter, active: string, assessment: Extract<Assessment, { kind: "journal" }>): RecoveryOutcome {
  const { journal, records, plan } = assessment;
  if (plan === "stuck") return mixedOutcome(assessment);
  let claimed = false;
  let changed = 0;
  let receipt: SaveReceipt | null = null;
  try {
    if (plan === "roll-back" || plan === "roll-forward") {
      // From here on this process owns the transaction: others see a live owner, not a crash.
      takeOverLock(writer, active);
      claimed = true;
      changed = plan === "roll-back" ? rollBack(writer, active, records) : rollForward(writer, active, records);
    }
    if (plan === "settle" || plan === "roll-forward") receipt = settleReceipt(input, writer, journal);
    removeStrayTemporaries(writer, journal);
    removeLock(writer, active);
  } catch (error) {
    if (claimed) {
      try {
        releaseLock(writer, active);
      } catch {
        // Our pid is gone once we exit; the next recovery takes over either way.
      }
    }
    return { status: "unreadable", message: `recovery stopped before it was done (${messageOf(error)}); nothing more was changed, recovery required` };
  }
  sweepLeftovers(writer);
  if (receipt !== null) {
    const how = plan === "settle" ? "had completed; it was settled without publishing again" : `was completed from its verified staged images (${countOf(changed, "record")})`;
    return { status: "settled", message: `the interrupted publication of ${journal.proposal_id} ${how}`, receipt, completed: changed };
  }
  const how = plan === "clear" ? "had not changed the notebook; its staging folder was removed" : `was rolled back: ${countOf(changed, "record")} restored to their bytes before the publication`;
  return { status: "not-published", message: `the interrupted publication of ${journal.proposal_id} ${how}`, proposalId: journal.proposal_id, restored: changed };
}

/** Reverse plan order; each published target must still hold the approved bytes, and gets its verified before image back. */
function rollBack(writer: NotebookWriter, active: string, records: readonly JudgedRecord[]): number {
  let restored = 0;
  for (const item of [...records].reverse()) {
    if (!item.final || item.before) continue;
    // Judged again right before the change: only bytes this publication wrote are ever replaced.
    if (hashOf(writer, item.target) !== item.record.next_sha256) throw new Error(`${item.record.path} changed during recovery`);
    if (item.record.operation === "create") {
      writer.unlink(item.target);
    } else {
      const image = beforeImage(active, item.index);
      if (!imageVerifies(writer, image, item.record.before_sha256)) throw new Error(`the before image of ${item.record.path} does not match its hash`);
      placeImage(writer, image, item.target, "replace");
    }
    restored += 1;
  }
  return restored;
}

/** Plan order; each unpublished target must still hold its before bytes, and gets its verified staged image. */
function rollForward(writer: NotebookWriter, active: string, records: readonly JudgedRecord[]): number {
  let completed = 0;
  for (const item of records) {
    if (item.final) continue;
    const now = hashOf(writer, item.target);
    if (item.record.operation === "create" ? now !== null : now !== item.record.before_sha256) throw new Error(`${item.record.path} changed during recovery`);
    const image = stagedImage(active, item.index);
    if (!imageVerifies(writer, image, item.record.next_sha256)) throw new Error(`the staged image of ${item.record.path} does not match its hash`);
    placeImage(writer, image, item.target, item.record.operation === "create" ? "create" : "replace");
    completed += 1;
  }
  return completed;
}

function settleReceipt(input: RecoveryInput, writer: NotebookWriter, journal: Journal): SaveReceipt {
  const manifestPath = path.join(input.root, OBSERVER_DIRECTORY, MANIFEST_FILENAME);
  const bytes = writer.read(manifestPath);
  if (bytes === null) throw new Error(`the notebook manifest ${manifestPath} is missing`);
  const manifest = parseManifestBytes(bytes, manifestPath);
  if (!manifest.ok) throw new Error(`the notebook manifest cannot be read: ${manifest.issue.message}`);
  const receipt: SaveReceipt = {
    observer_receipt: OBSERVER_SAVE_RECEIPT_SCHEMA,
    receipt_id: input.receiptId(),
    proposal_id: journal.proposal_id,
    notebook_id: manifest.value.notebook_id,
    records: journal.records
      .map((record) => ({ operation: record.operation, record_id: record.record_id, path: record.path, sha256: record.next_sha256 }))
      .sort((left, right) => compareNotebookText(left.record_id, right.record_id)),
  };
  if (input.workspace === null || readProposal(input.workspace, journal.proposal_id).status !== "found") return receipt;
  writer.checkpoint(`write the receipt of ${journal.proposal_id}`);
  return writeReceipt(input.workspace, receipt);
}

/**
 * A crash between writing a publication temporary (`.<name>.<uuid>.tmp`, beside its target: the
 * reference's publisher, or Docket's when records/ is on another file system) and linking or
 * renaming it leaves a stray file that would make `records/` unreadable; it never is a record.
 */
function removeStrayTemporaries(writer: NotebookWriter, journal: Journal): void {
  const targets = new Set(journal.records.map((record) => path.posix.basename(record.path)));
  const recordsDir = path.join(writer.root, "records");
  for (const name of fs.readdirSync(recordsDir)) {
    const target = publicationTemporaryTarget(name);
    if (target !== null && targets.has(target)) writer.unlink(path.join(recordsDir, name));
  }
}
