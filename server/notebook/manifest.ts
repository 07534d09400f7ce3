// The Notebook manifest `<root>/.observer/notebook.json` (observer-notebook/v1, observer.md §5.1) and
// the coded issues every Notebook operation reports. The format is shared with the reference
// Observer, so the key set, the key order and the bytes (two-space JSON plus a newline) are fixed:
// a Notebook set up by either tool opens unchanged in the other. The zod-free part (constants,
// issues, reading and writing the bytes) is manifestFormat.ts; this file adds the zod schemas.
import * as z from "zod";
import { NOTEBOOK_ID, NOTEBOOK_LANGUAGES, NOTEBOOK_SCHEMA, notebookIssue, type NotebookManifest as ManifestShape, type NotebookResult } from "./manifestFormat";

export * from "./manifestFormat";

export const NotebookLanguage = z.enum(NOTEBOOK_LANGUAGES);
export type NotebookLanguage = z.infer<typeof NotebookLanguage>;

export const NotebookManifest = z.strictObject({
  observer_notebook: z.literal(NOTEBOOK_SCHEMA),
  notebook_id: z.string().regex(NOTEBOOK_ID),
  default_language: NotebookLanguage,
});
export type NotebookManifest = z.infer<typeof NotebookManifest>;

// The schema's type and manifestFormat's hand-written one are the same type.
const sameShape: [ManifestShape, NotebookManifest] = [{} as NotebookManifest, {} as ManifestShape];
void sameShape;

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
