// Routing replay (§4.3–§4.4, §10 runtime-replay "snapshot replacement drops stale pages; empty
// replacement completes" and routing-context cases). Expected dispositions were produced by the
// reference's replayDeveloperRuntime on the same logs; projection hashes equal the reference's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { canServeBases, routingSnapshots } from "../support/reducerScenarios";
import { outcomes, replayOf, projectionOf } from "../support/scenarioReplay";

test("snapshots: current frame only, pages in order, replacement drops stale pages, empty replacement completes", () => {
  const replay = replayOf(routingSnapshots());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "ok",
    "routing-state-missing", // stale frame revision
    "invalid-payload", // manifest does not seal this basis
    "ok",
    "routing-state-missing", // a second snapshot for the same revision
    "invalid-payload", // page 1 before page 0
    "invalid-payload", // one disposition for two candidates
    "invalid-payload", // page hash drift
    "ok",
    "invalid-payload", // coverage incomplete
    "ok", // empty replacement
    "routing-state-missing", // the replaced snapshot's page
    "routing-state-missing", // coverage hash mismatch
    "ok",
    "routing-state-missing", // already completed
    "invalid-payload", // nothing was selected
    "routing-state-missing",
  ]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  assert.deepEqual(scope.snapshots.map((entry) => [entry.snapshotId, entry.status]), [["snapshot:2", "completed"]]);
  assert.ok(scope.frames[0]?.routing !== null);
  assert.equal(projectionOf(replay), "f62824c1b96edce0641c061fd817884ae7fcc2796ad89590e172de45681b6f07");
});

test("blocked effects prevent completion; can-serve needs a selected capability and canonical frame targets", () => {
  const replay = replayOf(canServeBases());
  assert.deepEqual(outcomes(replay), [
    "ok",
    "ok",
    "ok",
    "ok",
    "invalid-payload", // a blocked obligation keeps coverage incomplete
    "ok",
    "ok",
    "routing-state-missing", // basis before completion
    "ok",
    "invalid-payload", // a selected material cannot serve
    "invalid-payload", // targets out of order
    "invalid-payload", // target outside the frame
    "basis-missing", // basis hash mismatch
    "ok",
    "basis-missing", // basis id reused
    "invalid-payload",
  ]);
  const scope = replay.scope("scope:s");
  assert.ok(scope !== undefined);
  assert.deepEqual(scope.bases.map((entry) => entry.basisId), ["basis:1"]);
  assert.equal(projectionOf(replay), "942d1a50bb9670b0d5cee17737b86d30cb2b574cf186c9067637b219dd6afc5d");
});
