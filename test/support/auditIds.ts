// What differs between two runs of the audit scenario (scripts/audit-example.mjs): the ledger's
// occurredAt comes from the clock, so every event hash, every id derived after it and every commit
// that carries the ledger change. Tests compare audit output with those made placeholders.
export function normalizeIds(text: string): string {
  return text
    .replace(/[0-9a-f]{64}/gu, "<sha256>")
    .replace(/[0-9a-f]{40}/gu, "<commit>")
    .replace(/\b(scope|landing|change|frame):[0-9a-f]{8,}/gu, "$1:<id>")
    .replace(/`[0-9a-f]{12}`/gu, "`<commit>`");
}
