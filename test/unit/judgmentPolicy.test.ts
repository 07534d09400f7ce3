// judgment.md §3: judgment.json parse/normalise, owner, compiled policy, directions, disk loading.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  compileJudgmentPolicy,
  compiledJudgmentPolicyData,
  decodeCompiledJudgmentPolicyData,
  decodePolicyOwnerData,
  judgmentPolicyDirections,
  jsonValueFromUnknown,
  JudgmentParseError,
  loadOptionalJudgmentPolicyFile,
  ownerFromJson,
  parseCompiledJudgmentPolicy,
  parseJudgmentAuthoringPolicyJson,
  readJudgmentPolicyFile,
  sha256,
  type JudgmentFileSystem,
} from "../../server/judgment";
import { compiledPolicy, owner, ownerJson, policyJson } from "../fixtures/judgment/builders";

const AUTHORING_SHA256 = "177f1245b9147d5206d336da2dd6d0449b77b3f63ca566b871333054b9bf22bb";
const POLICY_SHA256 = "7538fc6ce6f016ba28b21edab4f3a715368b5b3493468774971ed9fabf77eb04";

function parse(value: unknown) {
  return parseJudgmentAuthoringPolicyJson(JSON.stringify(value));
}

function parseError(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (error: unknown) => error instanceof JudgmentParseError && error.code === "JUDGMENT_PARSE_INVALID" && message.test(error.message));
}

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

test("authoringSha256 and policySha256 of the fixture policy (pinned; cross-checked by hand-built canonical strings)", () => {
  assert.equal(parse(policyJson).authoringSha256, AUTHORING_SHA256);
  assert.equal(compiledPolicy().policySha256, POLICY_SHA256);
});

test("representation-only differences keep authoringSha256; values are frozen", () => {
  const extra = "State ownership and order still need an implementation shape.";
  const first = parse({ $schema: "https://example.test/schema", ...policyJson, when: [...policyJson.when, extra] });
  const reordered = { references: policyJson.references, unless: policyJson.unless, when: [extra, ...policyJson.when], specVersion: "0.1" };
  const second = parse(reordered);
  assert.equal(first.authoringSha256, second.authoringSha256);
  assert.notEqual(first.authoringSha256, AUTHORING_SHA256);
  assert.deepEqual(first.when, [policyJson.when[0], extra]);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.references) && Object.isFrozen(first.when) && Object.isFrozen(first.references[0]));
});

test("whitespace runs inside statements collapse to one space", () => {
  const policy = parse({ ...policyJson, unless: ["Only   a\treview is\nneeded."] });
  assert.deepEqual(policy.unless, ["Only a review is needed."]);
});

test("schema failures: extra keys, missing keys, wrong version, empty lists, exact duplicates", () => {
  const cases: unknown[] = [
    { ...policyJson, decisionUnit: "sketch" },
    { ...policyJson, specVersion: "0.2" },
    { when: policyJson.when, unless: policyJson.unless, references: policyJson.references },
    { ...policyJson, unless: [] },
    { ...policyJson, references: [] },
    { ...policyJson, when: ["same", "same"] },
    { ...policyJson, when: ["   "] },
    { ...policyJson, references: [{ path: "a.md", when: ["x"], extra: true }] },
    { ...policyJson, when: Array.from({ length: 65 }, (_, i) => `statement ${i}`) },
    { ...policyJson, when: ["x".repeat(2_001)] },
  ];
  for (const value of cases) parseError(() => parse(value), /^Judgment authoring policy does not match specVersion 0\.1\.$/u);
  try {
    parse({ ...policyJson, decisionUnit: "sketch" });
  } catch (error) {
    assert.ok(error instanceof JudgmentParseError);
    assert.deepEqual(error.details.issues, [{ path: "/decisionUnit", message: "Unexpected property", keyword: "additionalProperties" }]);
  }
  parseError(() => parseJudgmentAuthoringPolicyJson("{not json"), /^Judgment authoring policy is not valid JSON\.$/u);
});

