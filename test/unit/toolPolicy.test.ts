// The tool-policy table of developer/v8 §9.1–§9.2 as black-box cases.
import { test } from "node:test";
import assert from "node:assert/strict";
import { computeToolPolicy, type RuntimeFacts } from "../../server/developer/toolPolicy";
import { IDLE_SCOPE_FACTS } from "../support/runtimeFacts";

const idle: RuntimeFacts = IDLE_SCOPE_FACTS;

function row(facts: Partial<RuntimeFacts>): [string, string, string] {
  const policy = computeToolPolicy({ ...idle, ...facts });
  return [policy.shell, policy.edit, policy.legalOperations.join(",")];
}

test("the §9.2 table", () => {
  assert.deepEqual(row({ scopeActive: false }), ["allow", "allow", ""]);
  assert.deepEqual(row({ blocked: true }), ["allow", "allow", ""]);
  assert.deepEqual(row({}), ["deny", "deny", "open_judgment"]);
  assert.deepEqual(row({ concludedFrameExists: true }), ["deny", "deny", "authorize_change,open_judgment"]);
  assert.deepEqual(row({ openFrame: true }), ["deny", "deny", "open_context_sources,conclude_judgment"]);
  assert.deepEqual(row({ authorizationActive: true, concludedFrameExists: true }), ["allow", "allow", "record_landing"]);
  assert.deepEqual(row({ reroutePending: true, verificationPending: true, concludedFrameExists: true }), ["deny", "deny", "open_judgment"]);
  assert.deepEqual(row({ verificationPending: true, openFrame: true }), ["deny", "deny", "open_context_sources,conclude_judgment"]);
});

test("an impossible authorization under pending debt fails closed", () => {
  assert.deepEqual(row({ authorizationActive: true, reroutePending: true }), ["deny", "deny", "record_landing"]);
});

test("a denial names the next legal operation; nextAction is the first legal operation", () => {
  const denied = computeToolPolicy(idle);
  assert.equal(denied.nextAction, "open_judgment");
  assert.match(denied.reason ?? "", /change authorization.*Next legal operation: open_judgment\./u);
  const debt = computeToolPolicy({ ...idle, reroutePending: true });
  assert.match(debt.reason ?? "", /reroute or verification debt/u);
  const off = computeToolPolicy({ ...idle, scopeActive: false });
  assert.equal(off.nextAction, null);
  assert.equal(off.reason, null);
  assert.equal(off.governing, false);
});
