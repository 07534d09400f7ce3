// The Notebook manifest `<root>/.observer/notebook.json` (observer-notebook/v1, observer.md §5.1) and
// the coded issues every Notebook operation reports. The format is shared with the reference
// Observer, so the key set, the key order and the bytes (two-space JSON plus a newline) are fixed:
// a Notebook set up by either tool opens unchanged in the other.
import { randomUUID } from "node:crypto";
import * as z from "zod";
import type { NotebookDiagnostic } from "./diagnostics";

export const NOTEBOOK_SCHEMA = "observer-notebook/v1";
export const OBSERVER_DIRECTORY = ".observer";
export const MANIFEST_FILENAME = "notebook.json";
export const RECORDS_DIRECTORY = "records";
/** Present only while a publication is in flight (or was interrupted): the publication lock. */
export const ACTIVE_TRANSACTION_PATH = ".observer/transactions/active";

export const NotebookLanguage = z.enum(["en", "ko"]);
export type NotebookLanguage = z.infer<typeof NotebookLanguage>;

const NOTEBOOK_ID = /^notebook-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

export const NotebookManifest = z.strictObject({
  observer_notebook: z.literal(NOTEBOOK_SCHEMA),
  notebook_id: z.string().regex(NOTEBOOK_ID),
  default_language: NotebookLanguage,
});
export type NotebookManifest = z.infer<typeof NotebookManifest>;

export type NotebookIssueCode =
  | "notebook.io"
  | "notebook.path-empty"
  | "notebook.path-unsupported"
  | "notebook.path-missing"
  | "notebook.path-not-directory"
  | "notebook.layout-invalid"
  | "notebook.manifest-missing"
  | "notebook.manifest-invalid"
  | "notebook.manifest-unsupported"
  | "notebook.language-conflict"
  | "notebook.records-invalid"
  /** Status only: the publication lock `.observer/transactions/active` is present. */
  | "publication-transaction.active";

export interface NotebookIssue {
  readonly code: NotebookIssueCode;
  /** Absolute path of the file or folder at fault. */
  readonly path: string;
  readonly message: string;
  /** Only for `notebook.records-invalid`: the sorted record diagnostics. */
  readonly diagnostics?: readonly NotebookDiagnostic[];
}

export type NotebookResult<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly issue: NotebookIssue };

/** Thrown inside this module family only; every exported operation turns it into a NotebookResult. */
export class NotebookIssueError extends Error {
  constructor(readonly issue: NotebookIssue) {
    super(`${issue.code}: ${issue.message}`);
    this.name = "NotebookIssueError";
  }
}

export function notebookIssue(code: NotebookIssueCode, at: string, message: string, diagnostics?: readonly NotebookDiagnostic[]): NotebookIssue {
  return diagnostics === undefined ? { code, path: at, message } : { code, path: at, message, diagnostics };
}

export function failNotebook(code: NotebookIssueCode, at: string, message: string): never {
  throw new NotebookIssueError(notebookIssue(code, at, message));
}

export function isNotebookId(value: unknown): value is string {
  return typeof value === "string" && NOTEBOOK_ID.test(value);
}

/**
 * A foreign schema string is "unsupported" (a newer Observer wrote it; do not touch it) rather than
 * "invalid" (damaged), because the advice differs: upgrade versus repair.
 */
export function decodeNotebookManifest(value: unknown, at: string): NotebookResult<NotebookManifest> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, issue: notebookIssue("notebook.manifest-invalid", at, "the Notebook manifest must be a JSON object") };
  }
  const schema = (value as Record<string, unknown>)["observer_notebook"];
  if (typeof schema === "string" && schema !== NOTEBOOK_SCHEMA) {
    return { ok: false, issue: notebookIssue("notebook.manifest-unsupported", at, `the Notebook manifest is ${schema}; this Docket reads ${NOTEBOOK_SCHEMA}`) };
  }
  const parsed = NotebookManifest.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      issue: notebookIssue(
        "notebook.manifest-invalid",
        at,
        `the Notebook manifest must be exactly {observer_notebook: "${NOTEBOOK_SCHEMA}", notebook_id: "notebook-<uuid v4>", default_language: "en" | "ko"}`,
      ),
    };
  }
  return { ok: true, value: parsed.data };
}

export function parseManifestBytes(bytes: Uint8Array, at: string): NotebookResult<NotebookManifest> {
  let value: unknown;
  try {
    // ignoreBOM keeps a byte order mark in the text, so JSON.parse refuses it as the reference does.
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return { ok: false, issue: notebookIssue("notebook.manifest-invalid", at, "the Notebook manifest is not UTF-8 JSON") };
  }
  return decodeNotebookManifest(value, at);
}

/** The exact bytes both tools write: keys in schema order, two-space indentation, final newline. */
export function serializeManifest(manifest: NotebookManifest): string {
  const ordered = { observer_notebook: manifest.observer_notebook, notebook_id: manifest.notebook_id, default_language: manifest.default_language };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export function newManifest(language: NotebookLanguage): NotebookManifest {
  return { observer_notebook: NOTEBOOK_SCHEMA, notebook_id: `notebook-${randomUUID()}`, default_language: language };
}
