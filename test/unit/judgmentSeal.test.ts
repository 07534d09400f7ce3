// judgment.md §6: content digests, sealing (all-or-nothing, byte limits, flags, abort) and the
// contained local reference reader over real temp directories.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ContextSealError,
  contextContentSha256,
  createLocalReferenceReader,
  createNodeLocalReferenceReader,
  decodeSealedContextProposalData,
  jsonValueFromUnknown,
  JudgmentParseError,
  parseSealedContext,
  preparedReferenceAcquisition,
  sealContext,
  selectAndSealContext,
  selectContext,
  selectionProposalFromJson,
  sha256,
  type ContextSelection,
  type JudgmentFileSystem,
  type PreparedReferenceDescriptor,
} from "../../server/judgment";
import { acquisition, compiledPolicy, inventory, observed, question, referenceParts, referenceText, sealedChain, toolParts } from "../fixtures/judgment/builders";

const SEALED_CONTEXT_SHA256 = "5eb8d041e15c8a53971674b1c9bf9331c6a002218d5806c8a4f41acbc9c2728d";

function sealError(message: string | RegExp) {
  return (error: unknown) => error instanceof ContextSealError && error.code === "JUDGMENT_CONTEXT_SEAL_FAILED" && (typeof message === "string" ? error.message === message : message.test(error.message));
}

async function selection(ids: readonly string[] = ["result-1"], withReference = true): Promise<ContextSelection> {
  const chain = await sealedChain(ids);
  if (withReference) return chain.selection;
  const entry = chain.observed.entries.find((e) => e.id === ids[0]);
  const proposal = selectionProposalFromJson(
    jsonValueFromUnknown({
      questionSha256: chain.question.questionSha256,
      nominations: [{ kind: "observed-context", observedContextId: entry?.id, descriptorSha256: entry?.descriptorSha256 }],
      selectionBasis: ["b"],
    }),
  );
  return selectContext({ question: chain.question, inventory: chain.inventory, observedContext: chain.observed, proposal });
}

test("contextContentSha256 hashes the ordered canonical part identities", () => {
  assert.equal(contextContentSha256(toolParts), sha256('[{"kind":"text","text":"one relevant verifier observation"}]'));
  const image = { kind: "image" as const, mediaType: "image/png", contentSha256: sha256("png") };
  assert.equal(contextContentSha256([image]), sha256(`[{"contentSha256":"${sha256("png")}","kind":"image","mediaType":"image/png"}]`));
  assert.notEqual(contextContentSha256([toolParts[0]!, image]), contextContentSha256([image, toolParts[0]!]));
});

test("a full seal: members sorted by materialId with origins; sealedContextSha256 pinned", async () => {
  const { sealed, selection: sel } = await sealedChain();
  assert.equal(sealed.sealedContextSha256, SEALED_CONTEXT_SHA256);
  assert.equal(sealed.selectionSha256, sel.selectionSha256);
  assert.deepEqual(
    sealed.members.map((m) => [m.materialId, m.memberId, m.origin.kind]),
    [
      ["inventory-source:reference-boundary", "reference-boundary", "inventory-source"],
      ["observed-context:domain-1", "domain-1", "observed-context"],
      ["observed-context:result-1", "result-1", "observed-context"],
      ["observed-context:user-1", "user-1", "observed-context"],
    ],
  );
  assert.equal(sealed.members[0]?.contentSha256, contextContentSha256(referenceParts));
  assert.ok(Object.isFrozen(sealed) && Object.isFrozen(sealed.members));
});

test("changed content, wrong flags and missing callbacks fail the whole seal", async () => {
  const sel = await selection();
  await assert.rejects(
    sealContext(sel, acquisition({ acquirePreparedReference: async () => ({ parts: [{ kind: "text", text: "edited" }], isError: false, truncated: false }) })),
    (error: unknown) =>
      sealError("Context sealing failed before an atomic result was produced.")(error) &&
      (error as ContextSealError).cause instanceof JudgmentParseError &&
      /Selected content changed before sealing: inventory-source:reference-boundary\./u.test(((error as ContextSealError).cause as Error).message),
  );
  await assert.rejects(
    sealContext(sel, acquisition({ acquirePreparedReference: async () => ({ parts: referenceParts, isError: true, truncated: false }) })),
    (error: unknown) => sealError(/atomic/u)(error) && /Inventory source cannot seal as error or truncated/u.test(String((error as Error).cause)),
  );
  await assert.rejects(
    sealContext(sel, acquisition({ acquireObservedContext: async () => ({ parts: toolParts, isError: false, truncated: true }) })),
    (error: unknown) => /Observed result state changed before sealing: observed-context:result-1\./u.test(String((error as Error).cause)),
  );
  const { acquireObservedContext: _omit, ...noObserved } = acquisition();
  await assert.rejects(sealContext(sel, noObserved), sealError("No current-branch acquisition is available for result-1."));
  await assert.rejects(
    sealContext(sel, acquisition({ acquirePreparedReference: async () => { throw new Error("disk gone"); } })),
    sealError("Context sealing failed before an atomic result was produced."),
  );
});