test("statement normalisation diagnostics name the pointer", () => {
  parseError(() => parse({ ...policyJson, when: [" padded"] }), /^Statement contains surrounding whitespace at \/when\/0\.$/u);
  parseError(() => parse({ ...policyJson, when: [policyJson.when[0], policyJson.when[0]?.toUpperCase()] }), /^Semantic duplicate statement at \/when: /u);
  parseError(() => parse({ ...policyJson, unless: ["a  b", "A b"] }), /Semantic duplicate statement at \/unless/u);
});

test("reference paths: relative, POSIX, normalised; duplicates rejected; sorted by path", () => {
  const when = ["x"];
  for (const bad of ["../escape.md", "/abs.md", "a\\b.md", "a//b.md", "./a.md", "a/./b.md", "a/../b.md", "a/", " a.md", "a\0b"]) {
    parseError(() => parse({ ...policyJson, references: [{ path: bad, when }] }), /^Reference path (must be a relative POSIX path|is not directly normalized) at \/references\/0\/path\.$/u);
  }
  parseError(() => parse({ ...policyJson, references: [...policyJson.references, ...policyJson.references] }), /^Duplicate prepared reference path: references\/boundary\.md\.$/u);
  const sorted = parse({ ...policyJson, references: [{ path: "z.md", when }, { path: "B.md", when }, { path: "a.md", when }] });
  assert.deepEqual(
    sorted.references.map((r) => r.path),
    ["a.md", "B.md", "z.md"],
  );
});

test("owner data is exact and directly normalised", () => {
  assert.throws(() => decodePolicyOwnerData(jsonValueFromUnknown({ ...ownerJson, extra: 1 })), /Policy owner has an invalid representation\.$/u);
  assert.throws(() => decodePolicyOwnerData(jsonValueFromUnknown({ ...ownerJson, name: "1bad" })), /invalid representation/u);
  assert.throws(() => decodePolicyOwnerData(jsonValueFromUnknown({ ...ownerJson, kind: "human" })), /invalid representation/u);
  assert.throws(() => ownerFromJson(jsonValueFromUnknown({ ...ownerJson, namespace: " test" })), /Expected directly normalized non-blank text at \/namespace\.$/u);
  assert.throws(
    () => ownerFromJson(jsonValueFromUnknown({ ...ownerJson, provenance: { ...ownerJson.provenance, path: "/x " } })),
    /at \/provenance\/path\./u,
  );
});

test("compiled policy binds the owner; another owner is another policySha256", () => {
  const policy = compiledPolicy();
  assert.equal(policy.references[0]?.referenceId, "references/boundary.md");
  assert.equal(policy.owner.name, "sketch");
  const other = compileJudgmentPolicy({
    owner: ownerFromJson(jsonValueFromUnknown({ ...ownerJson, name: "verify" })),
    policy: parse(policyJson),
  });
  assert.equal(other.authoringSha256, policy.authoringSha256);
  assert.notEqual(other.policySha256, policy.policySha256);
  const noPath = compileJudgmentPolicy({
    owner: ownerFromJson(jsonValueFromUnknown({ ...ownerJson, provenance: { source: "test", scope: "temporary", origin: "top-level" } })),
    policy: parse(policyJson),
  });
  assert.notEqual(noPath.policySha256, policy.policySha256);
});

