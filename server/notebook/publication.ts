// The publication transaction (observer.md §6.3–§6.4): an approved proposal becomes notebook bytes
// all together or not at all. Acquire `.observer/transactions/active` (the lock, shared with the
// reference Observer) and own it (Docket's owner file), stage every next image and update
// before-image plus the journal, re-check the whole inventory against the snapshot the proposal was
// made from, publish in plan order from the staged images (create = hard link, so an existing file
// is never replaced; update = rename; see transactionFiles.ts), read the notebook back fresh, remove
// the lock, then record the receipt. Any failure after the first write rolls back in reverse order
// from hash-verified images and refuses to overwrite bytes it did not write; what cannot be made
// whole keeps the lock, released to recovery (recovery.ts). A crash at any step is recovery's to
// finish: every write is atomic, goes through notebookWriter.ts and is a step of the crash seam.
//
// Synchronous on purpose: the backend's ports are synchronous, and a single call stack means no
// other request of this process can interleave with a half-published notebook.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { canonicalize, sha256Hex } from "../ledger/canonicalJson";
import { stepsFromEnvironment, type StepCounter } from "./crashSeam";
import type { NotebookDiagnostic } from "./diagnostics";
import type { NotebookIssueCode } from "./manifest";
import { openNotebook, transactionLayoutProblem } from "./notebookStore";
import { NotebookWriter } from "./notebookWriter";
import { fingerprintInventory, notebookView, preflight, sameFingerprints, type NotebookView } from "./preflight";
import { OBSERVER_SAVE_RECEIPT_SCHEMA, type NotebookProposal, type PlannedRecord, type ProposalPlan, type SaveReceipt } from "./proposal";
import { readProposal, readReceipt, writeReceipt } from "./proposalStore";
import { recoverNotebook } from "./recovery";
import {
  activeTransactionDirectory,
  beforeImage,
  JOURNAL_FILE,
  journalText,
  placeImage,
  recordTarget,
  removeLock,
  stagedImage,
  TRANSACTION_SCHEMA,
  transactionsDirectory,
  type Journal,
} from "./transactionFiles";
import { claimNewLock, releaseLock } from "./transactionOwner";

export type FaultPoint = "after-stage" | "before-drift-check" | "before-publish" | "mid-publish" | "after-publish" | "before-readback";

/**
 * Test hook: when the transaction reaches `at`, `run` (if any) is called and then the step fails as
 * if the disk had. `before-publish`/`after-publish` fire for every record; `mid-publish` fires once,
 * after the first record of a batch of two or more has been published.
 */
export interface PublicationFault {
  readonly at: FaultPoint;
  readonly run?: (context: { readonly recordId?: string; readonly index?: number }) => void;
}

/** Injectable so tests are deterministic; production uses random UUIDs. */
export interface PublicationIds {
  readonly transactionId: () => string;
  readonly receiptId: () => string;
}

export const randomPublicationIds: PublicationIds = {
  transactionId: () => `transaction-${randomUUID()}`,
  receiptId: () => `receipt-${randomUUID()}`,
};

export type TransactionReason =
  | "publication-transaction.active"
  | "publication-transaction.stage"
  | "publication-transaction.drift"
  | "publication-transaction.publish"
  | "publication-transaction.readback"
  | "publication-transaction.rollback"
  | "publication-transaction.cleanup";

export type PublicationCode =
  | "save.busy"
  | "save.persistence"
  | "save.concurrent-change"
  | "save.invalid-plan"
  | "save.target-mismatch"
  | "save.lifecycle"
  | "save.declined"
  | "save-profile.object"
  | "save-profile.shape"
  | "save-profile.unsupported"
  | "save-profile.digest"
  | NotebookIssueCode;

export interface PublicationIssue {
  readonly code: PublicationCode;
  /** The finer reference code behind `code` (e.g. `publication-transaction.rollback`), when there is one. */
  readonly reason: string | null;
  readonly message: string;
  /** True when the notebook may not be whole: the lock stays and a person must look before the next save. */
  readonly recoveryRequired: boolean;
  readonly recordId: string | null;
  readonly diagnostics: readonly NotebookDiagnostic[];
  /** What to do next, in one sentence. */
  readonly advice: string;
}

export type PublicationResult =
  | { readonly ok: true; readonly receipt: SaveReceipt; readonly settled: "published" | "already-published" | "recovered" }
  | { readonly ok: false; readonly issue: PublicationIssue };

