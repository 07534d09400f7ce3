// The evidence store on a real temporary folder: handles, numbering, what a record holds, bounds,
// binary content, redaction before persistence, torn and altered lines, rotation and the cap, and
// the lookups WorkspaceLedger hands to the Judgment engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { hashValue, sha256Hex } from "../../server/ledger/canonicalJson";
import { contextContentSha256 } from "../../server/judgment";
import { MAX_SEALED_MEMBER_BYTES, acquiredBytes } from "../../server/judgment/seal";
import { DocketError } from "../../server/errors";
import { ErrorCodes } from "../../server/protocol/messages";
import { argumentsSha256, walkCanonicalJson } from "../../server/evidence/boundedJson";
import {
  captureToolResult,
  captureUserDecision,
  evidenceDirectory,
  recentEvidence,
  setEvidenceStoreLimitsForTests,
  workspaceEvidence,
  type ToolResultCapture,
} from "../../server/evidence/evidenceStore";
import { parseRecordLine } from "../../server/evidence/evidenceRecord";
import { toolResultContent } from "../../server/evidence/toolContent";
import { redactSecrets } from "../../server/evidence/redaction";
import { tempFolder } from "../support/gitRepo";

const AT = "2031-01-01T00:00:00.000Z";
const secretToken = ["ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");

function call(overrides: Partial<ToolResultCapture> = {}): ToolResultCapture {
  return {
    host: "claude",
    sessionId: "session-1",
    toolCallId: "toolu_01",
    toolName: "Bash",
    toolInput: { command: "npm test" },
    toolResponse: { stdout: "ok 1 - passes\n", stderr: "", interrupted: false, isImage: false },
    occurredAt: AT,
    ...overrides,
  };
}

function storeText(folder: string): string {
  const directory = evidenceDirectory(folder);
  if (!fs.existsSync(directory)) return "";
  return fs
    .readdirSync(directory)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => fs.readFileSync(path.join(directory, name), "utf8"))
    .join("");
}

function segmentFiles(folder: string): string[] {
  return fs
    .readdirSync(evidenceDirectory(folder))
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => path.join(evidenceDirectory(folder), name));
}

async function refusal(action: () => Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(action, (error: unknown) => error instanceof DocketError && error.code === code, `expected ${code}`);
}

test("a captured tool result is found by its handle with everything the engine observes", async () => {
  const folder = tempFolder("docket-evidence-");
  const captured = await captureToolResult(folder, call());
  assert.equal(captured.branchResultId, `branch-result-${sha256Hex("toolu_01").slice(0, 16)}`);
  assert.equal(captured.truncated, false);
  assert.deepEqual(captured.redactions, {});

  const lookup = workspaceEvidence(folder);
  const record = lookup.toolResult(captured.branchResultId);
  assert.ok(record !== undefined);
  assert.deepEqual(record, {
    branchResultId: captured.branchResultId,
    toolCallId: "toolu_01",
    toolName: "Bash",
    argumentsSha256: hashValue({ command: "npm test" }),
    parts: [{ kind: "text", text: "ok 1 - passes\n" }],
    isError: false,
    truncated: false,
    sequence: 1,
  });
  assert.equal(lookup.toolResult("branch-result-0123456789abcdef"), undefined);
  assert.equal(lookup.latestUserDecision(), undefined);

  // Numbering continues across kinds; the same lookup sees later captures (another process's too).
  const second = await captureToolResult(folder, call({ toolCallId: "toolu_02", toolInput: undefined, toolResponse: "plain text" }));
  const decision = await captureUserDecision(folder, { host: "claude", sessionId: "session-1", prompt: "Use the second approach.", occurredAt: AT });
  assert.equal(lookup.toolResult(second.branchResultId)?.sequence, 2);
  assert.equal(lookup.toolResult(second.branchResultId)?.argumentsSha256, hashValue({}));
  const third = await captureToolResult(folder, call({ toolCallId: "toolu_03", toolInput: null, toolResponse: null }));
  assert.equal(lookup.toolResult(third.branchResultId)?.argumentsSha256, hashValue({}));
  assert.deepEqual(lookup.toolResult(third.branchResultId)?.parts, [{ kind: "text", text: "" }]);
  assert.deepEqual(lookup.latestUserDecision(), { userEventId: decision.userEventId, parts: [{ kind: "text", text: "Use the second approach." }], sequence: 3 });
  assert.match(decision.userEventId, /^user-event-[0-9a-f]{16}$/);

  // Every line is self-describing and sealed by its own hash.
  const lines = storeText(folder).trimEnd().split("\n");
  assert.equal(lines.length, 4);
  for (const line of lines) {
    const parsed = parseRecordLine(line);
    assert.ok(parsed !== undefined);
    assert.equal(parsed.format, "docket/evidence-record/v1");
  }
  // A re-captured call id (a host retry) replaces what the handle resolves to.
  await captureToolResult(folder, call({ toolResponse: "second run" }));
  assert.deepEqual(lookup.toolResult(captured.branchResultId)?.parts, [{ kind: "text", text: "second run" }]);
  assert.equal(lookup.toolResult(captured.branchResultId)?.sequence, 5);
});