test("compiled data round-trips; editing only a hash fails", () => {
  const policy = compiledPolicy();
  const data = compiledJudgmentPolicyData(policy);
  const round = parseCompiledJudgmentPolicy(decodeCompiledJudgmentPolicyData(jsonValueFromUnknown(data)));
  assert.equal(round.policySha256, POLICY_SHA256);
  assert.equal(round.references[0]?.referenceId, "references/boundary.md");
  const flip = (hash: string) => `${hash.slice(0, -1)}${hash.endsWith("0") ? "1" : "0"}`;
  parseError(
    () => parseCompiledJudgmentPolicy(decodeCompiledJudgmentPolicyData(jsonValueFromUnknown({ ...data, authoringSha256: flip(data.authoringSha256) }))),
    /^Compiled policy authoring identity does not match its content\.$/u,
  );
  parseError(
    () => parseCompiledJudgmentPolicy(decodeCompiledJudgmentPolicyData(jsonValueFromUnknown({ ...data, policySha256: flip(data.policySha256) }))),
    /^Compiled policy identity does not match its content\.$/u,
  );
  parseError(() => decodeCompiledJudgmentPolicyData(jsonValueFromUnknown({ ...data, $schema: "x" })), /^Compiled Judgment policy has an invalid representation\.$/u);
});