const ADVICE: Readonly<Record<string, string>> = {
  "save.busy": "Another publication holds .observer/transactions/active or an interrupted one needs recovery: run the publication again after it ends, or inspect that folder.",
  "save.persistence": "The notebook was restored to its bytes before the publication; fix the disk problem and publish again.",
  "save.concurrent-change": "The notebook changed since the proposal was made: discard it and propose again from the current files.",
  "save.invalid-plan": "Fix the proposed records (see the diagnostics) and propose again.",
  "save.target-mismatch": "The proposal was made for another notebook: propose again for this one.",
  "save.lifecycle": "Nothing to publish: the proposal is unknown or already settled.",
  "save.declined": "Nothing was written: approve all records of the proposal to publish it.",
  recovery:
    "Recovery required: run docket notebook status <notebook> to see what holds the lock. If another program is publishing, wait for it. If a record holds bytes that are neither its before nor its approved bytes (someone else changed it), inspect <notebook>/.observer/transactions/active (transaction.json lists each record's before and next hash; before/ and staged/ hold the images), make every listed record either its before or its next bytes, then run docket notebook recover <notebook>.",
  notebook: "The notebook cannot be opened as it is; run docket notebook status for the details.",
};

function adviceFor(code: string, recoveryRequired: boolean): string {
  if (recoveryRequired) return ADVICE["recovery"] as string;
  return ADVICE[code] ?? (code.startsWith("notebook.") ? (ADVICE["notebook"] as string) : "Propose again.");
}

export function publicationIssue(
  code: PublicationCode,
  message: string,
  extra: { reason?: string | null; recoveryRequired?: boolean; recordId?: string | null; diagnostics?: readonly NotebookDiagnostic[] } = {},
): PublicationIssue {
  const recoveryRequired = extra.recoveryRequired ?? false;
  return { code, reason: extra.reason ?? null, message, recoveryRequired, recordId: extra.recordId ?? null, diagnostics: extra.diagnostics ?? [], advice: adviceFor(code, recoveryRequired) };
}

const SAVE_CODE: Readonly<Record<TransactionReason, PublicationCode>> = {
  "publication-transaction.active": "save.busy",
  "publication-transaction.stage": "save.persistence",
  "publication-transaction.drift": "save.concurrent-change",
  "publication-transaction.publish": "save.persistence",
  "publication-transaction.readback": "save.persistence",
  "publication-transaction.rollback": "save.persistence",
  "publication-transaction.cleanup": "save.persistence",
};

function transactionIssue(reason: TransactionReason, error: unknown, recoveryRequired: boolean, recordId: string | null): PublicationIssue {
  const message = error instanceof Error ? error.message : String(error);
  return publicationIssue(SAVE_CODE[reason], message, { reason, recoveryRequired, recordId });
}

export { activeTransactionDirectory };

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The current inventory fingerprint, or null when the notebook no longer opens as a valid notebook. */
function currentFingerprint(root: string): ReturnType<typeof fingerprintInventory> | null {
  const opened = openNotebook(root);
  return opened.ok ? fingerprintInventory(opened.value.inventory) : null;
}

class InjectedFault extends Error {}

function hit(fault: PublicationFault | undefined, at: FaultPoint, context: { recordId?: string; index?: number } = {}): void {
  if (fault === undefined || fault.at !== at) return;
  fault.run?.(context);
  throw new InjectedFault(`injected fault at ${at}${context.recordId === undefined ? "" : ` (${context.recordId})`}`);
}

function journalFor(transactionId: string, proposalId: string, plan: ProposalPlan): Journal {
  return {
    observer_transaction: TRANSACTION_SCHEMA,
    transaction_id: transactionId,
    proposal_id: proposalId,
    records: plan.records.map((entry) => ({ operation: entry.operation, record_id: entry.record_id, path: entry.path, before_sha256: entry.before_sha256, next_sha256: entry.next_sha256 })),
  };
}

interface Staged {
  readonly entry: PlannedRecord;
  readonly index: number;
  readonly target: string;
}

export interface TransactionInput {
  readonly view: NotebookView;
  readonly proposalId: string;
  readonly plan: ProposalPlan;
  /** Final Markdown per record id. */
  readonly next: ReadonlyMap<string, string>;
  readonly transactionId: string;
  readonly fault?: PublicationFault;
  /** Removes the active folder; replaceable so tests can make cleanup fail. */
  readonly removeTree?: (directory: string) => void;
  /** Every disk change is a step; defaults to the crash seam of the environment (crashSeam.ts). */
  readonly steps?: StepCounter;
}

