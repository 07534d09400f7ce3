// The Notebook manifest's fixed format (observer-notebook/v1, observer.md §5.1) and the coded issues
// every Notebook operation reports, without zod: `docket notebook validate` runs from a small bundle
// of its own (docs/performance.md, "Notebook validation cache"), and a sound manifest is recognised
// here by an exact check. Anything else goes to the zod schema in manifest.ts, which decides and
// words the refusal, so both give one answer (test/unit/notebookValidationCache.test.ts holds the
// exact check to the schema). manifest.ts re-exports all of this; import from there elsewhere.
import { randomUUID } from "node:crypto";
import type { NotebookDiagnostic } from "./diagnostics";

export const NOTEBOOK_SCHEMA = "observer-notebook/v1";
export const OBSERVER_DIRECTORY = ".observer";
export const MANIFEST_FILENAME = "notebook.json";
export const RECORDS_DIRECTORY = "records";
/** Present only while a publication is in flight (or was interrupted): the publication lock. */
export const ACTIVE_TRANSACTION_PATH = ".observer/transactions/active";

export const NOTEBOOK_LANGUAGES = ["en", "ko"] as const;
export type NotebookLanguage = (typeof NOTEBOOK_LANGUAGES)[number];

export const NOTEBOOK_ID = /^notebook-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

export interface NotebookManifest {
  observer_notebook: typeof NOTEBOOK_SCHEMA;
  notebook_id: string;
  default_language: NotebookLanguage;
}

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
 * The manifest, when `value` is certainly a valid one: a plain object with exactly the three keys,
 * each holding an accepted value. Undefined for anything else, which the zod schema then judges.
 */
export function certainManifest(value: unknown): NotebookManifest | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  if (Object.keys(value).length !== 3) return undefined;
  const fields = value as Record<string, unknown>;
  const { observer_notebook: schema, notebook_id: id, default_language: language } = fields;
  if (!Object.hasOwn(fields, "observer_notebook") || !Object.hasOwn(fields, "notebook_id") || !Object.hasOwn(fields, "default_language")) return undefined;
  if (schema !== NOTEBOOK_SCHEMA || typeof id !== "string" || !NOTEBOOK_ID.test(id) || (language !== "en" && language !== "ko")) return undefined;
  return { observer_notebook: schema, notebook_id: id, default_language: language };
}

export function parseManifestBytes(bytes: Uint8Array, at: string): NotebookResult<NotebookManifest> {
  let value: unknown;
  try {
    // ignoreBOM keeps a byte order mark in the text, so JSON.parse refuses it as the reference does.
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return { ok: false, issue: notebookIssue("notebook.manifest-invalid", at, "the Notebook manifest is not UTF-8 JSON") };
  }
  const certain = certainManifest(value);
  if (certain !== undefined) return { ok: true, value: certain };
  // Loaded only here: zod decides and words every other case (and the validate bundle stays small).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("./manifest") as typeof import("./manifest")).decodeNotebookManifest(value, at);
}

/** The exact bytes both tools write: keys in schema order, two-space indentation, final newline. */
export function serializeManifest(manifest: NotebookManifest): string {
  const ordered = { observer_notebook: manifest.observer_notebook, notebook_id: manifest.notebook_id, default_language: manifest.default_language };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export function newManifest(language: NotebookLanguage): NotebookManifest {
  return { observer_notebook: NOTEBOOK_SCHEMA, notebook_id: `notebook-${randomUUID()}`, default_language: language };
}