test("directions are deterministic Markdown: when, winning unless, references as candidates", () => {
  const first = judgmentPolicyDirections(parse(policyJson)).markdown;
  assert.equal(first, judgmentPolicyDirections(compiledPolicy()).markdown);
  assert.match(first, /^## Context Directions\n/u);
  assert.match(first, /exclusions win/u);
  assert.match(first, /### `references\/boundary\.md`/u);
  assert.match(first, /not a requirement/u);
  assert.doesNotMatch(first, /questionId|needId|canInform/u);
  assert.ok(first.indexOf(policyJson.when[0] ?? "") < first.indexOf(policyJson.unless[0] ?? ""));
});

function writePolicyTree(root: string): string {
  fs.mkdirSync(path.join(root, "references"), { recursive: true });
  fs.writeFileSync(path.join(root, "references/boundary.md"), "# Boundary\n");
  const file = path.join(root, "judgment.json");
  fs.writeFileSync(file, `${JSON.stringify(policyJson, null, 2)}\n`);
  return file;
}

test("loading from disk: loaded value, source hash, absent and invalid", async () => {
  const root = tempDir("judgment-load-");
  try {
    const file = path.join(root, "judgment.json");
    assert.deepEqual(await loadOptionalJudgmentPolicyFile({ path: file, owner: owner(), allowedRoot: root }), { kind: "absent" });
    assert.deepEqual(await loadOptionalJudgmentPolicyFile({ path: path.join(root, "missing-dir/judgment.json"), owner: owner() }), { kind: "absent" });
    fs.writeFileSync(file, "{}\n");
    const invalid = await loadOptionalJudgmentPolicyFile({ path: file, owner: owner(), allowedRoot: root });
    assert.deepEqual(invalid, { kind: "invalid", diagnostic: "Judgment authoring policy does not match specVersion 0.1." });
    writePolicyTree(root);
    const loaded = await readJudgmentPolicyFile({ path: file, owner: owner(), allowedRoot: root });
    assert.equal(loaded.path, file);
    assert.equal(loaded.root, root);
    assert.equal(loaded.policy.policySha256, POLICY_SHA256);
    assert.equal(loaded.sourceSha256, sha256(fs.readFileSync(file, "utf8")));
    assert.equal((await loadOptionalJudgmentPolicyFile({ path: file, owner: owner() })).kind, "loaded");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("a present policy whose reference file is missing is invalid, never absent", async () => {
  const root = tempDir("judgment-missing-ref-");
  try {
    const file = writePolicyTree(root);
    fs.rmSync(path.join(root, "references/boundary.md"));
    assert.deepEqual(await loadOptionalJudgmentPolicyFile({ path: file, owner: owner() }), {
      kind: "invalid",
      diagnostic: "Prepared reference does not exist: references/boundary.md.",
    });
    fs.mkdirSync(path.join(root, "references/boundary.md"));
    await assert.rejects(readJudgmentPolicyFile({ path: file, owner: owner() }), /^JudgmentParseError: Prepared reference is not a regular file: references\/boundary\.md\.$/u);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("loading refuses escapes: lexical, symlinked parent, symlinked reference", async () => {
  const allowed = tempDir("judgment-allowed-");
  const outside = tempDir("judgment-outside-");
  try {
    const outsideFile = writePolicyTree(outside);
    await assert.rejects(readJudgmentPolicyFile({ path: outsideFile, owner: owner(), allowedRoot: allowed }), /Judgment policy is outside its allowed root\./u);
    fs.symlinkSync(outside, path.join(allowed, "linked"), "dir");
    await assert.rejects(
      readJudgmentPolicyFile({ path: path.join(allowed, "linked/judgment.json"), owner: owner(), allowedRoot: allowed }),
      /^JudgmentParseError: Judgment policy physically escapes its allowed root\.$/u,
    );
    const inner = path.join(allowed, "skill");
    fs.mkdirSync(path.join(inner, "references"), { recursive: true });
    fs.writeFileSync(path.join(inner, "judgment.json"), JSON.stringify(policyJson));
    fs.symlinkSync(path.join(outside, "references/boundary.md"), path.join(inner, "references/boundary.md"));
    await assert.rejects(
      readJudgmentPolicyFile({ path: path.join(inner, "judgment.json"), owner: owner(), allowedRoot: allowed }),
      /^JudgmentParseError: Prepared reference symlink escapes its policy root: references\/boundary\.md\.$/u,
    );
    const diagnostic = await loadOptionalJudgmentPolicyFile({ path: path.join(inner, "judgment.json"), owner: owner() });
    assert.equal(diagnostic.kind, "invalid");
  } finally {
    fs.rmSync(allowed, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test("loading enforces regular file, byte limit and strict UTF-8", async () => {
  const root = tempDir("judgment-bytes-");
  try {
    const file = writePolicyTree(root);
    const size = fs.statSync(file).size;
    await assert.rejects(readJudgmentPolicyFile({ path: file, owner: owner(), maxBytes: size - 1 }), /Judgment policy exceeds its byte limit: /u);
    assert.equal((await readJudgmentPolicyFile({ path: file, owner: owner(), maxBytes: size })).policy.policySha256, POLICY_SHA256);
    const big = path.join(root, "big", "judgment.json");
    fs.mkdirSync(path.dirname(big));
    fs.writeFileSync(big, " ".repeat(128_001));
    await assert.rejects(readJudgmentPolicyFile({ path: big, owner: owner() }), /exceeds its byte limit/u);
    fs.writeFileSync(file, Buffer.from([0x7b, 0xff, 0x7d]));
    await assert.rejects(readJudgmentPolicyFile({ path: file, owner: owner() }), /Judgment policy is not valid UTF-8: /u);
    const dir = path.join(root, "dir", "judgment.json");
    fs.mkdirSync(dir, { recursive: true });
    await assert.rejects(readJudgmentPolicyFile({ path: dir, owner: owner() }), /Judgment policy is not a regular file: /u);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("a policy that grows between stat and read is refused (injected file system)", async () => {
  const text = JSON.stringify(policyJson);
  const fileSystem: JudgmentFileSystem = {
    realpath: async (p) => p,
    stat: async () => ({ isFile: true, size: 10 }),
    readFile: async () => new TextEncoder().encode(text),
  };
  await assert.rejects(
    readJudgmentPolicyFile({ path: "/virtual/skill/judgment.json", owner: owner(), maxBytes: 100, fileSystem }),
    /^JudgmentParseError: Judgment policy grew beyond its byte limit: \/virtual\/skill\/judgment\.json\.$/u,
  );
  const loaded = await readJudgmentPolicyFile({ path: "/virtual/skill/judgment.json", owner: owner(), fileSystem: { ...fileSystem, stat: async () => ({ isFile: true, size: text.length }) } });
  assert.equal(loaded.policy.policySha256, POLICY_SHA256);
});