test("secrets are redacted before anything is written, in results, arguments and prompts", async () => {
  const folder = tempFolder("docket-evidence-");
  const captured = await captureToolResult(
    folder,
    call({ toolInput: { command: `curl -H 'Authorization: Bearer ${secretToken}' https://api.example.com` }, toolResponse: { stdout: `token=${secretToken}\nDB_PASSWORD=hunter2hunter2\n`, stderr: "" } }),
  );
  assert.deepEqual(captured.redactions, { "github-token": 2, "secret-assignment": 1 });
  const decision = await captureUserDecision(folder, { host: "codex", sessionId: "s", prompt: `deploy with ${secretToken}`, occurredAt: AT });
  const text = storeText(folder);
  assert.ok(!text.includes(secretToken));
  assert.ok(!text.includes("hunter2hunter2"));
  assert.ok(text.includes("[REDACTED:github-token]"));
  const lookup = workspaceEvidence(folder);
  assert.deepEqual(lookup.toolResult(captured.branchResultId)?.parts, [{ kind: "text", text: "token=[REDACTED:github-token]\nDB_PASSWORD=[REDACTED:secret-assignment]\n" }]);
  assert.equal(lookup.latestUserDecision()?.userEventId, decision.userEventId);
  // The arguments hash is of the real arguments (what the host ran), not of the redacted preview.
  const record = parseRecordLine(text.split("\n")[0] as string);
  assert.ok(record?.kind === "tool-result");
  assert.equal(record.argumentsSha256, hashValue({ command: `curl -H 'Authorization: Bearer ${secretToken}' https://api.example.com` }));
  assert.ok(record.input.preview.includes("[REDACTED:github-token]"));
});

test("a large result is truncated to what the engine can seal, with the original size recorded", async () => {
  const folder = tempFolder("docket-evidence-");
  const big = "line of output é\n".repeat(20_000);
  const captured = await captureToolResult(folder, call({ toolResponse: big }));
  assert.equal(captured.truncated, true);
  const record = workspaceEvidence(folder).toolResult(captured.branchResultId);
  assert.ok(record !== undefined);
  assert.equal(record.truncated, true);
  assert.ok(acquiredBytes(record.parts) <= MAX_SEALED_MEMBER_BYTES);
  assert.ok(acquiredBytes(record.parts) > MAX_SEALED_MEMBER_BYTES - 100, "the budget is used, not wasted");
  const parsed = parseRecordLine(storeText(folder).split("\n")[0] as string);
  assert.equal(parsed?.originalBytes, Buffer.byteLength(big, "utf8"));

  // Just under the limit is kept whole.
  const fits = "x".repeat(MAX_SEALED_MEMBER_BYTES - 40);
  const whole = await captureToolResult(folder, call({ toolCallId: "toolu_fits", toolResponse: fits }));
  assert.equal(whole.truncated, false);
  assert.equal(workspaceEvidence(folder).toolResult(whole.branchResultId)?.parts[0]?.kind, "text");
});

