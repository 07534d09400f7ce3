// judgment.md §11: Pi adapters (inventory builder, active-branch observed-context resolver) and
// their use through ContextAttempt.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  activeBranchToolResultIdentities,
  buildPiContextInventory,
  contextContentSha256,
  ContextAttempt,
  ContextSealError,
  hashJson,
  jsonValueFromUnknown,
  JudgmentParseError,
  piDescriptorId,
  resolveObservedContext,
  sha256,
  type PiBranchEntry,
} from "../../server/judgment";
import { compiledPolicy, ownerJson } from "../fixtures/judgment/builders";

const branch: PiBranchEntry[] = [
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: "reading" }, { type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.ts" } }] } },
  { type: "message", message: { role: "toolResult", toolCallId: "call-1", toolName: "read", isError: false, content: [{ type: "text", text: "exact source" }] } },
  { type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: "call-2", name: "bash" }] } },
  { type: "message", message: { role: "toolResult", toolCallId: "call-2", toolName: "bash", isError: true, content: [] } },
  { id: "entry-9", type: "message", message: { role: "user", content: "Keep the name." } },
  { type: "message", message: { role: "toolResult", toolCallId: "call-3", toolName: "grep", isError: false, content: [{ type: "image", data: Buffer.from("png").toString("base64"), mimeType: "image/png" }] } },
];

test("resolver maps a read call to read-result, others to tool-result, users to user-explicit", async () => {
  const resolved = resolveObservedContext({
    branchRef: "branch-1",
    branch,
    toolNominations: [{ toolCallId: "call-1", inventorySourceId: "context-a" }, { toolCallId: "call-2" }],
    userDecisionNominations: [{ userEventId: "entry-9" }],
  });
  const [read, bash, user] = resolved.observedContext.entries;
  assert.equal(read?.id, `result-${sha256("call-1").slice(0, 24)}`);
  assert.equal(read?.kind, "read-result");
  assert.equal(read?.kind === "read-result" ? read.inventorySourceId : undefined, "context-a");
  assert.equal(read?.kind === "read-result" ? read.argumentsSha256 : undefined, hashJson({ path: "a.ts" }));
  assert.equal(read?.sequence, 1);
  assert.deepEqual(read?.provenance, { source: "read", scope: "temporary", origin: "session" });
  assert.equal(bash?.kind, "tool-result");
  assert.equal(bash?.isError, true);
  assert.equal(bash?.kind === "tool-result" ? bash.argumentsSha256 : undefined, hashJson({}));
  assert.equal(bash?.contentSha256, contextContentSha256([{ kind: "text", text: "" }]));
  assert.equal(user?.id, `user-${sha256("entry-9").slice(0, 24)}`);
  assert.equal(user?.kind, "user-explicit");
  assert.deepEqual(await resolved.acquireObservedContext(read!), { parts: [{ kind: "text", text: "exact source" }], isError: false, truncated: false });
  assert.deepEqual(
    activeBranchToolResultIdentities(branch).map((r) => r.toolCallId),
    ["call-1", "call-2"],
  );
});

test("resolver rejects absent pairs, mismatched names, duplicates and unknown part types", () => {
  const resolve = (b: PiBranchEntry[], toolCallId = "call-1") => resolveObservedContext({ branchRef: "b", branch: b, toolNominations: [{ toolCallId }], userDecisionNominations: [] });
  assert.throws(() => resolve([]), /^JudgmentParseError: Tool call\/result pair is not present on the active branch: call-1\.$/u);
  assert.throws(() => resolve(branch, "call-3"), /not present on the active branch: call-3/u);
  const renamed = [branch[0]!, { type: "message", message: { role: "toolResult", toolCallId: "call-1", toolName: "write", isError: false, content: [] } }];
  assert.throws(() => resolve(renamed), /Tool call\/result names differ for call-1\./u);
  assert.throws(() => resolve([branch[0]!, branch[0]!, branch[1]!]), /Duplicate tool call ID on the active branch: call-1\./u);
  assert.throws(() => resolve([branch[0]!, branch[1]!, branch[1]!]), /Duplicate tool result ID on the active branch: call-1\./u);
  const odd = [branch[0]!, { type: "message", message: { role: "toolResult", toolCallId: "call-1", toolName: "read", isError: false, content: [{ type: "audio" }] } }];
  assert.throws(() => resolve(odd), (error: unknown) => error instanceof JudgmentParseError && error.message === "Unsupported tool-result content part at index 0.");
  assert.throws(
    () => resolveObservedContext({ branchRef: "b", branch, toolNominations: [], userDecisionNominations: [{ userEventId: "entry-0" }] }),
    /User decision is not present on the active branch: entry-0\./u,
  );
});

