// Preflight (observer.md §6.2): turns a PreparedSave and the notebook as it is now into an exact
// plan, or refuses it with `save.invalid-plan` (or `save.target-mismatch`) and diagnostics. Pure:
// the caller reads the notebook; nothing here touches the disk, so running it twice on the same
// bytes gives the same plan, and a refusal has nothing to undo.
import { sha256Hex } from "../ledger/canonicalJson";
import { compareNotebookText } from "./referenceOrder";
import type { NotebookDiagnostic } from "./diagnostics";
import { parseRecordMarkdown } from "./markdownProfile";
import { sealProposal, type InventoryFingerprint, type NotebookProposal, type PlannedRecord, type PreparedSave, type ProposalOrigin, type ProposalPlan } from "./proposal";
import { validateRecordSet } from "./recordSet";

/** The notebook as preflight sees it: canonical root, identity and every record file's bytes. */
export interface NotebookView {
  readonly root: string;
  readonly notebookId: string;
  readonly inventory: readonly InventoryFile[];
}

export interface InventoryFile {
  /** Relative to the notebook root, `/`-separated, e.g. `records/memo-incubating.md`. */
  readonly path: string;
  readonly recordId: string;
  readonly sha256: string;
  readonly bytes: Uint8Array;
}

/** The reference's preflight reasons; all surface as `save.invalid-plan`. */
export type PreflightReason =
  | "publication-preflight.duplicate-id"
  | "publication-preflight.record-invalid"
  | "publication-preflight.record-mismatch"
  | "publication-preflight.create-collision"
  | "publication-preflight.update-missing"
  | "publication-preflight.update-stale"
  | "publication-preflight.final-invalid";

export interface PreflightIssue {
  readonly code: "save.invalid-plan" | "save.target-mismatch";
  readonly reason: PreflightReason | "publication-preflight.target-mismatch";
  readonly message: string;
  readonly recordId?: string;
  readonly path?: string;
  readonly diagnostics: readonly NotebookDiagnostic[];
}

export type PreflightResult = { readonly ok: true; readonly plan: ProposalPlan } | { readonly ok: false; readonly issue: PreflightIssue };

const encoder = new TextEncoder();

function refuse(reason: PreflightReason, message: string, extra: { recordId?: string; path?: string; diagnostics?: readonly NotebookDiagnostic[] } = {}): PreflightResult {
  const issue: PreflightIssue = {
    code: "save.invalid-plan",
    reason,
    message,
    ...(extra.recordId === undefined ? {} : { recordId: extra.recordId }),
    ...(extra.path === undefined ? {} : { path: extra.path }),
    diagnostics: extra.diagnostics ?? [],
  };
  return { ok: false, issue };
}

export function fingerprintInventory(inventory: readonly InventoryFile[]): InventoryFingerprint[] {
  return inventory
    .map((file) => ({ path: file.path, record_id: file.recordId, sha256: file.sha256 }))
    .sort((left, right) => compareNotebookText(left.path, right.path));
}

export function sameFingerprints(left: readonly InventoryFingerprint[], right: readonly InventoryFingerprint[]): boolean {
  return (
    left.length === right.length &&
    left.every((entry, index) => {
      const other = right[index];
      return other !== undefined && other.path === entry.path && other.record_id === entry.record_id && other.sha256 === entry.sha256;
    })
  );
}