test("binary content is described by size and digest, never stored", async () => {
  const folder = tempFolder("docket-evidence-");
  const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
  const mcp = await captureToolResult(
    folder,
    call({ toolCallId: "c-mcp", toolName: "mcp__shots__take", toolResponse: { content: [{ type: "text", text: "Screenshot:" }, { type: "image", data: png.toString("base64"), mimeType: "image/png" }], isError: false } }),
  );
  assert.deepEqual(workspaceEvidence(folder).toolResult(mcp.branchResultId)?.parts, [
    { kind: "text", text: "Screenshot:" },
    { kind: "image", mediaType: "image/png", contentSha256: sha256Hex(png) },
  ]);
  const raw = await captureToolResult(folder, call({ toolCallId: "c-bin", toolResponse: { stdout: "ELF\u0000\u0001\u0002binary", stderr: "" } }));
  const rawText = workspaceEvidence(folder).toolResult(raw.branchResultId)?.parts[0];
  assert.ok(rawText?.kind === "text" && /^\[binary content: \d+ bytes, sha256 [0-9a-f]{64}; not stored\]$/.test(rawText.text));
  const blob = "QUJD".repeat(1_000);
  const read = await captureToolResult(folder, call({ toolCallId: "c-img", toolName: "Read", toolResponse: { type: "image", file: { base64: blob, type: "image/png" } } }));
  const readText = workspaceEvidence(folder).toolResult(read.branchResultId)?.parts[0];
  assert.ok(readText?.kind === "text" && readText.text.includes("[base64 content: 3000 bytes") && !readText.text.includes(blob));
  assert.ok(!storeText(folder).includes(blob));
  assert.ok(!storeText(folder).includes(png.toString("base64")));
});

test("errors are read from the response or given by the host", async () => {
  const folder = tempFolder("docket-evidence-");
  const lookup = workspaceEvidence(folder);
  const mcp = await captureToolResult(folder, call({ toolCallId: "e1", toolResponse: { content: [{ type: "text", text: "boom" }], isError: true } }));
  const failed = await captureToolResult(folder, call({ toolCallId: "e2", toolResponse: { success: false, error: "denied" } }));
  const given = await captureToolResult(folder, call({ toolCallId: "e3", toolResponse: "exit 1", isError: true }));
  const fine = await captureToolResult(folder, call({ toolCallId: "e4", toolResponse: { exit_code: 0, output: "fine" } }));
  assert.deepEqual([mcp, failed, given, fine].map((entry) => lookup.toolResult(entry.branchResultId)?.isError), [true, true, true, false]);
  // Recent evidence lists successful results only, newest first, one entry per handle.
  await captureToolResult(folder, call({ toolCallId: "e4", toolResponse: "again" }));
  assert.deepEqual(
    recentEvidence(folder, 10).map((entry) => entry.branchResultId),
    [fine.branchResultId],
  );
  assert.deepEqual(recentEvidence(folder, 10)[0], { branchResultId: fine.branchResultId, toolName: "Bash", occurredAt: AT, truncated: false });
  assert.throws(() => recentEvidence(folder, 0), (error: unknown) => error instanceof DocketError && error.code === ErrorCodes.invalidParams);
  assert.deepEqual(recentEvidence(tempFolder("docket-evidence-"), 5), []);
});

test("huge and deeply nested arguments are hashed canonically and only previewed", async () => {
  const folder = tempFolder("docket-evidence-");
  let deep: unknown = "leaf";
  for (let depth = 0; depth < 100_000; depth += 1) deep = { d: deep };
  const captured = await captureToolResult(folder, call({ toolCallId: "deep", toolInput: deep }));
  const record = parseRecordLine(storeText(folder).split("\n")[0] as string);
  assert.ok(record?.kind === "tool-result");
  assert.equal(workspaceEvidence(folder).toolResult(captured.branchResultId)?.argumentsSha256, record.argumentsSha256);
  assert.equal(record.input.truncated, true);
  assert.ok(record.input.preview.length <= 4_096);
  assert.equal(record.input.bytes, '{"d":'.length * 100_000 + '"leaf"'.length + 100_000);

  const huge = { content: "y".repeat(2_000_000) };
  await captureToolResult(folder, call({ toolCallId: "huge", toolName: "Write", toolInput: huge }));
  const hugeRecord = parseRecordLine(storeText(folder).trimEnd().split("\n")[1] as string);
  assert.ok(hugeRecord?.kind === "tool-result");
  assert.equal(hugeRecord.argumentsSha256, hashValue(huge));
  assert.equal(hugeRecord.input.bytes, Buffer.byteLength(JSON.stringify(huge)));
  assert.ok(hugeRecord.input.preview.length <= 4_096 && hugeRecord.input.truncated);
  assert.ok(fs.statSync(segmentFiles(folder)[0] as string).size < 200_000);
});

