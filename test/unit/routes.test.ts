import { test } from "node:test";
import assert from "node:assert/strict";
import { hashValue } from "../../server/ledger/canonicalJson";
import { ValueError } from "../../server/ledger/values";
import {
  ROUTE_CATALOGUE,
  ROUTE_DEFINITION_IDS,
  createRouteDefinition,
  findRouteDefinition,
  parseRouteDefinition,
  requireRouteDefinition,
  routeCatalogueIndex,
  routeDefinitionSha256,
  type RouteDefinition,
} from "../../server/developer/routes";
import {
  ADAPTER_REVISION_SHA256,
  OPERATION_MAPPINGS,
  adapterCheckpointValue,
  findOperationMapping,
} from "../../server/developer/adapterRevision";

// Full values recomputed here; their first 8 hex agree with the `rev.` column of developer/v8 §4.1.
const EXPECTED_REVISIONS: readonly (readonly [string, string])[] = [
  ["route:meaning-settlement", "8b03213ec67534c935ce1930271742348ce198880e873a5db21fdb964e525057"],
  ["route:condition-settlement", "b1014cba4c830428a6b69e6164b665697527138e8c169989e391b4384a2e5ba6"],
  ["route:implementation-shaping", "40cee6b72f1b81e9b4d145d9f8e697eb29c961ca45fda4fe05618a962bb01b61"],
  ["route:structural-pressure-observation", "c26a110b828252c9de530a066915a88f070f7ca387f5a6b79b04c372e9a3c636"],
  ["route:name-sense-judgment", "fee209a3513bb57bcbcffe0eb12c8f5d9e5c6a7862681bc13a97587e8a4392d8"],
  ["route:candidate-reliability", "1dd60f74b47e8f7783d89205f6a4f4359b42e4593f9a1c936e7c3bdae900c69d"],
  ["route:change-timing", "9dfdd9637ffbec29008a8e2631506046e1ee56cf4fbee9a8c0f3620b973d6e5c"],
  ["route:claim-evidence-assessment", "5f503ecfa6622be2d520abe795178380957b76a1856c1c225ad36bd86ce1488f"],
];
const SPEC_PREFIXES = ["8b03213e", "b1014cba", "40cee6b7", "c26a110b", "fee209a3", "1dd60f74", "9dfdd963", "5f503ecf"];

function route(id: string): RouteDefinition {
  return requireRouteDefinition(id);
}

function asPlain(definition: RouteDefinition): Record<string, unknown> {
  return { ...definition };
}

test("catalogue has the eight routes in §4.1 order with the full revision hashes", () => {
  assert.deepEqual(ROUTE_DEFINITION_IDS, EXPECTED_REVISIONS.map(([id]) => id));
  assert.deepEqual(
    ROUTE_CATALOGUE.map((definition) => [definition.routeDefinitionId, definition.revisionSha256]),
    EXPECTED_REVISIONS,
  );
  assert.deepEqual(
    ROUTE_CATALOGUE.map((definition) => definition.revisionSha256.slice(0, 8)),
    SPEC_PREFIXES,
  );
});

test("revision hash is H({domain, value:{routeDefinitionId, sign, sense}})", () => {
  for (const definition of ROUTE_CATALOGUE) {
    const expected = hashValue({
      domain: "developer.route-definition/v1",
      value: { routeDefinitionId: definition.routeDefinitionId, sign: definition.sign, sense: definition.sense },
    });
    assert.equal(definition.revisionSha256, expected);
    assert.equal(routeDefinitionSha256(definition), expected);
  }
});

test("meaning-settlement revision equals the one used by the §2.5 mini log", () => {
  assert.equal(
    route("route:meaning-settlement").revisionSha256,
    "8b03213ec67534c935ce1930271742348ce198880e873a5db21fdb964e525057",
  );
});

test("two signs contain an EN DASH (U+2013), the others only ASCII", () => {
  assert.equal(route("route:name-sense-judgment").sign, "name\u2013sense judgment");
  assert.equal(route("route:claim-evidence-assessment").sign, "claim\u2013evidence assessment");
  const withEnDash = ROUTE_CATALOGUE.filter((definition) => definition.sign.includes("\u2013"));
  assert.deepEqual(
    withEnDash.map((definition) => definition.routeDefinitionId),
    ["route:name-sense-judgment", "route:claim-evidence-assessment"],
  );
  // A hyphen-minus in place of the dash is a different route revision.
  const hyphenated = { ...route("route:name-sense-judgment"), sign: "name-sense judgment" };
  assert.notEqual(routeDefinitionSha256(hyphenated), route("route:name-sense-judgment").revisionSha256);
  for (const definition of ROUTE_CATALOGUE) {
    assert.match(definition.sign.replace("\u2013", ""), /^[\x20-\x7e]+$/u);
  }
});

test("exact senses (they are hashed)", () => {
  assert.equal(
    route("route:change-timing").sense,
    "Decide whether a concrete change belongs now, after, or never under invariant pressure, evidence, reversibility, nested-work pressure, and delay cost.",
  );
  assert.equal(
    route("route:structural-pressure-observation").sense,
    "Determine whether observable structural movement warrants a bounded candidate without treating similarity as proof.",
  );
});

