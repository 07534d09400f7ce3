// The store hands its replayer the closed-scope and accepted-event listeners only when it was
// given them (a store nobody listens to no longer builds every closing scope's ScopeState). A
// store with listeners must still see every closed scope's final state and every accepted event,
// in order, across a first read, an appended read and a rewritten file (a fresh replayer); a
// store without them must replay exactly the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LedgerStore } from "../../server/ledger/store";
import { replayEntries } from "../../server/ledger/replay";
import type { Envelope } from "../../server/ledger/envelope";
import type { ScopeState } from "../../server/developer/scopeState";
import { cycleScopesEntries, ledgerLines, longScopeEntries } from "../support/generatedCycles";

function tempLedger(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-listeners-"));
  fs.mkdirSync(path.join(directory, ".docket"));
  return path.join(directory, ".docket", "ledger.jsonl");
}

interface Heard {
  readonly closed: ScopeState[];
  readonly accepted: { readonly eventId: string; readonly storedIndex: number; readonly ordinal: number }[];
}

function listeningStore(ledgerPath: string): { store: LedgerStore; heard: Heard } {
  const heard: Heard = { closed: [], accepted: [] };
  const store = new LedgerStore(ledgerPath, {
    onScopeClosed: (state) => heard.closed.push(state),
    onAccepted: (accepted, ordinal) => heard.accepted.push({ eventId: accepted.envelope.eventId, storedIndex: accepted.storedIndex, ordinal }),
  });
  return { store, heard };
}

/** What the listeners must have heard after reading `entries`: from an in-memory replay that keeps every event. */
function expectedHearing(entries: readonly unknown[]): { closedIds: string[]; closed: Map<string, ScopeState>; accepted: Heard["accepted"] } {
  const replayer = replayEntries(entries);
  const accepted = replayer.dispositions
    .filter((disposition) => disposition.status === "accepted")
    .map((disposition, ordinal) => ({ eventId: (disposition as { eventId: string }).eventId, storedIndex: disposition.index, ordinal }));
  const closed = new Map<string, ScopeState>();
  for (const scope of replayer.scopes()) if (scope.root.status === "closed") closed.set(scope.workScopeId, scope);
  // Scopes close in the order of their closing events, each a closed scope's last accepted event.
  const lastEvent = new Map<string, number>();
  for (const disposition of replayer.dispositions) {
    if (disposition.status === "accepted") lastEvent.set((entries[disposition.index] as Envelope).workScopeId, disposition.index);
  }
  const closedIds = [...closed.keys()].sort((left, right) => (lastEvent.get(left) as number) - (lastEvent.get(right) as number));
  return { closedIds, closed, accepted };
}

const cycles = cycleScopesEntries(12);
const open = longScopeEntries("scope:still-open", 45);
// A duplicate of an accepted event (rejected) between the closed scopes and the open one.
const entries: unknown[] = [...cycles.slice(0, 130), cycles[5] as Envelope, ...cycles.slice(130), ...open];

function checkHearing(heard: Heard, upTo: readonly unknown[]): void {
  const expected = expectedHearing(upTo);
  assert.deepEqual(heard.accepted, expected.accepted);
  assert.deepEqual(
    heard.closed.map((state) => state.workScopeId),
    expected.closedIds,
  );
  for (const state of heard.closed) assert.deepEqual(state, expected.closed.get(state.workScopeId), `closed scope ${state.workScopeId}`);
}

test("a store with listeners hears every accepted event and every closed scope's final state, read at once or appended", () => {
  const lines = ledgerLines(entries);
  const ledgerPath = tempLedger();
  const cut = 97;
  fs.writeFileSync(ledgerPath, lines.slice(0, cut).join(""));
  const { store, heard } = listeningStore(ledgerPath);
  store.refresh();
  checkHearing(heard, entries.slice(0, cut));
  fs.appendFileSync(ledgerPath, lines.slice(cut).join(""));
  store.refresh();
  checkHearing(heard, entries);
  assert.equal(heard.closed.length, 12);

  const quiet = new LedgerStore(ledgerPath);
  const { dispositions } = quiet.refresh();
  assert.deepEqual(dispositions, store.replayer.dispositions);
  assert.deepEqual(quiet.replayer.dispositions, replayEntries(entries).dispositions);
  assert.deepEqual(quiet.replayer.scopes(), store.replayer.scopes());
  assert.deepEqual(quiet.replayer.scopeListings(), store.replayer.scopeListings());
});

test("a rewritten ledger gives the store a fresh replayer that still reports to its listeners", () => {
  const lines = ledgerLines(entries);
  const ledgerPath = tempLedger();
  fs.writeFileSync(ledgerPath, lines.join(""));
  const { store, heard } = listeningStore(ledgerPath);
  store.refresh();
  checkHearing(heard, entries);
  // A shorter file with other bytes: the store starts over from the first line.
  const shorter = entries.slice(0, 60);
  fs.rmSync(ledgerPath);
  fs.writeFileSync(ledgerPath, ledgerLines(shorter).join(""));
  heard.closed.length = 0;
  heard.accepted.length = 0;
  store.refresh();
  checkHearing(heard, shorter);
  assert.ok(heard.closed.length >= 2, "the rewritten ledger closes scopes again");
});
