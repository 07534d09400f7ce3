// Crash recovery (observer.md §6.3, "Crash recovery"): run when Docket starts and before every
// publication. A present `.observer/transactions/active` whose owner is gone means a publication was
// interrupted. Its journal says, per record, the bytes before and the approved bytes after. If every
// target already holds the approved bytes, the batch is settled (receipt written, lock removed, no
// republish); if every target still holds its before bytes, nothing was published and the lock is
// cleared; anything else is `mixed` and is reported with per-record diagnostics while nothing is
// written — only a person can decide which half is right.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { sha256Hex } from "../ledger/canonicalJson";
import { processAlive } from "../ledger/lock";
import { compareNotebookText } from "./referenceOrder";
import { notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import { ACTIVE_TRANSACTION_PATH, parseManifestBytes } from "./manifest";
import { transactionLayoutProblem } from "./notebookStore";
import { OBSERVER_SAVE_RECEIPT_SCHEMA, RelativeRecordPath, type SaveReceipt } from "./proposal";
import { readProposal, writeReceipt } from "./proposalStore";

export const TRANSACTION_SCHEMA = "observer-notebook-publication/v1";
/** Docket's addition to the active folder: which process holds the lock (the reference ignores it). */
export const OWNER_FILE = "docket-owner.json";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/u);
const Journal = z.strictObject({
  observer_transaction: z.literal(TRANSACTION_SCHEMA),
  transaction_id: z.string().min(1).max(200),
  proposal_id: z.string().min(1).max(200),
  records: z.array(
    z.strictObject({
      operation: z.enum(["create", "update"]),
      record_id: z.string().min(1).max(200),
      // Only a file directly in records/: a journal must not steer recovery outside the notebook.
      path: RelativeRecordPath,
      before_sha256: Sha256.nullable(),
      next_sha256: Sha256,
    }),
  ),
});
type Journal = z.infer<typeof Journal>;
const Owner = z.strictObject({ pid: z.number().int().positive(), hostname: z.string() });

export type RecordState = "before" | "final" | "other";

export type RecoveryOutcome =
  | { readonly status: "clean" }
  | { readonly status: "busy"; readonly message: string }
  | { readonly status: "settled"; readonly message: string; readonly receipt: SaveReceipt }
  | { readonly status: "not-published"; readonly message: string; readonly proposalId: string | null }
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
}

function readJson(file: string): { readonly state: "missing" } | { readonly state: "bad"; readonly message: string } | { readonly state: "ok"; readonly value: unknown } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(fs.readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    return { state: "bad", message: error instanceof Error ? error.message : String(error) };
  }
  try {
    return { state: "ok", value: JSON.parse(text) as unknown };
  } catch {
    return { state: "bad", message: `${file} is not JSON` };
  }
}

/** Hash of a regular file's bytes; null when absent; "link" for anything that is not a regular file. */
function targetHash(file: string): string | null | "not-regular" {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  if (!stat.isFile()) return "not-regular";
  return sha256Hex(fs.readFileSync(file));
}

/**
 * Each state is judged on its own: an update whose approved bytes equal its before bytes is both
 * published and not, so it never makes a batch look half-published.
 */
function judge(record: Journal["records"][number], hash: string | null | "not-regular"): { readonly final: boolean; readonly before: boolean; readonly state: RecordState } {
  const final = hash === record.next_sha256;
  const before = record.operation === "create" ? hash === null : hash === record.before_sha256;
  return { final, before, state: final ? "final" : before ? "before" : "other" };
}

/**
 * A crash between writing a publication temp file (`.<name>.<uuid>.tmp`, beside its target) and
 * linking or renaming it leaves a stray file that would make `records/` invalid; it never is a record.
 */
function removeStrayTemporaries(root: string, journal: Journal): void {
  const targets = new Set(journal.records.map((record) => path.posix.basename(record.path)));
  const recordsDir = path.join(root, "records");
  for (const name of fs.readdirSync(recordsDir)) {
    const match = /^\.(.+\.md)\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/u.exec(name);
    if (match !== null && targets.has(match[1] as string)) fs.rmSync(path.join(recordsDir, name), { force: true });
  }
}

/**
 * Looks at the lock and the journal and settles, clears or reports; never republishes and never
 * rolls back. Never throws: a file that cannot be read or written is reported as `unreadable`.
 */