test("lookup by id and catalogue index", () => {
  assert.equal(findRouteDefinition("route:change-timing")?.sign, "change timing");
  assert.equal(findRouteDefinition("route:unknown"), undefined);
  assert.throws(() => requireRouteDefinition("route:unknown"), ValueError);
  assert.equal(routeCatalogueIndex("route:meaning-settlement"), 0);
  assert.equal(routeCatalogueIndex("route:claim-evidence-assessment"), 7);
  assert.equal(routeCatalogueIndex("route:unknown"), -1);
});

test("catalogue entries are frozen", () => {
  assert.ok(Object.isFrozen(ROUTE_CATALOGUE));
  for (const definition of ROUTE_CATALOGUE) assert.ok(Object.isFrozen(definition));
});

test("parse accepts every catalogue entry round-trip", () => {
  for (const definition of ROUTE_CATALOGUE) {
    assert.deepEqual(parseRouteDefinition(JSON.parse(JSON.stringify(definition))), definition);
  }
});

test("parse rejects missing and extra keys", () => {
  const valid = asPlain(route("route:change-timing"));
  assert.throws(() => parseRouteDefinition({ ...valid, note: "x" }), /note: is not allowed/u);
  const { sense: _sense, ...withoutSense } = valid;
  assert.throws(() => parseRouteDefinition(withoutSense), /sense: is required/u);
  assert.throws(() => parseRouteDefinition(null), ValueError);
  assert.throws(() => parseRouteDefinition([valid]), ValueError);
});

test("parse rejects a hash that does not match the wording", () => {
  const valid = asPlain(route("route:meaning-settlement"));
  assert.throws(
    () => parseRouteDefinition({ ...valid, sense: `${String(valid.sense)} Also more.` }),
    /revisionSha256: does not match/u,
  );
  assert.throws(
    () => parseRouteDefinition({ ...valid, revisionSha256: route("route:change-timing").revisionSha256 }),
    /does not match/u,
  );
  assert.throws(() => parseRouteDefinition({ ...valid, revisionSha256: "8B03213E".padEnd(64, "0") }), ValueError);
});

test("parse enforces the text rules: sign ≤500, no surrounding whitespace, non-blank, id grammar", () => {
  const base = { routeDefinitionId: "route:x", sign: "x", sense: "A sense." };
  assert.equal(createRouteDefinition(base).sign, "x");
  assert.equal(createRouteDefinition({ ...base, sign: "s".repeat(500) }).sign.length, 500);
  assert.throws(() => createRouteDefinition({ ...base, sign: "s".repeat(501) }), /sign: text is too long/u);
  assert.equal(createRouteDefinition({ ...base, sense: "s".repeat(4000) }).sense.length, 4000);
  assert.throws(() => createRouteDefinition({ ...base, sense: "s".repeat(4001) }), /sense: text is too long/u);
  assert.throws(() => createRouteDefinition({ ...base, sign: " x" }), /surrounding whitespace/u);
  assert.throws(() => createRouteDefinition({ ...base, sense: "A sense.\n" }), /surrounding whitespace/u);
  assert.throws(() => createRouteDefinition({ ...base, sign: "   " }), /non-blank/u);
  assert.throws(() => createRouteDefinition({ ...base, routeDefinitionId: "1route" }), ValueError);
  // Whitespace is rejected, not trimmed: a trimmed copy with the original hash must not sneak through.
  const padded = { ...asPlain(route("route:change-timing")), sign: "change timing " };
  assert.throws(() => parseRouteDefinition(padded), /surrounding whitespace/u);
});

test("adapter revision golden c8c7f237… from catalogue + six operation rows", () => {
  assert.equal(ADAPTER_REVISION_SHA256, "c8c7f2378a29ed4f3912b1dd0c74781886163743a0a43c432c6bcb70c046a478");
  assert.equal(hashValue(adapterCheckpointValue()), ADAPTER_REVISION_SHA256);
  assert.deepEqual(
    OPERATION_MAPPINGS.map((row) => [row.sourceOperation, row.frameEffect, row.skillEffect, row.rootEffect, row.performsTransition]),
    [
      ["/developer on", "none", "none", "establish-work-scope", false],
      ["developer_open_judgment", "open-explicit-frame", "candidate-only-0..N", "observe-only", false],
      ["developer_open_context_sources", "preserve-open-frame", "candidate-only-0..N", "observe-only", false],
      ["developer_conclude_judgment", "propose-guarded-conclusion", "candidate-support-only", "observe-only", false],
      ["developer_authorize_change", "require-concluded-frame", "none", "authorize-separately", false],
      ["developer_record_landing", "declare-reroute-and-verification-debt", "none", "record-landing-only", false],
    ],
  );
  assert.equal(findOperationMapping("developer_record_landing")?.rootEffect, "record-landing-only");
  assert.equal(findOperationMapping("open_judgment"), undefined);
});

test("adapter revision is sensitive to route order and to each row", () => {
  const value = adapterCheckpointValue();
  const reversed = { ...value, routeDefinitions: [...value.routeDefinitions].reverse() };
  assert.notEqual(hashValue(reversed), ADAPTER_REVISION_SHA256);
  const changedRow = {
    ...value,
    operationMappings: value.operationMappings.map((row, index) => (index === 0 ? { ...row, frameEffect: "open-explicit-frame" } : row)),
  };
  assert.notEqual(hashValue(changedRow), ADAPTER_REVISION_SHA256);
});
