// The Notebook orders file names, paths, record ids and diagnostics as the reference does: with
// localeCompare (observer.md: "Sorting always uses default-locale localeCompare"), so receipts,
// plans and diagnostic lists come out in the same order ("memo-b.md" before "Memo-c.md" and "a_b"
// before "a-b" before "ab", where code units would put "Memo-c.md" first). The locale is pinned to en-US
// like every reference-compatible ordering in Docket (server/judgment/json.ts says why); the
// code-unit tie-break gives one order to strings the collation ranks equal.
import { compareCodeUnits } from "../ledger/canonicalJson";
import { compareText } from "../judgment/json";

export function compareNotebookText(left: string, right: string): number {
  return compareText(left, right) || compareCodeUnits(left, right);
}