/** Checks in the reference's order and stops at the first refusal, so one cause is reported, not a cascade. */
export function preflight(prepared: PreparedSave, notebook: NotebookView): PreflightResult {
  if (prepared.root !== notebook.root || prepared.notebook_id !== notebook.notebookId) {
    return {
      ok: false,
      issue: {
        code: "save.target-mismatch",
        reason: "publication-preflight.target-mismatch",
        message: `the proposal targets ${prepared.notebook_id} at ${prepared.root}, but the notebook there is ${notebook.notebookId} at ${notebook.root}`,
        diagnostics: [],
      },
    };
  }
  const seen = new Set<string>();
  const decoded: { record: PreparedSave["records"][number]; type: PlannedRecord["record_type"]; title: string; bytes: Uint8Array }[] = [];
  for (const [index, record] of prepared.records.entries()) {
    if (seen.has(record.record_id)) return refuse("publication-preflight.duplicate-id", `${record.record_id} appears more than once in the proposal`, { recordId: record.record_id });
    seen.add(record.record_id);
    const bytes = encoder.encode(record.markdown);
    const parsed = parseRecordMarkdown(`<prepared-record-${index}>`, bytes);
    if (!parsed.ok) {
      return refuse("publication-preflight.record-invalid", `the Markdown proposed for ${record.record_id} is not a valid record`, {
        recordId: record.record_id,
        path: `<prepared-record-${index}>`,
        diagnostics: parsed.diagnostics,
      });
    }
    if (parsed.record.recordId !== record.record_id) {
      return refuse("publication-preflight.record-mismatch", `the Markdown proposed for ${record.record_id} declares id ${parsed.record.recordId}`, {
        recordId: record.record_id,
        path: `<prepared-record-${index}>`,
      });
    }
    decoded.push({ record, type: parsed.record.type, title: parsed.record.title, bytes });
  }

  const byId = new Map(notebook.inventory.map((file) => [file.recordId, file]));
  const byPath = new Map(notebook.inventory.map((file) => [file.path, file]));
  const planned: PlannedRecord[] = [];
  for (const { record, type, title } of decoded) {
    const nextSha = sha256Hex(record.markdown);
    if (record.operation === "create") {
      const target = `records/${record.record_id}.md`;
      if (byId.has(record.record_id)) return refuse("publication-preflight.create-collision", `${record.record_id} already exists in the notebook`, { recordId: record.record_id });
      if (byPath.has(target)) return refuse("publication-preflight.create-collision", `${target} already exists`, { recordId: record.record_id, path: target });
      planned.push({ operation: "create", record_id: record.record_id, record_type: type, title, path: target, before_sha256: null, next_sha256: nextSha });
    } else {
      const existing = byId.get(record.record_id);
      if (existing === undefined) return refuse("publication-preflight.update-missing", `${record.record_id} does not exist in the notebook`, { recordId: record.record_id });
      if (existing.sha256 !== record.expected_sha256) {
        return refuse("publication-preflight.update-stale", `${existing.path} changed since the proposal was made (expected ${record.expected_sha256}, found ${existing.sha256})`, {
          recordId: record.record_id,
          path: existing.path,
        });
      }
      planned.push({ operation: "update", record_id: record.record_id, record_type: type, title, path: existing.path, before_sha256: existing.sha256, next_sha256: nextSha });
    }
  }
  planned.sort((left, right) => compareNotebookText(left.record_id, right.record_id));

  const nextById = new Map(decoded.map((entry) => [entry.record.record_id, entry.bytes]));
  const finalFiles = notebook.inventory.map((file) => ({ path: file.path, bytes: nextById.get(file.recordId) ?? file.bytes }));
  for (const entry of planned) {
    if (entry.operation === "create") finalFiles.push({ path: entry.path, bytes: nextById.get(entry.record_id) as Uint8Array });
  }
  finalFiles.sort((left, right) => compareNotebookText(left.path, right.path));
  const validation = validateRecordSet(finalFiles);
  if (!validation.valid) {
    return refuse("publication-preflight.final-invalid", "the notebook as it would be after this proposal does not validate", { diagnostics: validation.diagnostics });
  }
  const idByPath = new Map(validation.parsed.map((record) => [record.path, record.recordId]));
  const final = finalFiles.map((file) => ({ path: file.path, record_id: idByPath.get(file.path) ?? "", sha256: sha256Hex(file.bytes) }));
  return { ok: true, plan: { records: planned, snapshot: fingerprintInventory(notebook.inventory), final } };
}

/** The shape preflight reads, from an opened notebook (notebookStore's `openNotebook`). */
export function notebookView(notebook: { readonly root: string; readonly manifest: { readonly notebook_id: string }; readonly inventory: readonly InventoryFile[] }): NotebookView {
  return { root: notebook.root, notebookId: notebook.manifest.notebook_id, inventory: notebook.inventory };
}

export interface ProposalFreshness {
  /** The notebook's files are no longer the ones the proposal was made against (any file, target or not). */
  readonly stale: boolean;
  /** Per planned record: its target changed (an update's bytes differ, or a create's id or path now exists). */
  readonly records: readonly { readonly recordId: string; readonly stale: boolean }[];
}

/** Whether a stored plan still describes the notebook; a stale proposal can only be discarded and made again. */
export function assessFreshness(plan: ProposalPlan, notebook: NotebookView): ProposalFreshness {
  const byId = new Map(notebook.inventory.map((file) => [file.recordId, file]));
  const byPath = new Map(notebook.inventory.map((file) => [file.path, file]));
  const records = plan.records.map((entry) => {
    if (entry.operation === "create") return { recordId: entry.record_id, stale: byId.has(entry.record_id) || byPath.has(entry.path) };
    const current = byPath.get(entry.path);
    return { recordId: entry.record_id, stale: current === undefined || current.sha256 !== entry.before_sha256 || current.recordId !== entry.record_id };
  });
  return { stale: !sameFingerprints(plan.snapshot, fingerprintInventory(notebook.inventory)), records };
}

/** Preflight plus sealing: the proposal a person reviews is exactly the plan that was checked. */
export function prepareProposal(
  prepared: PreparedSave,
  notebook: NotebookView,
  origin?: ProposalOrigin,
): { readonly ok: true; readonly proposal: NotebookProposal } | { readonly ok: false; readonly issue: PreflightIssue } {
  const checked = preflight(prepared, notebook);
  return checked.ok ? { ok: true, proposal: sealProposal(prepared, checked.plan, origin) } : checked;
}