test("metadata-only skills seal as a fixed text part without a callback; loaded skills need one", async () => {
  const policy = compiledPolicy();
  const q = question({ policySha256: policy.policySha256 });
  const full = { id: "skill-full", kind: "pi-skill", title: "full", description: "Has a body.", provenance: { source: "t", scope: "user", origin: "package" }, contentSha256: contextContentSha256([{ kind: "text", text: "body" }]) };
  const inv = inventory(policy.policySha256, [full]);
  const nominate = (id: string) => ({ kind: "inventory-source", inventorySourceId: id, descriptorSha256: inv.sources.find((s) => s.id === id)?.descriptorSha256 });
  const proposal = selectionProposalFromJson(jsonValueFromUnknown({ questionSha256: q.questionSha256, nominations: [nominate("skill-verify")], selectionBasis: ["b"] }));
  const sealed = await sealContext(selectContext({ question: q, inventory: inv, observedContext: observed(), proposal }), acquisition());
  assert.deepEqual(sealed.members[0]?.parts, [{ kind: "text", text: "Pi skill metadata\nTitle: verify\nDescription: Checks a claim against evidence." }]);
  const fullProposal = selectionProposalFromJson(jsonValueFromUnknown({ questionSha256: q.questionSha256, nominations: [nominate("skill-full")], selectionBasis: ["b"] }));
  const fullSelection = selectContext({ question: q, inventory: inv, observedContext: observed(), proposal: fullProposal });
  await assert.rejects(sealContext(fullSelection, acquisition()), sealError("No Pi skill acquisition is available for skill-full."));
  const ok = await sealContext(fullSelection, acquisition({ acquireSkill: async () => ({ parts: [{ kind: "text", text: "body" }], isError: false, truncated: false }) }));
  assert.equal(ok.members[0]?.memberId, "skill-full");
});

test("byte limits: 48,000 per member and 256,000 in aggregate, counted on canonical JSON in UTF-8", async () => {
  const sel = await selection(["result-1"], false);
  const overhead = '[{"kind":"text","text":""}]'.length;
  const exact = "x".repeat(48_000 - overhead);
  const fits = await sealContext(sel, acquisition({ acquireObservedContext: async () => ({ parts: [{ kind: "text", text: exact }], isError: false, truncated: false }) })).catch(
    (error: unknown) => error,
  );
  // The content no longer matches the observed digest, so parsing fails after the limit passed.
  assert.ok(fits instanceof ContextSealError && /atomic/u.test(fits.message));
  await assert.rejects(
    sealContext(sel, acquisition({ acquireObservedContext: async () => ({ parts: [{ kind: "text", text: `${exact}x` }], isError: false, truncated: false }) })),
    (error: unknown) => sealError("Acquired context exceeds its member limit: observed-context:result-1.")(error) && (error as ContextSealError).details.bytes === 48_001,
  );
  const multibyte = "é".repeat(24_000);
  await assert.rejects(
    sealContext(sel, acquisition({ acquireObservedContext: async () => ({ parts: [{ kind: "text", text: multibyte }], isError: false, truncated: false }) })),
    sealError(/member limit/u),
  );
});

test("aggregate limit rejects the seal even when every member fits", async () => {
  const policy = compiledPolicy();
  const q = question({ policySha256: policy.policySha256 });
  const files = Array.from({ length: 6 }, (_, i) => ({
    id: `ctx-${i}`,
    kind: "pi-context-file",
    title: `file ${i}`,
    description: "A context file.",
    provenance: { source: "t", scope: "project", origin: "top-level" },
    path: `/w/${i}.md`,
    contentSha256: contextContentSha256([{ kind: "text", text: "q".repeat(47_000) }]),
  }));
  const inv = inventory(policy.policySha256, files);
  const proposal = selectionProposalFromJson(
    jsonValueFromUnknown({
      questionSha256: q.questionSha256,
      nominations: files.map((f) => ({ kind: "inventory-source", inventorySourceId: f.id, descriptorSha256: inv.sources.find((s) => s.id === f.id)?.descriptorSha256 })),
      selectionBasis: ["b"],
    }),
  );
  const sel = selectContext({ question: q, inventory: inv, observedContext: observed(), proposal });
  await assert.rejects(
    sealContext(sel, acquisition({ acquireContextFile: async () => ({ parts: [{ kind: "text", text: "q".repeat(47_000) }], isError: false, truncated: false }) })),
    (error: unknown) => sealError("Acquired context exceeds the aggregate byte limit.")(error) && (error as ContextSealError).details.limit === 256_000,
  );
  const five = await sealContext(
    selectContext({ question: q, inventory: inv, observedContext: observed(), proposal: selectionProposalFromJson(jsonValueFromUnknown({ ...proposal, nominations: proposal.nominations.slice(0, 5) })) }),
    acquisition({ acquireContextFile: async () => ({ parts: [{ kind: "text", text: "q".repeat(47_000) }], isError: false, truncated: false }) }),
  );
  assert.equal(five.members.length, 5);
});