/** Runs §6.3 steps 2–7 against a plan whose preflight just passed. Returns null on success. */
export function runTransaction(input: TransactionInput): PublicationIssue | null {
  const root = input.view.root;
  const active = activeTransactionDirectory(root);
  const writer = new NotebookWriter(root, input.steps ?? stepsFromEnvironment("publish"));
  const removeActive = (): void => (input.removeTree === undefined ? removeLock(writer, active) : input.removeTree(active));
  let reason: TransactionReason = "publication-transaction.stage";
  let recordId: string | null = null;
  let owned = false;
  const published: Staged[] = [];
  const layout = transactionLayoutProblem(root);
  if (layout !== null) return publicationIssue("notebook.layout-invalid", `${layout}; nothing was written`);
  try {
    if (!fs.existsSync(transactionsDirectory(root))) {
      try {
        writer.makeDirectory(transactionsDirectory(root));
      } catch (error) {
        if (errnoOf(error) !== "EEXIST") throw error;
      }
    }
    // The lock: the folder (what the reference Observer checks), then Docket's owner file in it.
    try {
      writer.makeDirectory(active);
    } catch (error) {
      if (errnoOf(error) === "EEXIST") return busyIssue();
      throw error;
    }
    if (!claimNewLock(writer, active)) return busyIssue();
    owned = true;

    reason = "publication-transaction.stage";
    writer.makeDirectory(path.join(active, "staged"));
    writer.makeDirectory(path.join(active, "before"));
    const byPath = new Map(input.view.inventory.map((file) => [file.path, file]));
    const staged: Staged[] = input.plan.records.map((entry, index) => {
      const nextText = input.next.get(entry.record_id);
      if (nextText === undefined || sha256Hex(nextText) !== entry.next_sha256) throw new Error(`the next image of ${entry.record_id} does not match the plan`);
      writer.createFile(stagedImage(active, index), nextText);
      if (entry.operation === "update") {
        const current = byPath.get(entry.path);
        if (current === undefined || current.sha256 !== entry.before_sha256) throw new Error(`the before image of ${entry.record_id} does not match the plan`);
        writer.createFile(beforeImage(active, index), current.bytes);
      }
      return { entry, index, target: recordTarget(root, entry.path) };
    });
    // The journal last and whole (temp + link): its presence means every image above is complete.
    const journalTemp = path.join(active, `.${JOURNAL_FILE}.${randomUUID()}.tmp`);
    writer.createFile(journalTemp, journalText(journalFor(input.transactionId, input.proposalId, input.plan)));
    writer.link(journalTemp, path.join(active, JOURNAL_FILE));
    writer.unlink(journalTemp);
    hit(input.fault, "after-stage");

    reason = "publication-transaction.drift";
    hit(input.fault, "before-drift-check");
    const now = currentFingerprint(root);
    if (now === null || !sameFingerprints(input.plan.snapshot, now)) throw new Error("the notebook changed after the proposal was checked (inventory drift)");

    for (const item of staged) {
      reason = "publication-transaction.publish";
      recordId = item.entry.record_id;
      hit(input.fault, "before-publish", { recordId, index: item.index });
      const image = stagedImage(active, item.index);
      const bytes = writer.read(image);
      if (bytes === null || sha256Hex(bytes) !== item.entry.next_sha256) throw new Error(`the staged image of ${recordId} changed before publication`);
      placeImage(writer, image, item.target, item.entry.operation === "create" ? "create" : "replace");
      published.push(item);
      hit(input.fault, "after-publish", { recordId, index: item.index });
      if (item.index === 0 && staged.length >= 2) hit(input.fault, "mid-publish", { recordId, index: item.index });
    }

    reason = "publication-transaction.readback";
    recordId = null;
    hit(input.fault, "before-readback");
    const fresh = openNotebook(root);
    if (!fresh.ok) throw new Error(`the published notebook does not open: ${fresh.issue.code}: ${fresh.issue.message}`);
    if (!sameFingerprints(input.plan.final, fingerprintInventory(fresh.value.inventory))) throw new Error("the published notebook differs from the planned final record set");
    const freshByPath = new Map(fresh.value.inventory.map((file) => [file.path, file]));
    for (const entry of input.plan.records) {
      const found = freshByPath.get(entry.path);
      if (found === undefined || found.recordId !== entry.record_id || found.sha256 !== entry.next_sha256) throw new Error(`${entry.path} does not read back as ${entry.record_id} with the approved bytes`);
    }

    // A cleanup failure is a failure of the transaction like any other (§6.3 "On failure", as the
    // reference does): the published records are rolled back, and the lock that could not be
    // removed stays for recovery, which then finds every record in its before state.
    reason = "publication-transaction.cleanup";
    removeActive();
    owned = false;
    return null;
  } catch (error) {
    if (published.length > 0) {
      try {
        rollBack(writer, active, published, input.plan.snapshot);
      } catch (rollbackError) {
        giveUp(writer, active);
        return transactionIssue("publication-transaction.rollback", rollbackError, true, recordId);
      }
    }
    if (owned) {
      try {
        removeActive();
      } catch (cleanupError) {
        giveUp(writer, active);
        return transactionIssue("publication-transaction.cleanup", cleanupError, true, null);
      }
    }
    return transactionIssue(reason, error, false, recordId);
  }
}

