// judgment.md §5: inventory, observed context, selection proposal and selectContext.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  contextContentSha256,
  inventoryFromJson,
  jsonValueFromUnknown,
  JudgmentParseError,
  observedContextFromJson,
  selectContext,
  selectionProposalFromJson,
  sha256,
  type ContextInventory,
  type DynamicJudgmentQuestion,
  type ObservedContext,
} from "../../server/judgment";
import { compiledPolicy, inventory, observed, question, referenceParts, sessionProvenance } from "../fixtures/judgment/builders";

const INVENTORY_SHA256 = "fd7d2fbd3b46042377c9b4e884568ce47bdf391c87bf231e7d53a1d6d441c282";
const SKILL_DESCRIPTOR_SHA256 = "91cd39541f6d3e459f3b293bc075942f83d16f0bc825522bfc08fc1356f9cabd";
const OBSERVED_SHA256 = "25164140e4d53b8be75c971c2d0f95347f885ead39ae9586e879b1698e75ef39";
const RESULT_DESCRIPTOR_SHA256 = "0fc328187b07f318ee51e02ef440833f27ac41a4c64d6bc14143003612db4797";
const SELECTION_SHA256 = "c262b5c3a6eb070796611d2274283243ff42a084f60df4a1e8a08fac87d6f924";

function rejects(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => {
    if (!(error instanceof JudgmentParseError)) return false;
    return typeof message === "string" ? error.message === message : message.test(error.message);
  });
}

const provenance = { source: "test", scope: "temporary", origin: "top-level" };
const contextFile = (id: string, path: string) => ({
  id,
  kind: "pi-context-file",
  title: "AGENTS.md",
  description: "Project instructions.",
  provenance,
  path,
  contentSha256: contextContentSha256([{ kind: "text", text: "ctx" }]),
});

interface Fixture {
  readonly q: DynamicJudgmentQuestion;
  readonly inv: ContextInventory;
  readonly obs: ObservedContext;
  readonly policySha256: string;
}
function fixture(extraSources: readonly unknown[] = []): Fixture {
  const policy = compiledPolicy();
  return { q: question({ policySha256: policy.policySha256 }), inv: inventory(policy.policySha256, extraSources), obs: observed(), policySha256: policy.policySha256 };
}
function descriptor(inv: ContextInventory, id: string): string {
  return inv.sources.find((source) => source.id === id)?.descriptorSha256 ?? "";
}
function refNomination(f: Fixture, contentSha256: string | null = contextContentSha256(referenceParts)) {
  return {
    kind: "inventory-source",
    inventorySourceId: "reference-boundary",
    descriptorSha256: descriptor(f.inv, "reference-boundary"),
    ...(contentSha256 ? { contentSha256 } : {}),
  };
}
function obsNomination(f: Fixture, id: string) {
  return { kind: "observed-context", observedContextId: id, descriptorSha256: f.obs.entries.find((entry) => entry.id === id)?.descriptorSha256 };
}
function select(f: Fixture, nominations: readonly unknown[], extra: { admittedPolicySha256s?: readonly string[]; q?: DynamicJudgmentQuestion; obs?: ObservedContext } = {}) {
  const q = extra.q ?? f.q;
  const proposal = selectionProposalFromJson(jsonValueFromUnknown({ questionSha256: q.questionSha256, nominations, selectionBasis: ["The verifier result directly constrains the question."] }));
  return selectContext({
    question: q,
    inventory: f.inv,
    observedContext: extra.obs ?? f.obs,
    proposal,
    ...(extra.admittedPolicySha256s ? { admittedPolicySha256s: extra.admittedPolicySha256s } : {}),
  });
}

test("inventory and observed hashes are pinned; descriptors cross-checked by hand-built canonical strings", () => {
  const f = fixture();
  assert.equal(f.inv.inventorySha256, INVENTORY_SHA256);
  assert.equal(descriptor(f.inv, "skill-verify"), SKILL_DESCRIPTOR_SHA256);
  assert.equal(f.obs.observedContextSha256, OBSERVED_SHA256);
  assert.equal(f.obs.entries[0]?.descriptorSha256, RESULT_DESCRIPTOR_SHA256);
  assert.deepEqual(
    f.inv.sources.map((s) => s.id),
    ["reference-boundary", "skill-verify"],
  );
});

