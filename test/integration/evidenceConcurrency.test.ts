// Parallel tool calls fire their hooks as separate processes at the same moment. Several real
// child processes capture large results into one store at once: every line must be whole, every
// record valid, and the sequence gap-free, unique and in file order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { evidenceDirectory, workspaceEvidence } from "../../server/evidence/evidenceStore";
import { parseRecordLine } from "../../server/evidence/evidenceRecord";
import { tempFolder } from "../support/gitRepo";

const storeModule = path.join(__dirname, "..", "..", "server", "evidence", "evidenceStore.js");
const WRITERS = 6;
const PER_WRITER = 12;

// Each writer waits for a shared start time so the captures really overlap.
const writerScript = `
const { captureToolResult, captureUserDecision } = require(process.argv[1]);
const [folder, writer, count, startAt] = process.argv.slice(2);
(async () => {
  while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 1));
  for (let index = 0; index < Number(count); index += 1) {
    const filler = String.fromCharCode(97 + Number(writer)).repeat(30000 + index);
    await captureToolResult(folder, {
      host: "claude", sessionId: "w" + writer, toolCallId: "call-" + writer + "-" + index, toolName: "Bash",
      toolInput: { command: "echo " + writer }, toolResponse: { stdout: filler, stderr: "" }, occurredAt: new Date(0).toISOString(),
    });
    if (index % 4 === 0) await captureUserDecision(folder, { host: "claude", sessionId: "w" + writer, prompt: "decision " + writer + " " + index, occurredAt: new Date(0).toISOString() });
  }
})().catch((error) => { console.error(error); process.exit(1); });
`;

function runWriter(folder: string, writer: number, startAt: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", writerScript, storeModule, folder, String(writer), String(PER_WRITER), String(startAt)], { stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? -1));
  });
}

test("concurrent hook processes never interleave or corrupt lines, and numbering stays gap-free", async () => {
  const folder = tempFolder("docket-evidence-concurrent-");
  const startAt = Date.now() + 400;
  const codes = await Promise.all(Array.from({ length: WRITERS }, (_, writer) => runWriter(folder, writer, startAt)));
  assert.deepEqual(codes, Array.from({ length: WRITERS }, () => 0));

  const directory = evidenceDirectory(folder);
  const segments = fs.readdirSync(directory).filter((name) => name.endsWith(".jsonl")).sort();
  const lines = segments.flatMap((name) => fs.readFileSync(path.join(directory, name), "utf8").split("\n").filter((line) => line.length > 0));
  const decisionsPerWriter = Math.ceil(PER_WRITER / 4);
  const expected = WRITERS * (PER_WRITER + decisionsPerWriter);
  assert.equal(lines.length, expected);
  const records = lines.map((line, index) => parseRecordLine(line) ?? assert.fail(`line ${index} is not a valid record`));
  assert.deepEqual(
    records.map((record) => record.sequence),
    Array.from({ length: expected }, (_, index) => index + 1),
  );
  // No record's text is mixed with another writer's bytes.
  for (const record of records) {
    if (record.kind !== "tool-result") continue;
    const part = record.parts[0];
    assert.ok(part?.kind === "text");
    const writer = Number(record.toolCallId.split("-")[1]);
    assert.equal(part.text, String.fromCharCode(97 + writer).repeat(part.text.length));
  }
  const lookup = workspaceEvidence(folder);
  for (const record of records) if (record.kind === "tool-result") assert.equal(lookup.toolResult(record.branchResultId)?.sequence, record.sequence);
  assert.equal(lookup.latestUserDecision()?.sequence, Math.max(...records.filter((record) => record.kind === "user-decision").map((record) => record.sequence)));
  assert.equal(fs.existsSync(path.join(directory, "append.lock")), false);
});
