// The files of a publication transaction (observer.md §6.3), shared by the publisher and its
// recovery: the lock folder `.observer/transactions/active`, its journal
// (`observer-notebook-publication/v1`), the staged next images `staged/NNNNNN.next` and update
// before-images `before/NNNNNN.before` (NNNNNN = the record's index in the journal), how a staged
// image is put in place, and how the lock is removed.
//
// Two choices keep a crash from ever leaving the Notebook unreadable:
// - Images are put in place from the lock folder itself (a create hard-links its staged image,
//   an update renames it over the target), so no temporary file ever appears in `records/`, which
//   the reference and Docket both refuse to read with a stray file in it. Only when `records/`
//   sits on another file system than `.observer/` is a temporary written beside the target
//   (`.<name>.<uuid>.tmp`, the reference's name), and recovery removes it.
// - The lock is removed by first renaming the folder to `.observer/transactions/.docket-removed-<uuid>`
//   (one atomic step: the lock is there whole or gone), then deleting that. A crash while deleting
//   leaves only that folder, which nothing reads and the next recovery deletes.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { ACTIVE_TRANSACTION_PATH } from "./manifest";
import type { NotebookWriter } from "./notebookWriter";
import { RelativeRecordPath } from "./proposal";

export const TRANSACTION_SCHEMA = "observer-notebook-publication/v1";
export const JOURNAL_FILE = "transaction.json";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/u);
const JournalRecord = z
  .strictObject({
    operation: z.enum(["create", "update"]),
    record_id: z.string().min(1).max(200),
    // Only a file directly in records/: a journal must not steer recovery outside the notebook.
    path: RelativeRecordPath,
    before_sha256: Sha256.nullable(),
    next_sha256: Sha256,
  })
  .refine((record) => (record.operation === "create") === (record.before_sha256 === null), { message: "a create has no before hash and an update has one" });

export const Journal = z.strictObject({
  observer_transaction: z.literal(TRANSACTION_SCHEMA),
  transaction_id: z.string().min(1).max(200),
  proposal_id: z.string().min(1).max(200),
  records: z.array(JournalRecord),
});
export type Journal = z.infer<typeof Journal>;
export type JournalRecord = Journal["records"][number];

export function journalText(journal: Journal): string {
  return `${JSON.stringify(journal, null, 2)}\n`;
}

export function activeTransactionDirectory(root: string): string {
  return path.join(root, ...ACTIVE_TRANSACTION_PATH.split("/"));
}

export function transactionsDirectory(root: string): string {
  return path.dirname(activeTransactionDirectory(root));
}

function imageName(index: number): string {
  return String(index).padStart(6, "0");
}

export function stagedImage(active: string, index: number): string {
  return path.join(active, "staged", `${imageName(index)}.next`);
}

export function beforeImage(active: string, index: number): string {
  return path.join(active, "before", `${imageName(index)}.before`);
}

export function recordTarget(root: string, relativePath: string): string {
  return path.join(root, ...relativePath.split("/"));
}

export { publicationTemporaryTarget } from "./publicationTemporary";

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Puts a staged (or before) image in place at `target`. A create never replaces a file (hard link,
 * EEXIST if anything is there); a replace is atomic (rename). Either way `target` holds its old
 * bytes or the image's, never a mix, and nothing is left in `records/` at any crash point.
 */
export function placeImage(writer: NotebookWriter, image: string, target: string, mode: "create" | "replace"): void {
  try {
    if (mode === "create") writer.link(image, target);
    else writer.rename(image, target);
    return;
  } catch (error) {
    if (errnoOf(error) !== "EXDEV") throw error;
  }
  // records/ is on another file system: the reference's way, a temporary beside the target.
  const bytes = writer.read(image);
  if (bytes === null) throw new Error(`${image} disappeared before it was published`);
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomUUID()}.tmp`);
  writer.createFile(temporary, bytes);
  try {
    if (mode === "create") writer.link(temporary, target);
    else writer.rename(temporary, target);
  } finally {
    if (mode === "create" || fs.existsSync(temporary)) writer.unlink(temporary);
  }
}

const REMOVED_PREFIX = ".docket-removed-";

/** Removes the lock folder: one atomic rename (the lock is whole or gone), then the deletion of what it held. */
export function removeLock(writer: NotebookWriter, active: string): void {
  const removed = path.join(path.dirname(active), `${REMOVED_PREFIX}${randomUUID()}`);
  writer.rename(active, removed);
  try {
    writer.removeTree(removed);
  } catch {
    // The lock is already gone; what is left is garbage the next recovery deletes.
  }
}

/** Leftovers of lock removals that were interrupted (nothing reads them); deletes each. */
export function sweepRemovedLocks(writer: NotebookWriter, root: string): number {
  const transactions = transactionsDirectory(root);
  let names: string[];
  try {
    names = fs.readdirSync(transactions);
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return 0;
    throw error;
  }
  const leftovers = names.filter((name) => name.startsWith(REMOVED_PREFIX));
  for (const name of leftovers) writer.removeTree(path.join(transactions, name));
  return leftovers.length;
}