test("property: the iterative canonical walk equals the ledger's canonical JSON", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      let text = "";
      walkCanonicalJson(value, (chunk) => {
        text += chunk;
        return true;
      });
      assert.equal(sha256Hex(text), hashValue(value));
      assert.equal(argumentsSha256(value), hashValue(value ?? {}));
    }),
    { numRuns: 300 },
  );
});

test("bad input is a coded error and writes nothing", async () => {
  const folder = tempFolder("docket-evidence-");
  await refusal(() => captureToolResult(folder, call({ toolName: "" })), ErrorCodes.invalidParams);
  await refusal(() => captureToolResult(folder, call({ toolCallId: " padded" })), ErrorCodes.invalidParams);
  await refusal(() => captureToolResult(folder, call({ toolName: "x".repeat(129) })), ErrorCodes.invalidParams);
  await refusal(() => captureToolResult(folder, call({ occurredAt: "yesterday" })), ErrorCodes.invalidParams);
  await refusal(() => captureToolResult(folder, call({ host: "Claude Code" })), ErrorCodes.invalidParams);
  await refusal(() => captureToolResult(folder, { ...call(), extra: 1 } as ToolResultCapture), ErrorCodes.invalidParams);
  await refusal(() => captureToolResult(folder, call({ toolInput: { bad: Number.NaN } })), ErrorCodes.invalidParams);
  await refusal(() => captureUserDecision(folder, { host: "claude", sessionId: "s", prompt: 3 as unknown as string, occurredAt: AT }), ErrorCodes.invalidParams);
  await refusal(() => captureToolResult(path.join(folder, "missing"), call()), ErrorCodes.noWorkspace);
  assert.equal(fs.existsSync(evidenceDirectory(folder)), false);
  // The refusal names the field, never the value (which may be a secret).
  await assert.rejects(
    () => captureToolResult(folder, call({ toolCallId: ` ${secretToken}` })),
    (error: unknown) => error instanceof DocketError && !error.message.includes(secretToken),
  );
});

test("a torn last line is skipped, closed off by the next append, and numbering continues", async () => {
  const folder = tempFolder("docket-evidence-");
  const first = await captureToolResult(folder, call());
  const [segment] = segmentFiles(folder);
  assert.ok(segment !== undefined);
  const lookup = workspaceEvidence(folder);
  assert.equal(lookup.toolResult(first.branchResultId)?.sequence, 1);
  fs.appendFileSync(segment, '{"format":"docket/evidence-record/v1","kind":"tool-result","sequence":2,"par');
  assert.equal(lookup.toolResult(first.branchResultId)?.sequence, 1);
  assert.equal(workspaceEvidence(folder).toolResult(first.branchResultId)?.sequence, 1);
  const second = await captureToolResult(folder, call({ toolCallId: "toolu_02" }));
  assert.equal(lookup.toolResult(second.branchResultId)?.sequence, 2);
  assert.equal(fs.readFileSync(segment, "utf8").split("\n").length, 4); // record, torn, record, ""

  // An altered record fails its own hash and is no evidence at all.
  const text = fs.readFileSync(segment, "utf8");
  fs.writeFileSync(segment, text.replace("ok 1 - passes", "ok 1 - forged"));
  assert.equal(workspaceEvidence(folder).toolResult(first.branchResultId), undefined);
  assert.equal(workspaceEvidence(folder).toolResult(second.branchResultId)?.sequence, 2, "only the altered line is lost");
});

