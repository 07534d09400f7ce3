// The ledger against its head anchor, read from the anchored head line's bytes alone (no full
// read): the check every checkpoint reader (hooks, `docket status`) makes before believing one.
import { lineShaOfText, readAnchor, type LedgerAnchor } from "../ledger/anchor";
import { readAt, type OpenLedger } from "./checkpoint";
import { anchorAfterMerge } from "../ledger/mergeRecord";

export type Anchored = { readonly kind: "ok"; readonly anchor: LedgerAnchor | null } | { readonly kind: "fault"; readonly reason: string };

export function checkAnchor(ledger: OpenLedger): Anchored {
  const read = readAnchor(ledger.root, ledger.ledgerPath);
  if (read.kind === "none") return { kind: "ok", anchor: null };
  if (read.kind === "invalid") return { kind: "fault", reason: `the ledger's head anchor cannot be used (${read.why}); run \`docket ledger verify\`` };
  const anchor = read.anchor;
  if (anchor.head === null) return { kind: "ok", anchor };
  const cut = `the ledger no longer reaches the head anchor Docket recorded (${anchor.lines} lines): lines were cut from its end or rewritten; run \`docket ledger verify\``;
  if (ledger.size >= anchor.bytes) {
    const text = readAt(ledger.fd, anchor.head.offset, anchor.head.length).toString("utf8");
    if (text.endsWith("\n") && lineShaOfText(text) === anchor.head.lineSha256) return { kind: "ok", anchor };
  }
  // A merge that renumbered this clone's lines left a record of the exact result (mergeRecord.ts);
  // the head checks here match this check's own depth, the store hashes the whole file.
  const merged = anchorAfterMerge(ledger.root, ledger.ledgerPath, anchor, ledger.fd, ledger.size, false);
  return merged === null ? { kind: "fault", reason: cut } : { kind: "ok", anchor: merged };
}
