// The heartbeat's direct checks (server/hooks/heartbeat.ts heartbeatOf, heartbeatFileOf) let a hook
// skip building and running the file's zod schemas. Each must answer only where the schema accepts,
// with exactly what its parse returns (same keys in the same order, so the rewritten file has the
// same bytes), and must accept what Docket itself writes; anything else is left to the schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { HEARTBEAT_FORMAT, heartbeatFileOf, heartbeatOf, heartbeatPath, heartbeatSchemas, readHeartbeats, recordHeartbeat } from "../../server/hooks/heartbeat";

const text = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ minLength: 35, maxLength: 45 }), fc.string({ minLength: 95, maxLength: 105 }), fc.string({ minLength: 495, maxLength: 505 }));
const oddValue = fc.oneof(fc.constantFrom(null, 0, true, [], {}, "", "claude", "Codex"), fc.jsonValue({ maxDepth: 1 }));
const fullBeat = fc.record({
  host: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("claude", "codex", "vscode") }, { weight: 1, arbitrary: oddValue }),
  event: fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: oddValue }),
  sessionId: fc.oneof({ weight: 3, arbitrary: text }, { weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: oddValue }),
  at: fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: oddValue }),
});
/** Whole beats, and beats with a key missing or one too many. */
const beat = fc.oneof(
  { weight: 6, arbitrary: fullBeat },
  { weight: 1, arbitrary: fc.tuple(fullBeat, fc.constantFrom("host", "event", "sessionId", "at")).map(([value, key]) => Object.fromEntries(Object.entries(value).filter(([name]) => name !== key))) },
  { weight: 1, arbitrary: fc.tuple(fullBeat, fc.constantFrom("extra", "__proto__", "Host"), oddValue).map(([value, key, extra]) => ({ ...value, [key]: extra })) },
);
const beatOrOdd = fc.oneof({ weight: 8, arbitrary: fullBeat }, { weight: 1, arbitrary: beat }, { weight: 1, arbitrary: oddValue });
const file = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        format: fc.oneof({ weight: 6, arbitrary: fc.constant(HEARTBEAT_FORMAT) }, { weight: 1, arbitrary: oddValue }),
        hosts: fc.oneof({ weight: 6, arbitrary: fc.oneof({ weight: 6, arbitrary: fc.record({ claude: beatOrOdd, codex: beatOrOdd, vscode: beatOrOdd }, { requiredKeys: [] }) }, { weight: 1, arbitrary: fc.record({ claude: beatOrOdd, other: beatOrOdd }) }) }, { weight: 1, arbitrary: oddValue }),
        extra: oddValue,
      },
      { requiredKeys: ["format", "hosts"] },
    )
      // An extra top-level key in one file of six.
      .chain((value) => fc.integer({ min: 0, max: 5 }).map((pick) => (pick === 0 ? value : Object.fromEntries(Object.entries(value).filter(([name]) => name !== "extra"))))),
  },
  { weight: 1, arbitrary: oddValue },
);

/** The value as JSON.parse hands it over (no undefined, own data properties only). */
function asParsed(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? "null");
}

test("heartbeatOf answers only where the beat schema accepts, with its parse's exact value", () => {
  let answered = 0;
  fc.assert(
    fc.property(beat, (value) => {
      const parsedValue = asParsed(value);
      const direct = heartbeatOf(parsedValue);
      const schema = heartbeatSchemas().HookHeartbeat.safeParse(parsedValue);
      if (direct !== null) {
        answered += 1;
        assert.ok(schema.success);
        assert.equal(JSON.stringify(direct), JSON.stringify(schema.data));
      } else {
        // The direct check is exact for beats: it declines only what the schema refuses.
        assert.equal(schema.success, false);
      }
    }),
    { numRuns: 4_000 },
  );
  assert.ok(answered > 200, `only ${answered} beats were answered directly`);
});

test("heartbeatFileOf answers only where the file schema accepts, with its parse's exact value", () => {
  let answered = 0;
  fc.assert(
    fc.property(file, (value) => {
      const parsedValue = asParsed(value);
      const direct = heartbeatFileOf(parsedValue);
      const schema = heartbeatSchemas().HeartbeatFile.safeParse(parsedValue);
      if (direct !== null) {
        answered += 1;
        assert.ok(schema.success);
        assert.equal(JSON.stringify(direct), JSON.stringify(schema.data));
      } else {
        assert.equal(schema.success, false);
      }
    }),
    { numRuns: 4_000 },
  );
  assert.ok(answered > 50, `only ${answered} files were answered directly`);
});

test("the file Docket writes is read back directly, and the same as through the schema", () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-heartbeat-fast-"));
  try {
    fs.mkdirSync(path.join(workspace, ".git"));
    recordHeartbeat(workspace, { host: "codex", event: "Stop", sessionId: "not-a-uuid", at: "2026-12-02T17:00:00.000Z" });
    recordHeartbeat(workspace, { host: "claude", event: "PreToolUse", sessionId: "0f8fad5b-d9cb-469f-a165-70867728950e", at: "2026-12-02T17:00:01.000Z" });
    const raw: unknown = JSON.parse(fs.readFileSync(heartbeatPath(workspace), "utf8"));
    const direct = heartbeatFileOf(raw);
    assert.notEqual(direct, null);
    assert.equal(JSON.stringify(direct), JSON.stringify(heartbeatSchemas().HeartbeatFile.parse(raw)));
    assert.deepEqual(
      readHeartbeats(workspace).map((entry) => [entry.host, entry.sessionId]),
      [
        ["claude", "0f8fad5b-d9cb-469f-a165-70867728950e"],
        ["codex", null],
      ],
    );
    // A beat the schema refuses is not written.
    recordHeartbeat(workspace, { host: "vscode", event: "x".repeat(101), sessionId: null, at: "t" });
    assert.deepEqual(readHeartbeats(workspace).map((entry) => entry.host), ["claude", "codex"]);
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