function piInventory() {
  const policy = compiledPolicy();
  const info = { path: "/p/skills/sketch/SKILL.md", source: "project-skills", scope: "project" as const, origin: "top-level" as const };
  return {
    policy,
    inventory: buildPiContextInventory({
      preparedProviders: [{ policyRoot: "/p/skills/sketch", policy }],
      skills: [
        { name: "sketch", description: "Sketches boundaries.", filePath: info.path, disableModelInvocation: false, sourceInfo: info },
        { name: "hidden", description: "Not for the model.", filePath: "/p/h/SKILL.md", disableModelInvocation: true, sourceInfo: info },
      ],
      contextFiles: [{ path: "/p/AGENTS.md", content: "Be careful." }],
      tools: [
        { name: "read", description: "Reads files.", sourceInfo: info },
        { name: "bash", description: "Runs commands.", sourceInfo: info },
      ],
      activeToolNames: ["read"],
    }),
  };
}

test("inventory builder: derived ids, reference provenance under the policy root, hidden skills skipped", () => {
  const { policy, inventory } = piInventory();
  const ref = inventory.sources.find((s) => s.kind === "prepared-reference");
  assert.equal(ref?.id, piDescriptorId("reference", { policySha256: policy.policySha256, path: "references/boundary.md" }));
  assert.equal(ref?.description, "Prepared reference for sketch.");
  assert.equal(ref?.provenance.path, "/p/skills/sketch/references/boundary.md");
  assert.deepEqual(
    inventory.sources.map((s) => s.kind).sort(),
    ["pi-context-file", "pi-skill", "prepared-reference"],
  );
  const file = inventory.sources.find((s) => s.kind === "pi-context-file");
  assert.equal(file?.kind === "pi-context-file" ? file.contentSha256 : undefined, contextContentSha256([{ kind: "text", text: "Be careful." }]));
  assert.deepEqual(
    inventory.capabilities.map((c) => [c.name, c.active]).sort(),
    [
      ["bash", false],
      ["read", true],
    ],
  );
  assert.match(ref?.id ?? "", /^reference-[0-9a-f]{24}$/u);
});

test("through ContextAttempt: references need admission; failure emits nothing; success seals", async () => {
  const { policy, inventory } = piInventory();
  const ref = inventory.sources.find((s) => s.kind === "prepared-reference");
  const resolved = resolveObservedContext({ branchRef: "open-call", branch, toolNominations: [{ toolCallId: "call-1" }], userDecisionNominations: [] });
  const questionJson = { judgmentId: "judgment-adapter", owner: ownerJson, question: "What does the active branch result support?", basisMaterialIds: [], branchRef: "open-call" };
  const attempt = ContextAttempt.open({ question: jsonValueFromUnknown(questionJson), applicability: jsonValueFromUnknown({ kind: "applicable", basis: ["A result needs a claim."] }) }).value;
  const referenceParts = [{ kind: "text" as const, text: "# Boundary\n" }];
  const proposal = jsonValueFromUnknown({
    questionSha256: attempt.state.question.questionSha256,
    nominations: [
      { kind: "inventory-source", inventorySourceId: ref?.id, descriptorSha256: ref?.descriptorSha256, contentSha256: contextContentSha256(referenceParts) },
      { kind: "observed-context", observedContextId: resolved.observedContext.entries[0]?.id, descriptorSha256: resolved.observedContext.entries[0]?.descriptorSha256 },
    ],
    selectionBasis: ["The read result and the boundary reference bear on the claim."],
  });
  const acquisition = {
    acquirePreparedReference: async () => ({ parts: referenceParts, isError: false, truncated: false }),
    acquireObservedContext: (entry: Parameters<typeof resolved.acquireObservedContext>[0]) => resolved.acquireObservedContext(entry),
  };
  await assert.rejects(attempt.selectAndSeal({ inventory, observedContext: resolved.observedContext, proposal, acquisition }), /Prepared reference belongs to an unadmitted policy/u);
  await assert.rejects(
    attempt.selectAndSeal({
      inventory,
      observedContext: resolved.observedContext,
      proposal,
      admittedPolicySha256s: [policy.policySha256],
      acquisition: { ...acquisition, acquirePreparedReference: async () => { throw new Error("gone"); } },
    }),
    (error: unknown) => error instanceof ContextSealError,
  );
  assert.equal(attempt.state.status, "selection-open");
  const done = await attempt.selectAndSeal({ inventory, observedContext: resolved.observedContext, proposal, admittedPolicySha256s: [policy.policySha256], acquisition });
  assert.deepEqual(
    done.events.map((e) => e.kind),
    ["selection-recorded", "sealed-context-recorded"],
  );
  assert.equal(done.value.status, "sealed");
});