function busyIssue(): PublicationIssue {
  return transactionIssue("publication-transaction.active", new Error("another publication holds .observer/transactions/active, or an interrupted one was not recovered"), true, null);
}

/** The lock stays for recovery; say that no process works on it any more (best effort: recovery also knows our pid is gone once we exit). */
function giveUp(writer: NotebookWriter, active: string): void {
  try {
    releaseLock(writer, active);
  } catch {
    // The owner file still names this process; it is recoverable as soon as this process ends.
  }
}

/**
 * Reverse order; each target must still hold exactly the bytes this publication wrote, else it is
 * left alone. An update gets its before image back (hash-verified) by an atomic rename.
 */
function rollBack(writer: NotebookWriter, active: string, published: readonly Staged[], snapshot: ProposalPlan["snapshot"]): void {
  for (const item of [...published].reverse()) {
    let current: Buffer | null;
    try {
      current = writer.read(item.target);
    } catch (error) {
      throw new Error(`cannot roll back ${item.entry.path}: ${(error as Error).message}`);
    }
    if (current === null || sha256Hex(current) !== item.entry.next_sha256) throw new Error(`refusing to roll back ${item.entry.path}: it no longer holds the published bytes (someone else changed it)`);
    if (item.entry.operation === "create") {
      writer.unlink(item.target);
    } else {
      const image = beforeImage(active, item.index);
      const before = writer.read(image);
      if (before === null || sha256Hex(before) !== item.entry.before_sha256) throw new Error(`the before image of ${item.entry.path} does not match its hash`);
      placeImage(writer, image, item.target, "replace");
    }
  }
  const after = currentFingerprint(writer.root);
  if (after === null || !sameFingerprints(snapshot, after)) throw new Error("the rollback did not restore the notebook's previous inventory");
}

export function receiptFor(proposal: NotebookProposal, receiptId: string): SaveReceipt {
  return {
    observer_receipt: OBSERVER_SAVE_RECEIPT_SCHEMA,
    receipt_id: receiptId,
    proposal_id: proposal.prepared.proposal_id,
    notebook_id: proposal.prepared.notebook_id,
    records: proposal.plan.records.map((entry) => ({ operation: entry.operation, record_id: entry.record_id, path: entry.path, sha256: entry.next_sha256 })),
  };
}

export interface PublishInput {
  readonly workspace: string;
  readonly proposalId: string;
  /** The person approved all records of this proposal (VS Code's modal, or `--yes`). */
  readonly approved: boolean;
  /** The digest of the proposal the person approved; a stored proposal with another digest was not approved. */
  readonly approvedSha256?: string;
  readonly ids?: PublicationIds;
  readonly fault?: PublicationFault;
  readonly removeTree?: (directory: string) => void;
  /** Every disk change of the publication is a step; defaults to the crash seam of the environment (crashSeam.ts). */
  readonly steps?: StepCounter;
}

