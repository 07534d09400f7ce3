// An append costs the same however long the ledger (issue 16): the write path's own reads — the
// history check and the hook seed — use what the replayer keeps for open scopes, never a walk over
// every accepted event or scope. Per-append CPU on a 50,000-event store stays within a small
// multiple of a 500-event one's.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LedgerStore } from "../../server/ledger/store";
import { describeHistory } from "../../server/developer/history";
import { tailSeedOf } from "../../server/hooks/tailSeed";
import { scopeClosedDraft, scopeOpenedDraft } from "../../server/developer/scopeOperations";
import { cycleScopesEntries, ledgerLines } from "../support/generatedCycles";

const APPENDS = 40;
/** Measured 0.9–1.3 on a busy 2-core machine; walking every accepted event per append measured far above. */
const MAX_RATIO = 2;

function storeOf(events: number): LedgerStore {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-append-"));
  fs.mkdirSync(path.join(directory, ".docket"));
  const ledgerPath = path.join(directory, ".docket", "ledger.jsonl");
  fs.writeFileSync(ledgerPath, ledgerLines(cycleScopesEntries(events / 20)).join(""));
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  assert.equal(store.fault, null);
  assert.equal(store.replayer.acceptedCount, events);
  return store;
}

/** CPU µs per append of a scope opening or closing, with the reads a writer does around it. */
async function cpuPerAppend(store: LedgerStore, tag: string): Promise<number> {
  const start = process.cpuUsage();
  for (let index = 0; index < APPENDS; index += 1) {
    const occurredAt = new Date(Date.UTC(2031, 0, 1, 0, 0, index)).toISOString();
    await store.append((current) => {
      const history = describeHistory(current.replayer);
      const active = history.activeScope;
      const draft =
        active === null
          ? scopeOpenedDraft(`scope:append-${tag}-${index}`, occurredAt)
          : scopeClosedDraft({ workScopeId: active.workScopeId, scopeSequence: active.head.scopeSequence, eventSha256: active.head.eventRef.eventSha256 }, "Done.", occurredAt);
      return { drafts: [draft], context: null };
    }, { afterAppend: (current) => assert.notEqual(tailSeedOf(current), null) });
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / APPENDS;
}

test("an append on a 50,000-event store costs the CPU of one on a 500-event store", async (t) => {
  const small = storeOf(500);
  const large = storeOf(50_000);
  await cpuPerAppend(small, "warm");
  const smallCosts: number[] = [];
  const largeCosts: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    smallCosts.push(await cpuPerAppend(small, `s${round}`));
    largeCosts.push(await cpuPerAppend(large, `l${round}`));
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[1] as number;
  const ratio = median(largeCosts) / median(smallCosts);
  t.diagnostic(`per-append CPU ${median(largeCosts).toFixed(0)} µs at 50,000 events vs ${median(smallCosts).toFixed(0)} µs at 500 (ratio ${ratio.toFixed(2)})`);
  assert.ok(ratio <= MAX_RATIO, `per-append CPU ratio ${ratio.toFixed(2)} exceeds ${MAX_RATIO}`);
});
