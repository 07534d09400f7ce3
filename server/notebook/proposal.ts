// A Notebook proposal: the reference's PreparedSave (`observer-save/v1`, observer.md §6.1) plus the
// plan it was preflighted into, stored as Docket state. Everything publication relies on is bound
// here and covered by one digest: notebook identity and canonical root, every operation with its
// target path, the byte hash each update expects, the final Markdown, the inventory snapshot the
// plan was made against and the complete final record set. Editing any of it breaks the digest, so
// a proposal changed after the person reviewed it cannot be published.
import path from "node:path";
import * as z from "zod";
import { canonicalize, sha256Hex } from "../ledger/canonicalJson";
import { ProposalOrigin } from "../protocol/messages";

export { ProposalOrigin };

export const OBSERVER_SAVE_SCHEMA = "observer-save/v1";
export const OBSERVER_SAVE_RECEIPT_SCHEMA = "observer-save-receipt/v1";
export const PROPOSAL_SCHEMA = "docket-notebook-proposal/v1";

const UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
export const PROPOSAL_ID = new RegExp(`^proposal-${UUID_V4}$`, "u");
export const RECEIPT_ID = new RegExp(`^receipt-${UUID_V4}$`, "u");
export const TRANSACTION_ID = new RegExp(`^transaction-${UUID_V4}$`, "u");
const NOTEBOOK_ID = new RegExp(`^notebook-${UUID_V4}$`, "u");
const SHA256 = /^[0-9a-f]{64}$/u;

/** Reference "bounded text" for ids: equals its trim, non-empty, at most 200 UTF-16 units. */
const BoundedId = z
  .string()
  .min(1)
  .max(200)
  .refine((value) => value === value.trim(), "must not start or end with whitespace");
const Sha256 = z.string().regex(SHA256);
const Markdown = z.string().min(1);
/**
 * A file directly in `records/` whose name ends in `.md`: every name the notebook reader accepts as
 * a record (`a\b.md` and `.md` included), and nothing that could leave the folder.
 */
export const RelativeRecordPath = z
  .string()
  .regex(/^records\/[^/]+\.md$/u)
  .refine((value) => !value.includes("\0"));

export const PreparedCreateRecord = z.strictObject({ operation: z.literal("create"), record_id: BoundedId, markdown: Markdown });
export const PreparedUpdateRecord = z.strictObject({ operation: z.literal("update"), record_id: BoundedId, expected_sha256: Sha256, markdown: Markdown });
export const PreparedRecord = z.discriminatedUnion("operation", [PreparedCreateRecord, PreparedUpdateRecord]);
export type PreparedRecord = z.infer<typeof PreparedRecord>;

export const PreparedSave = z.strictObject({
  observer_save: z.literal(OBSERVER_SAVE_SCHEMA),
  proposal_id: BoundedId,
  notebook_id: z.string().regex(NOTEBOOK_ID),
  root: z.string().refine((value) => path.isAbsolute(value), "must be an absolute path"),
  episode_language: z.enum(["en", "ko"]),
  records: z.array(PreparedRecord),
});
export type PreparedSave = z.infer<typeof PreparedSave>;

/** One planned write, in plan order (sorted by record id). `path` is relative to the notebook root. */
export const PlannedRecord = z.strictObject({
  operation: z.enum(["create", "update"]),
  record_id: BoundedId,
  record_type: z.enum(["source", "inquiry", "memo", "zettel"]),
  title: z.string(),
  path: RelativeRecordPath,
  before_sha256: Sha256.nullable(),
  next_sha256: Sha256,
});
export type PlannedRecord = z.infer<typeof PlannedRecord>;

/** One file of an inventory (the notebook before, or as it must be after), sorted by path. */
export const InventoryFingerprint = z.strictObject({ path: RelativeRecordPath, record_id: BoundedId, sha256: Sha256 });
export type InventoryFingerprint = z.infer<typeof InventoryFingerprint>;

export const ProposalPlan = z.strictObject({
  records: z.array(PlannedRecord),
  snapshot: z.array(InventoryFingerprint),
  final: z.array(InventoryFingerprint),
});
export type ProposalPlan = z.infer<typeof ProposalPlan>;

export const NotebookProposal = z.strictObject({
  docket_notebook_proposal: z.literal(PROPOSAL_SCHEMA),
  prepared: PreparedSave,
  plan: ProposalPlan,
  /** Covered by the digest, so it cannot be changed after sealing; absent in proposals made before Docket recorded it. */
  origin: ProposalOrigin.optional(),
  proposal_sha256: Sha256,
});
export type NotebookProposal = z.infer<typeof NotebookProposal>;

export const SavedRecordReceipt = z.strictObject({ operation: z.enum(["create", "update"]), record_id: BoundedId, path: RelativeRecordPath, sha256: Sha256 });
export const SaveReceipt = z.strictObject({
  observer_receipt: z.literal(OBSERVER_SAVE_RECEIPT_SCHEMA),
  receipt_id: z.string().regex(RECEIPT_ID),
  proposal_id: BoundedId,
  notebook_id: z.string().regex(NOTEBOOK_ID),
  records: z.array(SavedRecordReceipt),
});
export type SaveReceipt = z.infer<typeof SaveReceipt>;

