// Golden Stop fixtures per host (test/fixtures/hooks/<host>/stop/): `render-*` give a decision
// and the exact JSON the host must receive, checked against the host's documented Stop output
// schema; `input-*` give a host's Stop stdin and the fields Docket reads from it. The process-level
// Stop fixtures (`../Stop-*.json`) run through hooksGolden.test.ts; these pin the dialects the
// completion guard's decisions will use before any decision produces them.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { HOOK_HOSTS, parseHookInput } from "../../server/hooks/hostInput";
import { renderDecision, type HookDecision } from "../../server/hooks/hostOutput";
import { HOST_OUTPUT_SCHEMAS } from "../../server/hooks/hostOutputSchemas";
import { repoRoot } from "../support/repoRoot";

const FIXTURES = path.join(repoRoot(), "test", "fixtures", "hooks");

const Decision: z.ZodType<HookDecision> = z.union([
  z.strictObject({ kind: z.literal("none") }),
  z.strictObject({ kind: z.literal("deny"), reason: z.string() }),
  z.strictObject({ kind: z.literal("context"), text: z.string() }),
  z.strictObject({ kind: z.literal("notice"), text: z.string() }),
  z.strictObject({ kind: z.literal("block"), reason: z.string(), notice: z.string().nullable() }),
]);

const RenderFixture = z.strictObject({ description: z.string().min(1), decision: Decision, expected: z.record(z.string(), z.unknown()) });

const InputFixture = z.strictObject({
  description: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  expected: z.strictObject({
    dialect: z.enum(["claude", "codex", "vscode"]),
    sessionId: z.string().nullable(),
    cwd: z.string().nullable(),
    lastAssistantMessage: z.string().nullable(),
    stopHookActive: z.boolean(),
    transcriptPath: z.string().nullable(),
    turnId: z.string().nullable(),
  }),
});

function fixtures(host: string, prefix: "render-" | "input-"): { name: string; raw: unknown }[] {
  const folder = path.join(FIXTURES, host, "stop");
  return fs
    .readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && name.endsWith(".json"))
    .sort()
    .map((name) => ({ name: name.slice(0, -".json".length), raw: JSON.parse(fs.readFileSync(path.join(folder, name), "utf8")) as unknown }));
}

test("every host has Stop render fixtures for none, notice and block, and Stop input fixtures", () => {
  for (const host of HOOK_HOSTS) {
    const names = fixtures(host, "render-").map((entry) => entry.name);
    for (const required of ["render-none", "render-notice", "render-block", "render-block-notice", "render-block-empty-reason"]) {
      assert.ok(names.includes(required), `${host} has ${required}`);
    }
    assert.ok(fixtures(host, "input-").length > 0, `${host} has Stop input fixtures`);
  }
});

for (const host of HOOK_HOSTS) {
  for (const entry of fixtures(host, "render-")) {
    test(`${host}/stop/${entry.name}: rendered exactly, within ${host}'s documented Stop schema`, () => {
      const fixture = RenderFixture.parse(entry.raw);
      const rendered = renderDecision(host, "Stop", fixture.decision);
      assert.equal(rendered.exitCode, 0);
      assert.ok(rendered.stdout.endsWith("}\n") && rendered.stdout.split("\n").length === 2, "stdout holds exactly one JSON line");
      const json: unknown = JSON.parse(rendered.stdout);
      assert.deepEqual(json, fixture.expected);
      const checked = HOST_OUTPUT_SCHEMAS[host].Stop.safeParse(json);
      assert.ok(checked.success, `${host} Stop schema: ${checked.success ? "" : checked.error.message}`);
    });
  }
  for (const entry of fixtures(host, "input-")) {
    test(`${host}/stop/${entry.name}: the Stop fields Docket reads`, () => {
      const fixture = InputFixture.parse(entry.raw);
      const parsed = parseHookInput(host, "Stop", JSON.stringify(fixture.input));
      const { dialect, sessionId, cwd, lastAssistantMessage, stopHookActive, transcriptPath, turnId } = parsed;
      assert.deepEqual({ dialect, sessionId, cwd, lastAssistantMessage, stopHookActive, transcriptPath, turnId }, fixture.expected);
    });
  }
}

test("every Stop output any decision can produce is within the host's documented schema", () => {
  const texts = ["", " ", "x", "Docket: a notice.", "é".repeat(9_000), "line\nline"];
  for (const dialect of HOOK_HOSTS) {
    for (const a of texts) {
      for (const b of [...texts, null]) {
        for (const decision of [{ kind: "notice", text: a }, { kind: "block", reason: a, notice: b }] as HookDecision[]) {
          const json: unknown = JSON.parse(renderDecision(dialect, "Stop", decision).stdout);
          const checked = HOST_OUTPUT_SCHEMAS[dialect].Stop.safeParse(json);
          assert.ok(checked.success, `${dialect} ${JSON.stringify(decision).slice(0, 80)}`);
          const blocks = JSON.stringify(json).includes('"block"');
          assert.equal(blocks, decision.kind === "block" && decision.reason.trim() !== "", "only a block with a reason blocks");
        }
      }
    }
  }
});