test("abort before or during acquisition fails with ContextSealError", async () => {
  const sel = await selection();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(sealContext(sel, acquisition(), { signal: controller.signal }), sealError("Context sealing was aborted before acquisition."));
  const during = new AbortController();
  await assert.rejects(
    sealContext(
      sel,
      acquisition({
        acquirePreparedReference: async () => {
          during.abort();
          return { parts: referenceParts, isError: false, truncated: false };
        },
      }),
      { signal: during.signal },
    ),
    sealError("Context sealing was aborted."),
  );
});

test("parseSealedContext: stale selection, missing or duplicate members, digest mismatch", async () => {
  const sel = await selection(["result-1"], false);
  const member = { bindingId: "observed-context:result-1", contentSha256: contextContentSha256(toolParts), isError: false, truncated: false, parts: toolParts };
  const parse = (value: unknown) => parseSealedContext(decodeSealedContextProposalData(jsonValueFromUnknown(value)), sel);
  assert.equal(parse({ selectionSha256: sel.selectionSha256, members: [member] }).members.length, 1);
  assert.throws(() => parse({ selectionSha256: "0".repeat(64), members: [member] }), /Sealed context proposal names a stale selection\./u);
  assert.throws(() => parse({ selectionSha256: sel.selectionSha256, members: [] }), /Sealed context must account for exactly every selected binding\./u);
  assert.throws(() => parse({ selectionSha256: sel.selectionSha256, members: [member, member] }), /Duplicate sealed context binding: observed-context:result-1\./u);
  assert.throws(() => parse({ selectionSha256: sel.selectionSha256, members: [{ ...member, bindingId: "observed-context:x" }] }), /Missing sealed context binding: observed-context:result-1\./u);
  assert.throws(() => parse({ selectionSha256: sel.selectionSha256, members: [{ ...member, contentSha256: sha256("x") }] }), /Sealed content digest mismatch for observed-context:result-1\./u);
  assert.throws(() => parse({ selectionSha256: sel.selectionSha256, members: [{ ...member, parts: [] }] }), /Sealed context proposal has an invalid representation\./u);
  assert.throws(
    () => parse({ selectionSha256: sel.selectionSha256, members: [{ ...member, parts: [{ kind: "text", text: "x".repeat(48_001) }] }] }),
    /invalid representation/u,
  );
  assert.throws(
    () => parse({ selectionSha256: sel.selectionSha256, members: [{ ...member, parts: [{ kind: "image", mediaType: " image/png", contentSha256: sha256("x") }] }] }),
    /Image media type must be directly normalized at \/members\/observed-context:result-1\/parts\/0\/mediaType\./u,
  );
});

function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function referenceSource(relativePath: string): PreparedReferenceDescriptor {
  const inv = inventory(compiledPolicy().policySha256);
  const ref = inv.sources.find((s) => s.kind === "prepared-reference") as PreparedReferenceDescriptor;
  return { ...ref, path: relativePath };
}