test("inventory: sorted by id; duplicate id, physical provenance and capability id rejected", () => {
  const f = fixture([contextFile("a-context", "/w/AGENTS.md")]);
  assert.deepEqual(
    f.inv.sources.map((s) => s.id),
    ["a-context", "reference-boundary", "skill-verify"],
  );
  const base = { sources: [contextFile("c1", "/w/AGENTS.md")], capabilities: [] as unknown[] };
  rejects(() => inventoryFromJson(jsonValueFromUnknown({ ...base, sources: [contextFile("c1", "/a"), contextFile("c1", "/b")] })), "Duplicate inventory source ID: c1.");
  rejects(
    () => inventoryFromJson(jsonValueFromUnknown({ ...base, sources: [contextFile("c1", "/a"), contextFile("c2", "/a")] })),
    "Duplicate inventory source provenance: pi-context-file:test:/a.",
  );
  const tool = { id: "t", kind: "pi-tool", name: "read", description: "Reads.", active: false, provenance: sessionProvenance };
  rejects(() => inventoryFromJson(jsonValueFromUnknown({ ...base, capabilities: [tool, tool] })), "Duplicate capability ID: t.");
  rejects(() => inventoryFromJson(jsonValueFromUnknown({ ...base, extra: 1 })), "Context inventory has an invalid representation.");
  rejects(() => inventoryFromJson(jsonValueFromUnknown({ sources: [{ ...contextFile("c", "/a"), kind: "web-page" }], capabilities: [] })), /invalid representation/u);
  rejects(() => inventoryFromJson(jsonValueFromUnknown({ sources: [{ ...contextFile("c", "/a"), title: " t" }], capabilities: [] })), "Expected directly normalized non-blank text at /sources/0/title.");
});

test("adding an unrelated source changes the inventory hash but not the selection hash", () => {
  const plain = fixture();
  const grown = fixture([contextFile("z-context", "/w/AGENTS.md")]);
  assert.notEqual(plain.inv.inventorySha256, grown.inv.inventorySha256);
  const a = select(plain, [refNomination(plain), obsNomination(plain, "result-1")]);
  const b = select(grown, [refNomination(grown), obsNomination(grown, "result-1")]);
  assert.equal(a.selectionSha256, SELECTION_SHA256);
  assert.equal(b.selectionSha256, a.selectionSha256);
  assert.notEqual(b.observedInventorySha256, a.observedInventorySha256);
});

test("observed context: sorted by (sequence, id); duplicate id, sequence and provenance rejected", () => {
  const entry = (id: string, sequence: number, callId: string) => ({
    id,
    kind: "tool-result",
    contentSha256: sha256("x"),
    isError: false,
    truncated: false,
    sequence,
    provenance: sessionProvenance,
    toolCallId: callId,
    toolName: "bash",
    argumentsSha256: sha256("{}"),
  });
  const parse = (entries: unknown[]) => observedContextFromJson(jsonValueFromUnknown({ branchRef: "b", entries }));
  assert.deepEqual(
    parse([entry("b", 2, "c2"), entry("a", 5, "c1")]).entries.map((e) => e.id),
    ["b", "a"],
  );
  rejects(() => parse([entry("a", 1, "c1"), entry("a", 2, "c2")]), "Duplicate observed context ID: a.");
  rejects(() => parse([entry("a", 1, "c1"), entry("b", 1, "c2")]), "Duplicate observed context sequence: 1.");
  rejects(() => parse([entry("a", 1, "c1"), entry("b", 2, "c1")]), "Duplicate observed context provenance: tool:c1.");
  rejects(() => parse([{ ...entry("a", 1, "c1"), sequence: 1.5 }]), "Observed context has an invalid representation.");
  rejects(() => parse([{ ...entry("a", 1, "c1"), sequence: 1_000_000_001 }]), "Observed context has an invalid representation.");
});

test("selection: bindings sorted by bindingId with expected content; branch and question must match", () => {
  const f = fixture();
  const selection = select(f, [obsNomination(f, "user-1"), refNomination(f), obsNomination(f, "result-1")]);
  assert.deepEqual(
    selection.bindings.map((b) => [b.bindingId, b.expectedContentSha256]),
    [
      ["inventory-source:reference-boundary", contextContentSha256(referenceParts)],
      ["observed-context:result-1", f.obs.entries[0]?.contentSha256],
      ["observed-context:user-1", f.obs.entries[1]?.contentSha256],
    ],
  );
  assert.equal(selection.policySha256, f.policySha256);
  rejects(() => select(f, [], { obs: observed({ branchRef: "branch-2" }) }), "Observed context belongs to another branch.");
  const other = question({ policySha256: f.policySha256, question: "Another question?" });
  rejects(
    () => selectContext({ question: other, inventory: f.inv, observedContext: f.obs, proposal: selectionProposalFromJson(jsonValueFromUnknown({ questionSha256: f.q.questionSha256, nominations: [], selectionBasis: ["b"] })) }),
    "Context selection proposal names another dynamic question.",
  );
});

