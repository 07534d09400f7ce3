// Where proposals and their receipts live: Docket state of the workspace, not of the notebook
// (`<workspace>/.docket/notebook/proposals/<proposal_id>.json`, `…/receipts/<proposal_id>.json`).
// A proposal is pending until its receipt exists. Files are created exclusively and complete (temp
// file + hard link), so a reader never sees half a proposal and two writers never share an id.
// Every write stays inside the workspace (containedFs): a `.docket` or `notebook/` folder that is a
// symbolic link committed in a repository is refused (`docket.unsafe-path`), never written through.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { compareCodeUnits } from "../ledger/canonicalJson";
import { assertContained, ensureContainedDirectory, openContained, readContained } from "../workspace/containedFs";
import { decodeProposal, PROPOSAL_ID, SaveReceipt, serializeProposal, type NotebookProposal, type ProposalIssue } from "./proposal";

export type StoredProposal =
  | { readonly status: "found"; readonly proposal: NotebookProposal }
  | { readonly status: "missing" }
  | { readonly status: "invalid"; readonly issue: ProposalIssue };

export function notebookStateDirectory(workspace: string): string {
  return path.join(workspace, ".docket", "notebook");
}

function proposalFile(workspace: string, proposalId: string): string {
  return path.join(notebookStateDirectory(workspace), "proposals", `${proposalId}.json`);
}

function receiptFile(workspace: string, proposalId: string): string {
  return path.join(notebookStateDirectory(workspace), "receipts", `${proposalId}.json`);
}

/** Ids become file names, so only the exact `proposal-<uuid v4>` form is accepted (no traversal). */
export function isStorableProposalId(value: string): boolean {
  return PROPOSAL_ID.test(value);
}

/** Writes complete bytes under a new name inside `workspace`; EEXIST when the name is taken. */
export function createFileExclusively(workspace: string, file: string, text: string): void {
  ensureContainedDirectory(workspace, path.dirname(file));
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  const fd = openContained(workspace, temporary, "wx");
  try {
    try {
      fs.writeFileSync(fd, text, "utf8");
    } finally {
      fs.closeSync(fd);
    }
    assertContained(workspace, file);
    fs.linkSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

export function writeProposal(workspace: string, proposal: NotebookProposal): string {
  if (!isStorableProposalId(proposal.prepared.proposal_id)) throw new Error(`${proposal.prepared.proposal_id} is not a proposal-<uuid v4> id`);
  const file = proposalFile(workspace, proposal.prepared.proposal_id);
  createFileExclusively(workspace, file, serializeProposal(proposal));
  return file;
}

/** 200 records of at most 1 MiB each, JSON-escaped, stay far below this. */
const MAX_STORED_JSON_BYTES = 512 * 1024 * 1024;

/**
 * A stored proposal or receipt, never through a link and only from a bounded regular file: the
 * Observer view lists proposals on its own, and a repository can ship one that links to /dev/zero.
 */
function readJson(workspace: string, file: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly missing: boolean; readonly message: string } {
  let bytes: Buffer;
  try {
    const read = readContained(workspace, file, MAX_STORED_JSON_BYTES);
    if (read === null) return { ok: false, missing: true, message: `${file} does not exist` };
    bytes = read;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { ok: false, missing, message: (error as Error).message };
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown };
  } catch {
    return { ok: false, missing: false, message: `${file} is not UTF-8 JSON` };
  }
}

/** Every read re-validates the file (shape, digest, plan consistency): the store is never trusted. */
export function readProposal(workspace: string, proposalId: string): StoredProposal {
  if (!isStorableProposalId(proposalId)) return { status: "missing" };
  const read = readJson(workspace, proposalFile(workspace, proposalId));
  if (!read.ok) return read.missing ? { status: "missing" } : { status: "invalid", issue: { code: "save-profile.object", pointer: "", message: read.message } };
  const decoded = decodeProposal(read.value);
  if (!decoded.ok) return { status: "invalid", issue: decoded.issue };
  if (decoded.value.prepared.proposal_id !== proposalId) {
    return { status: "invalid", issue: { code: "save-profile.shape", pointer: "/prepared/proposal_id", message: `the file of ${proposalId} holds ${decoded.value.prepared.proposal_id}` } };
  }
  return { status: "found", proposal: decoded.value };
}

/** Ids of proposals without a receipt, in code-unit order. */
export function listPendingProposalIds(workspace: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(notebookStateDirectory(workspace), "proposals"));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .filter((id) => isStorableProposalId(id) && readReceipt(workspace, id) === null)
    .sort(compareCodeUnits);
}

/** False when there was nothing to discard. A settled proposal is kept with its receipt. */
export function discardProposal(workspace: string, proposalId: string): boolean {
  if (!isStorableProposalId(proposalId) || readReceipt(workspace, proposalId) !== null) return false;
  try {
    assertContained(workspace, proposalFile(workspace, proposalId));
    fs.unlinkSync(proposalFile(workspace, proposalId));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

export function readReceipt(workspace: string, proposalId: string): SaveReceipt | null {
  if (!isStorableProposalId(proposalId)) return null;
  const read = readJson(workspace, receiptFile(workspace, proposalId));
  if (!read.ok) return null;
  const parsed = SaveReceipt.safeParse(read.value);
  return parsed.success ? parsed.data : null;
}

/** Records that a proposal settled. If another process settled it first, its receipt stands. */
export function writeReceipt(workspace: string, receipt: SaveReceipt): SaveReceipt {
  if (!isStorableProposalId(receipt.proposal_id)) return receipt;
  try {
    createFileExclusively(workspace, receiptFile(workspace, receipt.proposal_id), `${JSON.stringify(receipt, null, 2)}\n`);
    return receipt;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const existing = readReceipt(workspace, receipt.proposal_id);
    if (existing === null) throw error;
    return existing;
  }
}
