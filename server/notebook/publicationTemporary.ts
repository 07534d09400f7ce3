// The name of a publication temporary in `records/` (`.<name>.md.<uuid>.tmp`, the reference's),
// apart from the rest of the transaction files so the notebook reader can recognise one without
// loading the publication's schemas (docs/performance.md, "Notebook validation cache").
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const RECORD_TEMPORARY = new RegExp(`^\\.(.+\\.md)\\.${UUID}\\.tmp$`, "u");

/** The record a publication temporary in `records/` was for (`.<name>.md.<uuid>.tmp` → `<name>.md`), or null. */
export function publicationTemporaryTarget(name: string): string | null {
  return RECORD_TEMPORARY.exec(name)?.[1] ?? null;
}