test("local reference reader: contained UTF-8 regular files within the byte limit", async () => {
  const root = tempDir("judgment-reader-");
  const outside = tempDir("judgment-reader-out-");
  try {
    fs.mkdirSync(path.join(root, "references"));
    fs.writeFileSync(path.join(root, "references/boundary.md"), referenceText);
    fs.writeFileSync(path.join(root, "references/latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    fs.writeFileSync(path.join(root, "references/big.md"), "b".repeat(101));
    fs.mkdirSync(path.join(root, "references/dir"));
    fs.writeFileSync(path.join(outside, "secret.md"), "secret");
    fs.symlinkSync(path.join(outside, "secret.md"), path.join(root, "references/link.md"));
    fs.symlinkSync(path.join(root, "references/boundary.md"), path.join(root, "references/inner-link.md"));
    const reader = createNodeLocalReferenceReader(root);
    const read = (p: string, maxBytes = 48_000) => reader.read(referenceSource(p), { maxBytes });
    assert.equal(await read("references/boundary.md"), referenceText);
    assert.equal(await read("references/inner-link.md"), referenceText);
    await assert.rejects(read("../secret.md"), sealError("Prepared reference escapes its policy root: ../secret.md."));
    await assert.rejects(read("references/link.md"), sealError("Prepared reference symlink escapes its policy root: references/link.md."));
    await assert.rejects(read("references/latin1.md"), sealError("Local reference is not valid UTF-8: references/latin1.md."));
    await assert.rejects(read("references/big.md", 100), (error: unknown) => sealError("Local reference exceeds its byte limit: references/big.md.")(error) && (error as ContextSealError).details.bytes === 101);
    assert.equal((await read("references/big.md", 101)).length, 101);
    await assert.rejects(read("references/dir"), sealError("Local reference is not a regular file: references/dir."));
    await assert.rejects(read("references/none.md"), sealError("Unable to read local reference: references/none.md."));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test("a reference read from disk seals; an edited file after selection fails the whole seal", async () => {
  const root = tempDir("judgment-seal-disk-");
  try {
    fs.mkdirSync(path.join(root, "references"));
    const file = path.join(root, "references/boundary.md");
    fs.writeFileSync(file, referenceText);
    const chain = await sealedChain(["result-1"]);
    const readers = new Map([[chain.policy.policySha256, createNodeLocalReferenceReader(root)]]);
    const disk = acquisition({ acquirePreparedReference: preparedReferenceAcquisition(readers) });
    const sealed = await sealContext(chain.selection, disk);
    assert.equal(sealed.sealedContextSha256, (await sealContext(chain.selection, acquisition())).sealedContextSha256);
    fs.writeFileSync(file, `${referenceText}edited\n`);
    await assert.rejects(sealContext(chain.selection, disk), sealError(/atomic/u));
    await assert.rejects(
      sealContext(chain.selection, acquisition({ acquirePreparedReference: preparedReferenceAcquisition(new Map()) })),
      sealError("No local reference reader for the policy of reference-boundary."),
    );
    fs.writeFileSync(file, "r".repeat(48_001));
    await assert.rejects(sealContext(chain.selection, disk), sealError("Local reference exceeds its byte limit: references/boundary.md."));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("selectAndSealContext returns both values or throws with neither", async () => {
  const chain = await sealedChain(["result-1"]);
  const proposal = selectionProposalFromJson(
    jsonValueFromUnknown({
      questionSha256: chain.question.questionSha256,
      nominations: chain.selection.bindings.map((b) =>
        b.kind === "inventory-source"
          ? { kind: b.kind, inventorySourceId: b.memberId, descriptorSha256: b.descriptorSha256, contentSha256: b.expectedContentSha256 }
          : { kind: b.kind, observedContextId: b.memberId, descriptorSha256: b.descriptorSha256 },
      ),
      selectionBasis: chain.selection.selectionBasis,
    }),
  );
  const input = { question: chain.question, inventory: chain.inventory, observedContext: chain.observed, proposal };
  const both = await selectAndSealContext({ ...input, acquisition: acquisition() });
  assert.equal(both.selection.selectionSha256, chain.selection.selectionSha256);
  assert.equal(both.sealedContext.sealedContextSha256, chain.sealed.sealedContextSha256);
  let result: unknown = "untouched";
  await assert.rejects(async () => {
    result = await selectAndSealContext({ ...input, acquisition: acquisition({ acquireObservedContext: async () => { throw new Error("read failed"); } }) });
  }, sealError(/atomic/u));
  assert.equal(result, "untouched");
});

test("a file that grows between stat and read is refused (injected file system)", async () => {
  const grown: JudgmentFileSystem = {
    realpath: async (p) => p,
    stat: async () => ({ isFile: true, size: 10 }),
    readFile: async () => new TextEncoder().encode("g".repeat(11)),
  };
  const reader = createLocalReferenceReader("/virtual/root", grown);
  await assert.rejects(
    reader.read(referenceSource("references/boundary.md"), { maxBytes: 10 }),
    (error: unknown) => sealError("Local reference grew beyond its byte limit: references/boundary.md.")(error) && (error as ContextSealError).details.bytes === 11,
  );
});

test("containment is the spec's relative() test: a contained name starting with '..' is refused too", async () => {
  const root = tempDir("judgment-dotdot-");
  try {
    fs.writeFileSync(path.join(root, "..notes.md"), "notes");
    await assert.rejects(
      createNodeLocalReferenceReader(root).read(referenceSource("..notes.md"), { maxBytes: 100 }),
      sealError("Prepared reference escapes its policy root: ..notes.md."),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
