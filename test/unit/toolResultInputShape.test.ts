// A PostToolUse capture's direct check (server/evidence/toolResultInput.ts toolResultCaptureOf)
// spares the hook building and running the capture schema. It must answer only where the schema
// accepts, with exactly what its parse returns (same values, keys in the same order, the tool's
// input and response the same references), and decline everything the schema refuses; and
// captureToolResult must write the same record and refuse with the same text as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { captureSchemas, captureToolResult } from "../../server/evidence/evidenceStore";
import { toolResultCaptureOf } from "../../server/evidence/toolResultInput";

const identifier = (max: number) =>
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.constantFrom("toolu_01", "Read", "x", "x".repeat(max), "a b", " a", "a ", "\u00a0a", "a\u2028", "\ufeffa", "é"),
  );
const instant = fc.oneof(
  fc.date({ min: new Date(Date.UTC(0, 0, 1)), max: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom("2026-12-02T21:40:00.123Z", "2024-02-29T00:00:00.000Z", "2023-02-29T00:00:00.000Z", "2100-02-29T00:00:00.000Z", "2000-02-29T00:00:00.000Z", "2026-12-02T24:00:00.000Z", "2026-12-02T21:40:60.000Z", "2026-12-02T21:40:00Z", "2026-12-02T21:40:00.1234Z", "2026-12-02T21:40:00.123+02:00", "2026-12-02 21:40:00.123Z", "+012026-12-02T21:40:00.123Z", "2026-13-02T21:40:00.123Z", "2026-04-31T21:40:00.123Z", ""),
);
const host = fc.oneof(fc.constantFrom("claude", "codex", "vscode", "a", `a${"b".repeat(31)}`, `a${"b".repeat(32)}`, "Claude", "1a", "a_b", "a-b", ""), fc.string({ maxLength: 8 }));
const unknownValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined));
const capture = fc.record(
  {
    host,
    sessionId: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("", "s".repeat(300), "s".repeat(301))),
    toolCallId: identifier(300),
    toolName: identifier(128),
    toolInput: unknownValue,
    toolResponse: unknownValue,
    occurredAt: instant,
    isError: fc.boolean(),
  },
  { requiredKeys: ["host", "sessionId", "toolCallId", "toolName", "occurredAt"] },
);
const ODD_VALUES: readonly unknown[] = [null, undefined, 0, 1, -0, "", " ", "x", "x".repeat(129), "x".repeat(301), true, false, [], {}, [1], new Date(0)];

const HOOK_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u;

/**
 * The captures the check declines though the schema accepts them (the schema then decides, as it
 * always did); the hooks never hand over any of them: a time that is not `toISOString()`'s (an
 * offset, other fractions), the tool's input or response missing, `isError` present but undefined.
 */
function declinedOnPurpose(value: unknown): boolean {
  const capture = value as Record<string, unknown>;
  return (
    !HOOK_INSTANT.test(String(capture.occurredAt)) ||
    !Object.hasOwn(capture, "toolInput") ||
    !Object.hasOwn(capture, "toolResponse") ||
    (Object.hasOwn(capture, "isError") && capture.isError === undefined)
  );
}

function sameAnswer(value: unknown): void {
  const direct = toolResultCaptureOf(value);
  const schema = captureSchemas().ToolResultCapture.safeParse(value);
  if (direct === null) {
    if (schema.success) assert.ok(declinedOnPurpose(value), `declined a capture the schema accepts: ${JSON.stringify(value)}`);
    return;
  }
  assert.ok(schema.success, `accepted a capture the schema refuses: ${JSON.stringify(value)}`);
  assert.deepEqual(direct, schema.data);
  assert.deepEqual(Object.keys(direct), Object.keys(schema.data));
  assert.equal(direct.toolInput, schema.data.toolInput);
  assert.equal(direct.toolResponse, schema.data.toolResponse);
}