test("selection refuses forged, unknown, unadmitted, digestless, error and truncated members", () => {
  const f = fixture();
  rejects(() => select(f, [{ ...refNomination(f), descriptorSha256: "0".repeat(64) }]), "Selected inventory source changed: reference-boundary.");
  rejects(() => select(f, [{ ...obsNomination(f, "result-1"), descriptorSha256: "0".repeat(64) }]), "Selected observed context changed: result-1.");
  rejects(() => select(f, [{ ...refNomination(f), inventorySourceId: "nope" }]), "Unknown inventory source: nope.");
  rejects(() => select(f, [{ ...obsNomination(f, "result-1"), observedContextId: "nope" }]), "Unknown observed context: nope.");
  rejects(() => select(f, [refNomination(f, null)]), "Selected prepared reference requires a content digest: reference-boundary.");
  const unbound = question();
  rejects(() => select(f, [refNomination(f)], { q: unbound }), "Prepared reference belongs to an unadmitted policy: reference-boundary.");
  assert.equal(select(f, [refNomination(f)], { q: unbound, admittedPolicySha256s: [f.policySha256] }).bindings.length, 1);
  for (const flags of [{ error: true }, { truncated: true }]) {
    const obs = observed(flags);
    const nomination = { kind: "observed-context", observedContextId: "result-1", descriptorSha256: obs.entries[0]?.descriptorSha256 };
    rejects(() => select(f, [nomination], { obs }), "Error or truncated context cannot be selected: result-1.");
  }
  rejects(() => select(f, [refNomination(f), refNomination(f)]), "Context member nominated more than once: inventory:reference-boundary.");
});

test("skills and context files: expected content comes from the descriptor; metadata skills claim none", () => {
  const withContent = {
    id: "skill-full",
    kind: "pi-skill",
    title: "full",
    description: "Has a body.",
    provenance: { ...provenance, path: "/s/full/SKILL.md" },
    contentSha256: sha256("body"),
  };
  const f = fixture([contextFile("ctx", "/w/AGENTS.md"), withContent]);
  const nominate = (id: string, contentSha256?: string) => ({ kind: "inventory-source", inventorySourceId: id, descriptorSha256: descriptor(f.inv, id), ...(contentSha256 ? { contentSha256 } : {}) });
  const selection = select(f, [nominate("ctx"), nominate("skill-full"), nominate("skill-verify")]);
  assert.deepEqual(
    selection.bindings.map((b) => [b.memberId, b.expectedContentSha256 ?? null]),
    [
      ["ctx", contextContentSha256([{ kind: "text", text: "ctx" }])],
      ["skill-full", sha256("body")],
      ["skill-verify", null],
    ],
  );
  rejects(() => select(f, [nominate("ctx", sha256("other"))]), "Pi context-file nomination has a conflicting content digest: ctx.");
  rejects(() => select(f, [nominate("skill-full", sha256("other"))]), "Pi skill nomination has a conflicting content digest: skill-full.");
  rejects(() => select(f, [nominate("skill-verify", sha256("other"))]), "Pi skill metadata nomination cannot claim loaded content: skill-verify.");
});

test("changing the question, policy, branch, basis or a selected descriptor stales the selection", () => {
  const f = fixture();
  const base = select(f, [obsNomination(f, "result-1")]).selectionSha256;
  const q2 = question({ policySha256: f.policySha256, basisMaterialIds: ["m"] });
  assert.notEqual(select(f, [obsNomination(f, "result-1")], { q: q2 }).selectionSha256, base);
  const proposal = selectionProposalFromJson(jsonValueFromUnknown({ questionSha256: f.q.questionSha256, nominations: [obsNomination(f, "result-1")], selectionBasis: ["Another basis."] }));
  assert.notEqual(selectContext({ question: f.q, inventory: f.inv, observedContext: f.obs, proposal }).selectionSha256, base);
});