test("a shipped segment that links to /dev/zero is no segment: lookups, recent evidence and captures finish", async () => {
  const folder = tempFolder("docket-evidence-");
  const first = await captureToolResult(folder, call());
  fs.symlinkSync("/dev/zero", path.join(evidenceDirectory(folder), "segment-000000000009.jsonl"));
  assert.deepEqual(recentEvidence(folder, 10).map((entry) => entry.branchResultId), [first.branchResultId]);
  assert.equal(workspaceEvidence(folder).toolResult(first.branchResultId)?.sequence, 1);
  const second = await captureToolResult(folder, call({ toolCallId: "toolu_02" }));
  assert.equal(workspaceEvidence(folder).toolResult(second.branchResultId)?.sequence, 2);
});

test("a truncated prompt is never offered as the latest user decision", async () => {
  const folder = tempFolder("docket-evidence-");
  await captureUserDecision(folder, { host: "vscode", sessionId: "", prompt: "Short and whole.", occurredAt: AT });
  assert.equal(workspaceEvidence(folder).latestUserDecision()?.sequence, 1);
  await captureUserDecision(folder, { host: "vscode", sessionId: "", prompt: "long ".repeat(20_000), occurredAt: AT });
  assert.equal(workspaceEvidence(folder).latestUserDecision(), undefined);
  const whole = await captureUserDecision(folder, { host: "vscode", sessionId: "", prompt: "Whole again.", occurredAt: AT });
  const latest = workspaceEvidence(folder).latestUserDecision();
  assert.equal(latest?.userEventId, whole.userEventId);
  assert.equal(contextContentSha256(latest?.parts ?? []), contextContentSha256([{ kind: "text", text: "Whole again." }]));
});

test("segments rotate at their size and the oldest are deleted past the cap", async () => {
  const folder = tempFolder("docket-evidence-");
  setEvidenceStoreLimitsForTests({ segmentBytes: 8_000, storeCapBytes: 30_000 });
  try {
    const ids: string[] = [];
    for (let index = 0; index < 30; index += 1) {
      ids.push((await captureToolResult(folder, call({ toolCallId: `rot-${index}`, toolResponse: `${index} `.padEnd(2_000, "z") }))).branchResultId);
    }
    const files = segmentFiles(folder);
    const total = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
    assert.ok(files.length >= 3, `${files.length} segments`);
    assert.ok(total <= 30_000 + 8_000, `${total} bytes kept`);
    const lookup = workspaceEvidence(folder);
    assert.equal(lookup.toolResult(ids[0] as string), undefined, "the oldest fell off");
    assert.equal(lookup.toolResult(ids[29] as string)?.sequence, 30);
    // Segment names carry their first sequence; numbering is gap-free across them.
    const sequences = files.flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => parseRecordLine(line)?.sequence),
    );
    assert.equal(path.basename(files[0] as string), `segment-${String(sequences[0]).padStart(12, "0")}.jsonl`);
    assert.deepEqual(sequences, Array.from({ length: sequences.length }, (_, index) => 31 - sequences.length + index));
  } finally {
    setEvidenceStoreLimitsForTests(null);
  }
});

test("property: bounded content always fits its limit, keeps a prefix, and says when it cut", () => {
  const text = fc.string({ unit: fc.oneof(fc.constantFrom("a", "é", "😀", "\n", '"', "\\", "\u0001", "\ud800"), fc.string({ maxLength: 3 })), maxLength: 400 });
  fc.assert(
    fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), fc.integer({ min: 30, max: 600 }), (texts, limit) => {
      const content = toolResultContent({ content: texts.map((entry) => ({ type: "text", text: entry })) }, limit);
      assert.ok(acquiredBytes(content.parts) <= Math.max(limit, acquiredBytes([{ kind: "text", text: "" }])));
      const whole = texts.map((entry) => redactSecrets(entry).text);
      const kept = content.parts.map((part) => (part.kind === "text" ? part.text : ""));
      if (!content.truncated) assert.deepEqual(kept, whole);
      else {
        assert.ok(acquiredBytes(whole.map((entry) => ({ kind: "text" as const, text: entry }))) > limit);
        kept.forEach((entry, index) => assert.ok((whole[index] ?? "").startsWith(entry)));
      }
    }),
    { numRuns: 400 },
  );
});