test("random captures: the same verdict and value as the schema", () => {
  fc.assert(fc.property(capture, (value) => sameAnswer(value)), { numRuns: 4_000 });
});

test("a hook's capture is answered directly", () => {
  const value = { host: "claude", sessionId: "bench", toolCallId: "toolu_1", toolName: "Read", toolInput: { file_path: "/x" }, toolResponse: { file: { content: "a" } }, occurredAt: new Date().toISOString() };
  assert.notEqual(toolResultCaptureOf(value), null);
  assert.notEqual(toolResultCaptureOf({ ...value, isError: true }), null);
  sameAnswer(value);
});

test("each field replaced by an odd value, removed, or joined by another key; odd shapes", () => {
  const base: Record<string, unknown> = { host: "claude", sessionId: "s", toolCallId: "toolu_1", toolName: "Bash", toolInput: { command: "ls" }, toolResponse: "out", occurredAt: "2026-01-01T00:00:00.000Z", isError: false };
  for (const key of Object.keys(base)) {
    for (const replacement of ODD_VALUES) sameAnswer({ ...base, [key]: replacement });
    const { [key]: _removed, ...rest } = base;
    sameAnswer(rest);
    sameAnswer({ ...base, [`${key}Extra`]: 1 });
  }
  for (const value of [null, undefined, [], "capture", 1, Object.create(null), JSON.parse('{"__proto__":{}}')]) sameAnswer(value);
  sameAnswer(Object.assign(Object.create(null) as Record<string, unknown>, base));
  sameAnswer(Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, base));
  sameAnswer(JSON.parse(JSON.stringify(base).replace('{"host"', '{"__proto__":null,"host"')));
  const hidden = { ...base };
  Object.defineProperty(hidden, "isError", { value: "no", enumerable: false });
  sameAnswer(hidden);
});

function storeText(workspace: string): string {
  const folder = path.join(workspace, ".docket", "evidence");
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => fs.readFileSync(path.join(folder, name), "utf8"))
    .join("");
}

test("captureToolResult writes the same record and refuses with the same text whichever path checks the input", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-capture-shape-"));
  const workspace = (name: string): string => {
    const made = path.join(folder, name);
    fs.mkdirSync(made);
    return made;
  };
  try {
    const good = { host: "claude", sessionId: "s", toolCallId: "toolu_1", toolName: "Read", toolInput: { file_path: "a", token: "x" }, toolResponse: { file: { content: "x" } }, occurredAt: "2026-01-01T00:00:00.000Z", isError: false };
    assert.notEqual(toolResultCaptureOf(good), null);
    const direct = workspace("direct");
    const first = await captureToolResult(direct, good);
    // The schema's path for the same capture: a copy whose isError the check cannot read as an own enumerable key.
    const viaSchema: Record<string, unknown> = { ...good };
    delete viaSchema.isError;
    Object.defineProperty(viaSchema, "isError", { value: false, enumerable: false });
    assert.equal(toolResultCaptureOf(viaSchema), null);
    assert.ok(captureSchemas().ToolResultCapture.safeParse(viaSchema).success);
    const general = workspace("general");
    const second = await captureToolResult(general, viaSchema as typeof good);
    assert.deepEqual(second, first);
    assert.equal(storeText(general), storeText(direct));
    for (const refusal of [{ ...good, toolName: " Read" }, { ...good, host: "Claude" }, { ...good, occurredAt: "yesterday" }, { ...good, extra: 1 }]) {
      const schemaIssues = captureSchemas().ToolResultCapture.safeParse(refusal);
      assert.equal(schemaIssues.success, false);
      await assert.rejects(captureToolResult(workspace(`refused-${refusal.toolName}-${refusal.host}-${refusal.occurredAt.length}-${"extra" in refusal}`), refusal), /^DocketError: Invalid tool result capture: /u);
    }
    await assert.rejects(captureToolResult(workspace("blank"), { ...good, toolName: " Read" }), /Invalid tool result capture: toolName: must be non-blank without surrounding whitespace/u);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