export type ProposalIssueCode = "save-profile.object" | "save-profile.shape" | "save-profile.unsupported" | "save-profile.digest";

export interface ProposalIssue {
  readonly code: ProposalIssueCode;
  /** JSON pointer of the offending value inside the proposal. */
  readonly pointer: string;
  readonly message: string;
}

export type ProposalResult<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly issue: ProposalIssue };

/** The digest covers the prepared save, the plan and the origin in canonical JSON (no clock, no locale). */
export function proposalDigest(prepared: PreparedSave, plan: ProposalPlan, origin?: ProposalOrigin): string {
  return sha256Hex(canonicalize(origin === undefined ? { plan, prepared } : { origin, plan, prepared }));
}

export function sealProposal(prepared: PreparedSave, plan: ProposalPlan, origin?: ProposalOrigin): NotebookProposal {
  return {
    docket_notebook_proposal: PROPOSAL_SCHEMA,
    prepared,
    plan,
    ...(origin === undefined ? {} : { origin }),
    proposal_sha256: proposalDigest(prepared, plan, origin),
  };
}

/** Stored bytes: two-space JSON plus a newline, so a person can read the proposal file. */
export function serializeProposal(proposal: NotebookProposal): string {
  return `${JSON.stringify(proposal, null, 2)}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstPointer(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "";
  return issue.path.map((segment) => `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** Decodes a PreparedSave exactly as the reference does: object, then schema string, then shape. */
export function decodePreparedSave(value: unknown): ProposalResult<PreparedSave> {
  if (!isObject(value)) return { ok: false, issue: { code: "save-profile.object", pointer: "", message: "a prepared save must be a JSON object" } };
  const schema = value["observer_save"];
  if (typeof schema === "string" && schema !== OBSERVER_SAVE_SCHEMA) {
    return { ok: false, issue: { code: "save-profile.unsupported", pointer: "/observer_save", message: `${schema} is not ${OBSERVER_SAVE_SCHEMA}` } };
  }
  const parsed = PreparedSave.safeParse(value);
  if (!parsed.success) {
    return { ok: false, issue: { code: "save-profile.shape", pointer: firstPointer(parsed.error), message: `the prepared save does not have the ${OBSERVER_SAVE_SCHEMA} shape` } };
  }
  return { ok: true, value: parsed.data };
}

/** Decodes a stored proposal and proves it is the one that was preflighted (digest and cross-checks). */
export function decodeProposal(value: unknown): ProposalResult<NotebookProposal> {
  if (!isObject(value)) return { ok: false, issue: { code: "save-profile.object", pointer: "", message: "a proposal must be a JSON object" } };
  const schema = value["docket_notebook_proposal"];
  if (typeof schema === "string" && schema !== PROPOSAL_SCHEMA) {
    return { ok: false, issue: { code: "save-profile.unsupported", pointer: "/docket_notebook_proposal", message: `${schema} is not ${PROPOSAL_SCHEMA}` } };
  }
  const parsed = NotebookProposal.safeParse(value);
  if (!parsed.success) {
    return { ok: false, issue: { code: "save-profile.shape", pointer: firstPointer(parsed.error), message: `the proposal does not have the ${PROPOSAL_SCHEMA} shape` } };
  }
  const proposal = parsed.data;
  if (proposalDigest(proposal.prepared, proposal.plan, proposal.origin) !== proposal.proposal_sha256) {
    return { ok: false, issue: { code: "save-profile.digest", pointer: "/proposal_sha256", message: "the proposal was changed after it was preflighted" } };
  }
  const consistency = planConsistency(proposal);
  if (consistency !== null) return { ok: false, issue: { code: "save-profile.shape", pointer: "/plan", message: consistency } };
  return { ok: true, value: proposal };
}

/** A plan must describe exactly the prepared records; a hand-made file with a fresh digest must still agree. */
function planConsistency(proposal: NotebookProposal): string | null {
  const byId = new Map(proposal.prepared.records.map((record) => [record.record_id, record]));
  if (byId.size !== proposal.prepared.records.length || proposal.plan.records.length !== byId.size) return "the plan does not cover each prepared record exactly once";
  for (const planned of proposal.plan.records) {
    const record = byId.get(planned.record_id);
    if (record === undefined || record.operation !== planned.operation) return `the plan for ${planned.record_id} does not match the prepared record`;
    if (sha256Hex(record.markdown) !== planned.next_sha256) return `the planned bytes of ${planned.record_id} do not match its Markdown`;
    if (record.operation === "update" && record.expected_sha256 !== planned.before_sha256) return `the expected hash of ${planned.record_id} does not match the plan`;
    if (record.operation === "create" && (planned.before_sha256 !== null || planned.path !== `records/${record.record_id}.md`)) {
      return `the create of ${planned.record_id} must target records/${record.record_id}.md`;
    }
  }
  return null;
}