export function recoverNotebook(input: RecoveryInput): RecoveryOutcome {
  const active = path.join(input.root, ...ACTIVE_TRANSACTION_PATH.split("/"));
  try {
    fs.lstatSync(active);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { status: "clean" };
    return { status: "unreadable", message: `cannot inspect ${active}: ${(error as Error).message}` };
  }
  try {
    return recoverActive(input, active);
  } catch (error) {
    return { status: "unreadable", message: `recovery stopped, nothing more was changed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function recoverActive(input: RecoveryInput, active: string): RecoveryOutcome {
  const layout = transactionLayoutProblem(input.root);
  if (layout !== null) return { status: "unreadable", message: `${layout}; recovery does not follow links out of the notebook, nothing was changed` };
  const owner = readJson(path.join(active, OWNER_FILE));
  const journalRead = readJson(path.join(active, "transaction.json"));
  if (owner.state === "ok") {
    const parsed = Owner.safeParse(owner.value);
    const alive = input.isAlive ?? processAlive;
    if (!parsed.success) return { status: "unreadable", message: `${active}/${OWNER_FILE} is malformed; inspect the folder` };
    if (parsed.data.hostname !== os.hostname()) return { status: "busy", message: `a publication from ${parsed.data.hostname} holds ${active}; it cannot be checked from here` };
    // A publication of this process never spans calls (it is synchronous), so our own pid means a leftover.
    if (parsed.data.pid !== process.pid && alive(parsed.data.pid)) return { status: "busy", message: `a publication (process ${parsed.data.pid}) is running on this notebook` };
  } else if (journalRead.state !== "ok") {
    // No owner and no journal: a publication that just took the lock, or one by another tool. Do not guess.
    return { status: "busy", message: `${active} exists without a journal: another publication may be starting; if none is running, remove the folder` };
  } else {
    // A journal without Docket's owner file is another tool's (the reference Observer's), which may
    // be publishing right now: its lock is never removed or settled from here.
    return { status: "busy", message: `${active} holds another tool's publication (no ${OWNER_FILE}); if no other program is saving to this notebook, finish or remove it there` };
  }
  if (journalRead.state === "missing") {
    // The journal is written (whole) before the first target is touched, so without it nothing was published.
    fs.rmSync(active, { recursive: true, force: true });
    return { status: "not-published", message: "an interrupted publication had not published anything; its staging folder was removed", proposalId: null };
  }
  if (journalRead.state === "bad") return { status: "unreadable", message: `the publication journal cannot be read (${journalRead.message}); nothing was changed` };
  const journal = Journal.safeParse(journalRead.value);
  if (!journal.success) return { status: "unreadable", message: `${active}/transaction.json is not an ${TRANSACTION_SCHEMA} journal; nothing was changed` };

  const records = journal.data.records.map((record) => ({ record, ...judge(record, targetHash(path.join(input.root, ...record.path.split("/")))) }));
  if (records.every((item) => item.final)) {
    const manifest = parseManifestBytes(fs.readFileSync(path.join(input.root, ".observer", "notebook.json")), input.root);
    if (!manifest.ok) return { status: "unreadable", message: `the notebook manifest cannot be read: ${manifest.issue.message}` };
    const receipt: SaveReceipt = {
      observer_receipt: OBSERVER_SAVE_RECEIPT_SCHEMA,
      receipt_id: input.receiptId(),
      proposal_id: journal.data.proposal_id,
      notebook_id: manifest.value.notebook_id,
      records: records
        .map(({ record }) => ({ operation: record.operation, record_id: record.record_id, path: record.path, sha256: record.next_sha256 }))
        .sort((left, right) => compareNotebookText(left.record_id, right.record_id)),
    };
    removeStrayTemporaries(input.root, journal.data);
    const stored = input.workspace !== null && readProposal(input.workspace, journal.data.proposal_id).status === "found" ? writeReceipt(input.workspace, receipt) : receipt;
    fs.rmSync(active, { recursive: true, force: true });
    return { status: "settled", message: `the interrupted publication of ${journal.data.proposal_id} had completed; it was settled without publishing again`, receipt: stored };
  }
  if (records.every((item) => item.before)) {
    removeStrayTemporaries(input.root, journal.data);
    fs.rmSync(active, { recursive: true, force: true });
    return { status: "not-published", message: `the interrupted publication of ${journal.data.proposal_id} had not changed the notebook; its staging folder was removed`, proposalId: journal.data.proposal_id };
  }
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
  return {
    status: "mixed",
    message: `the interrupted publication of ${journal.data.proposal_id} left the notebook partly published (${records.filter((item) => item.state === "final").length} of ${records.length} records); nothing was changed, recovery required`,
    proposalId: journal.data.proposal_id,
    records: records.map((item) => ({ recordId: item.record.record_id, path: item.record.path, state: item.state })),
    diagnostics,
  };
}