/** §6.3 end to end for a stored proposal: recovery first, then the transaction, then the receipt. */
export function publishProposal(input: PublishInput): PublicationResult {
  const ids = input.ids ?? randomPublicationIds;
  const stored = readProposal(input.workspace, input.proposalId);
  if (stored.status === "missing") return { ok: false, issue: publicationIssue("save.lifecycle", `no pending proposal ${input.proposalId} in this workspace`, { reason: "proposal.not-found" }) };
  if (stored.status === "invalid") return { ok: false, issue: publicationIssue(stored.issue.code, `${stored.issue.message} (at ${stored.issue.pointer || "/"})`) };
  const proposal = stored.proposal;
  if (readReceipt(input.workspace, input.proposalId) !== null) return { ok: false, issue: publicationIssue("save.lifecycle", `proposal ${input.proposalId} is already settled`) };
  if (!input.approved) return { ok: false, issue: publicationIssue("save.declined", `proposal ${input.proposalId} was not approved; nothing was written`) };
  if (input.approvedSha256 !== undefined && input.approvedSha256 !== proposal.proposal_sha256) {
    return { ok: false, issue: publicationIssue("save.declined", `proposal ${input.proposalId} is not the one approved (digest ${proposal.proposal_sha256}, approved ${input.approvedSha256}); nothing was written`) };
  }

  // An interrupted publication is settled or cleared before anything new is attempted.
  const recovered = recoverNotebook({ root: proposal.prepared.root, workspace: input.workspace, receiptId: ids.receiptId });
  if (recovered.status === "busy" || recovered.status === "mixed" || recovered.status === "unreadable") {
    return {
      ok: false,
      issue: publicationIssue("save.busy", recovered.message, { reason: "publication-transaction.active", recoveryRequired: true, diagnostics: recovered.status === "mixed" ? recovered.diagnostics : [] }),
    };
  }
  if (recovered.status === "settled" && recovered.receipt.proposal_id === input.proposalId) return { ok: true, receipt: recovered.receipt, settled: "recovered" };

  const opened = openNotebook(proposal.prepared.root);
  if (!opened.ok) return { ok: false, issue: publicationIssue(opened.issue.code, opened.issue.message, { diagnostics: opened.issue.diagnostics ?? [] }) };
  const view = notebookView(opened.value);
  if (view.root !== proposal.prepared.root || view.notebookId !== proposal.prepared.notebook_id) {
    return { ok: false, issue: publicationIssue("save.target-mismatch", `the notebook at ${proposal.prepared.root} is now ${view.notebookId} at ${view.root}`, { reason: "publication-preflight.target-mismatch" }) };
  }
  const now = fingerprintInventory(view.inventory);
  // Published earlier but the receipt was never written (a crash between cleanup and receipt).
  if (!sameFingerprints(proposal.plan.snapshot, now) && sameFingerprints(proposal.plan.final, now)) return settle(input.workspace, proposal, ids, "already-published");
  // Preflight runs again first, as the reference's commit does: a changed target is its
  // `update-stale` / `create-collision`; any other file that changed is drift.
  const checked = preflight(proposal.prepared, view);
  if (!checked.ok) return { ok: false, issue: publicationIssue(checked.issue.code, checked.issue.message, { reason: checked.issue.reason, recordId: checked.issue.recordId ?? null, diagnostics: checked.issue.diagnostics }) };
  if (!sameFingerprints(proposal.plan.snapshot, now)) {
    return { ok: false, issue: publicationIssue("save.concurrent-change", "the notebook's files changed since the proposal was made", { reason: "publication-transaction.drift" }) };
  }
  if (canonicalize(checked.plan) !== canonicalize(proposal.plan)) {
    return { ok: false, issue: publicationIssue("save.concurrent-change", "the notebook no longer yields the plan that was approved", { reason: "publication-transaction.drift" }) };
  }

  const steps = input.steps ?? stepsFromEnvironment("publish");
  const failure = runTransaction({
    view,
    steps,
    proposalId: proposal.prepared.proposal_id,
    plan: proposal.plan,
    next: new Map(proposal.prepared.records.map((record) => [record.record_id, record.markdown])),
    transactionId: ids.transactionId(),
    ...(input.fault === undefined ? {} : { fault: input.fault }),
    ...(input.removeTree === undefined ? {} : { removeTree: input.removeTree }),
  });
  if (failure !== null) return { ok: false, issue: failure };
  steps.step("write the receipt");
  return settle(input.workspace, proposal, ids, "published");
}

/** Records the receipt of a published proposal; the notebook is whole either way. */
function settle(workspace: string, proposal: NotebookProposal, ids: PublicationIds, settled: "published" | "already-published"): PublicationResult {
  try {
    return { ok: true, receipt: writeReceipt(workspace, receiptFor(proposal, ids.receiptId())), settled };
  } catch (error) {
    // Only Docket's record of the publication is missing. Publishing again settles it once the receipt folder is writable.
    return { ok: false, issue: publicationIssue("save.lifecycle", `published, but the receipt could not be written: ${(error as Error).message}`, { recoveryRequired: true }) };
  }
}
