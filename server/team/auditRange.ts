// A revision range as `docket audit` accepts it, checked before Git sees it: `FROM..TO` (the
// commits of TO that FROM lacks) or a single `TO` (all of TO's history). Pure.
import { AuditError } from "./auditError";

export interface AuditRange {
  readonly from: string | null;
  readonly to: string;
}

/** Refuses what Git could read as an option, a symmetric difference or anything with control characters. */
export function parseAuditRange(range: string): AuditRange {
  const refuse = (why: string): never => {
    throw new AuditError("docket.audit-range-invalid", `${JSON.stringify(range)} is not a range docket audit reads: ${why}`, 2);
  };
  // eslint-disable-next-line no-control-regex
  if (range.trim() === "") return refuse("it is empty");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/u.test(range)) return refuse("it holds a space or a control character");
  if (range.startsWith("-")) return refuse("it begins with '-' (Git would read it as an option)");
  if (range.includes("...")) return refuse("a symmetric difference (A...B) also lists the base's own commits; use A..B");
  const parts = range.split("..");
  if (parts.length > 2) return refuse("it holds '..' more than once");
  if (parts.some((part) => part === "")) return refuse("both sides of '..' must name a revision");
  if (parts.some((part) => part.startsWith("-"))) return refuse("a side begins with '-' (Git would read it as an option)");
  return parts.length === 1 ? { from: null, to: parts[0] as string } : { from: parts[0] as string, to: parts[1] as string };
}
