import { test } from "node:test";
import assert from "node:assert/strict";
import { replayEntries } from "../../server/ledger/replay";
import { describeHistory } from "../../server/developer/history";
import { closeScope, next, openScope, refOf, sha } from "../support/envelopes";

function outcomes(raws: unknown[]): string[] {
  return replayEntries(raws).dispositions.map((d) => (d.status === "accepted" ? "accepted" : d.code));
}

test("mixed log gets the reference dispositions and replay continues after rejections", () => {
  const first = openScope("scope:first");
  const second = openScope("scope:second");
  const unknown = next(first, "mystery-kind", {});
  const unresolved = closeScope(first, "User disabled Developer.", {
    causalRefs: [{ workScopeId: first.workScopeId, eventId: first.eventId, eventSha256: sha("3") }],
  });
  const corrected = closeScope(first);
  const broken = closeScope(first, "Broken.", { eventId: "event:broken-chain", scopeSequence: 9, previousScopeEventSha256: corrected.eventSha256 });
  const foreign = { protocolVersion: "foreign/runtime", eventId: "legacy:event" };
  const replay = replayEntries([foreign, {}, first, second, unknown, unresolved, corrected, broken, first]);
  assert.deepEqual(
    replay.dispositions.map((d) => (d.status === "accepted" ? "accepted" : d.code)),
    [
      "unsupported-protocol",
      "invalid-envelope",
      "accepted",
      "accepted",
      "unknown-event-kind",
      "unresolved-causal-ref",
      "accepted",
      "scope-sequence-mismatch",
      "duplicate-event-id",
    ],
  );
  assert.deepEqual(
    replay.scopes().map((scope) => [scope.workScopeId, scope.root.status, scope.head.scopeSequence]),
    [
      ["scope:first", "closed", 1],
      ["scope:second", "open", 0],
    ],
  );
  const rejected = replay.dispositions[0];
  assert.ok(rejected !== undefined && rejected.status === "rejected");
  assert.deepEqual(rejected.observedIdentity, { protocolVersion: "foreign/runtime", eventId: "legacy:event" });
});

test("sequence and chain mismatches", () => {
  const first = openScope("scope:a");
  const skipped = closeScope(first, "Skipped.", { scopeSequence: 2 });
  const wrongPrevious = closeScope(first, "Done.", { previousScopeEventSha256: sha("9") });
  assert.deepEqual(outcomes([first, skipped, wrongPrevious]), ["accepted", "scope-sequence-mismatch", "scope-chain-mismatch"]);
});

test("scope lifecycle rules for opened and closed", () => {
  const first = openScope("scope:a");
  const reopen = next(first, "work-scope-opened", {});
  const closed = closeScope(first);
  const afterClose = closeScope(closed, "Again.");
  const notOpen = closeScope(openScope("scope:never"));
  const openWithSequence = next(first, "work-scope-opened", {}, { workScopeId: "scope:other", eventId: "event:other" });
  assert.deepEqual(outcomes([first, reopen, closed, afterClose, notOpen, openWithSequence]), [
    "accepted",
    "scope-already-open",
    "accepted",
    "semantic-transition-rejected",
    "scope-not-open",
    "scope-sequence-mismatch",
  ]);
});

test("work-scope-opened cannot carry causal refs; later events may cite any accepted event", () => {
  const first = openScope("scope:a");
  const second = openScope("scope:b");
  const withRef = { ...openScope("scope:c") };
  const citing = closeScope(first, "Closed.", { causalRefs: [refOf(second)] });
  const openWithRef = next(first, "work-scope-opened", {}, {
    workScopeId: "scope:c",
    eventId: "event:c",
    scopeSequence: 0,
    previousScopeEventSha256: null,
    causalRefs: [refOf(first)],
  });
  assert.deepEqual(outcomes([first, second, citing, openWithRef, withRef]), [
    "accepted",
    "accepted",
    "accepted",
    "unresolved-causal-ref",
    "accepted",
  ]);
});

test("payload rules for the scope kinds", () => {
  const first = openScope("scope:a");
  const badOpen = next(first, "work-scope-opened", { extra: 1 }, { workScopeId: "scope:b", eventId: "event:b", scopeSequence: 0, previousScopeEventSha256: null });
  const badClosure = next(first, "work-scope-closed", { closure: { reason: "Done.", reasonSha256: sha("1") } });
  const extraClosure = next(first, "work-scope-closed", { closure: { reason: "Done." } });
  const notObject = next(first, "work-scope-closed", []);
  const padded = next(first, "work-scope-closed", { closure: { reason: " Done.", reasonSha256: sha("1") } });
  assert.deepEqual(outcomes([first, badOpen, badClosure, extraClosure, notObject, padded]), [
    "accepted",
    "invalid-payload",
    "invalid-payload",
    "invalid-payload",
    "invalid-payload",
    "invalid-payload",
  ]);
});

test("history is blocked by a rejected entry or by two open scopes", () => {
  const first = openScope("scope:a");
  assert.equal(describeHistory(replayEntries([])).mode, "empty");
  assert.equal(describeHistory(replayEntries([first])).mode, "v8-active");
  assert.equal(describeHistory(replayEntries([first, closeScope(first)])).mode, "v8-closed");
  const twoOpen = describeHistory(replayEntries([first, openScope("scope:b")]));
  assert.equal(twoOpen.mode, "blocked");
  assert.match(twoOpen.blockedReason ?? "", /multiple open work scopes/u);
  const rejected = describeHistory(replayEntries([first, {}]));
  assert.equal(rejected.mode, "blocked");
  assert.match(rejected.blockedReason ?? "", /replay rejected entry 1: invalid-envelope/u);
});

test("trial application is rolled back exactly", () => {
  const first = openScope("scope:a");
  const replay = replayEntries([first]);
  const before = JSON.stringify({ s: replay.scopes(), d: replay.dispositions, a: replay.accepted.length });
  const trial = replay.trial([closeScope(first), openScope("scope:b"), {}]);
  assert.deepEqual(trial.dispositions.map((d) => d.status), ["accepted", "accepted", "rejected"]);
  assert.equal(JSON.stringify({ s: replay.scopes(), d: replay.dispositions, a: replay.accepted.length }), before);
  assert.equal(replay.firstRejected, null);
  assert.equal(replay.apply(closeScope(first)).status, "accepted");
});

test("replay never throws on hostile input", () => {
  const hostile: unknown[] = [null, 1, "x", [], { protocolVersion: 7 }, { protocolVersion: "developer/v8", payload: { toString: 1 } }, Object.create(null)];
  const replay = replayEntries(hostile);
  assert.equal(replay.dispositions.length, hostile.length);
  assert.ok(replay.dispositions.every((d) => d.status === "rejected"));
});
