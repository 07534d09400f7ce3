// The MCP surface without a transport: schemas derived from the backend's zod definitions, the
// next-step and remedy sentences, coded refusals from callTool, and the launch command line.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import {
  AuthorizeChangeParams,
  ConcludeJudgmentParams,
  ErrorCodes,
  OpenContextSourcesParams,
  OpenJudgmentParams,
  RecordLandingParams,
} from "../../server/protocol/messages";
import { toolInputSchema } from "../../server/mcp/inputSchema";
import { errorRemedy, nextStep, type AgentState } from "../../server/mcp/guidance";
import { DOCKET_MCP_INSTRUCTIONS } from "../../server/mcp/instructions";
import { mcpLaunch } from "../../server/mcp/launch";
import { agentState, callTool, listTools } from "../../server/mcp/mcpServer";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { ROUTE_CATALOGUE } from "../../server/developer/routes";

function withoutDialect(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return rest;
}

test("object schemas are zod's own conversion of the backend's definitions, without $schema", () => {
  for (const schema of [OpenJudgmentParams, OpenContextSourcesParams, AuthorizeChangeParams, RecordLandingParams]) {
    assert.deepEqual(toolInputSchema(schema), withoutDialect(schema));
  }
  // A defaulted field is optional on input.
  assert.deepEqual(toolInputSchema(RecordLandingParams).required, ["result"]);
});

test("conclude_judgment's root union becomes one object schema that keeps every variant's property schemas", () => {
  const merged = toolInputSchema(ConcludeJudgmentParams);
  const variants = (withoutDialect(ConcludeJudgmentParams).oneOf ?? withoutDialect(ConcludeJudgmentParams).anyOf) as { properties: Record<string, unknown> }[];
  assert.equal(merged.type, "object");
  assert.equal(merged.additionalProperties, false);
  assert.deepEqual(merged.required, ["disposition"]);
  assert.deepEqual(merged.properties.disposition, { type: "string", enum: ["not-applicable", "judgment"] });
  for (const variant of variants) {
    for (const [key, schema] of Object.entries(variant.properties)) {
      if (key !== "disposition") assert.deepEqual(merged.properties[key], schema, key);
    }
  }
  assert.match(String(merged.description), /disposition "not-applicable": requires reason, basis; no other keys/u);
  assert.match(String(merged.description), /disposition "judgment": requires outcome; optional applicability, nominations, selectionBasis, coverage; no other keys/u);
  for (const keyword of ["oneOf", "anyOf", "allOf"]) assert.equal(keyword in merged, false);
});

test("a schema that is not an object (or a union of objects) is refused", () => {
  assert.throws(() => toolInputSchema(z.string()));
  assert.throws(() => toolInputSchema(z.union([z.strictObject({ a: z.string() }), z.string()])));
});

test("every tool is listed with a description, annotations and an object schema", () => {
  const tools = listTools();
  assert.deepEqual(tools.map((tool) => tool.name), [
    "status",
    "open_judgment",
    "open_context_sources",
    "conclude_judgment",
    "authorize_change",
    "record_landing",
    "plan",
    "review_report",
    "notebook",
    "propose_notebook_records",
    "review_open",
    "review_submit",
    "observer_status",
    "observer_commit",
  ]);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object");
    assert.ok((tool.description ?? "").includes("Result") || tool.name === "status", tool.name);
    assert.equal(tool.annotations?.readOnlyHint, tool.name === "status" || tool.name === "plan" || tool.name === "notebook" || tool.name === "observer_status");
  }
  const openJudgment = tools.find((tool) => tool.name === "open_judgment")?.description ?? "";
  for (const route of ROUTE_CATALOGUE) assert.ok(openJudgment.includes(`"${route.routeDefinitionId}" (${route.sign}): ${route.sense}`), route.routeDefinitionId);
  for (const name of ["open_judgment", "conclude_judgment", "authorize_change", "record_landing", "status", "plan", "review_report", "propose_notebook_records", "review_open", "review_submit", "observer_status", "observer_commit"]) assert.match(DOCKET_MCP_INSTRUCTIONS, new RegExp(name, "u"));
});

const base: AgentState = {
  phase: "deciding",
  workScopeId: "scope:x",
  legalOperations: ["open_judgment"],
  nextAction: "open_judgment",
  requiredPurpose: "work-decision",
  shell: "deny",
  edit: "deny",
  reason: "denied",
};

test("the next step names the legal operation and the purpose to echo", () => {
  assert.match(nextStep({ ...base, phase: "off", legalOperations: [], nextAction: null, requiredPurpose: null }), /Only the user turns it on/u);
  assert.match(nextStep({ ...base, phase: "blocked", legalOperations: [], nextAction: null }), /docket ledger verify/u);
  assert.match(nextStep(base), /open_judgment \(purpose "work-decision"\)/u);
  assert.match(nextStep({ ...base, phase: "rerouting", requiredPurpose: "reroute-decision" }), /"reroute-decision"/u);
  assert.match(nextStep({ ...base, phase: "verifying", requiredPurpose: "verification-decision" }), /route:claim-evidence-assessment/u);
  assert.match(nextStep({ ...base, legalOperations: ["open_context_sources", "conclude_judgment"], nextAction: "open_context_sources", requiredPurpose: null }), /conclude_judgment/u);
  assert.match(nextStep({ ...base, phase: "ready-to-edit", legalOperations: ["authorize_change", "open_judgment"], nextAction: "authorize_change" }), /before editing any file/u);
  assert.match(nextStep({ ...base, phase: "done", legalOperations: ["authorize_change", "open_judgment"], nextAction: "authorize_change" }), /nothing is owed/u);
  assert.match(nextStep({ ...base, phase: "editing", legalOperations: ["record_landing"], nextAction: "record_landing", shell: "allow", edit: "allow" }), /record_landing/u);
});

test("every Docket error code has a remedy; invalid params names the tool", () => {
  for (const code of Object.values(ErrorCodes)) assert.ok(errorRemedy(code, base, "open_judgment").length > 10, code);
  assert.match(errorRemedy(ErrorCodes.invalidParams, base, "record_landing"), /call record_landing again/u);
  assert.match(errorRemedy(ErrorCodes.operationNotLegal, base, "authorize_change"), /Legal now: open_judgment/u);
  assert.match(errorRemedy(ErrorCodes.purposeMismatch, { ...base, requiredPurpose: "reroute-decision" }, "open_judgment"), /"reroute-decision"/u);
});

test("callTool answers bad arguments, unknown tools and an unusable ledger with coded tool errors", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docket-mcp-unit-"));
  try {
    const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath: path.join(folder, ".docket", "ledger.jsonl"), trusted: true });
    const bad = await callTool(ledger, folder, "open_context_sources", { inventorySourceIds: ["skill-a", "skill-a"] });
    assert.equal(bad.isError, true);
    assert.match(String((bad.content[0] as { text: string }).text), /^docket\.invalid-params: Invalid arguments for open_context_sources: inventorySourceIds: inventory source ids must be unique/u);
    assert.deepEqual((bad.structuredContent as { error: { code: string } }).error.code, "docket.invalid-params");
    // `arguments` must be an object for every tool (absent is none); null, arrays and scalars are refused.
    for (const args of [5, [], "x", null, false]) {
      const refused = await callTool(ledger, folder, "status", args);
      assert.equal((refused.structuredContent as { error: { code: string } }).error.code, "docket.invalid-params", JSON.stringify(args));
    }
    assert.equal((await callTool(ledger, folder, "status", undefined)).isError, undefined);
    // Arguments nested past any tool's shape are refused by name, before a recursive walk overflows.
    let deep: unknown = "leaf";
    for (let level = 0; level < 100_000; level += 1) deep = level % 2 === 0 ? [deep] : { next: deep };
    for (const tool of ["status", "propose_notebook_records", "conclude_judgment"]) {
      const refused = await callTool(ledger, folder, tool, { records: deep });
      assert.match(String((refused.content[0] as { text: string }).text), new RegExp(`^docket\\.invalid-params: Invalid arguments for ${tool}: nested more than 64 levels deep`, "u"));
    }
    const unknown = await callTool(ledger, folder, "turn_on", {});
    assert.match(String((unknown.content[0] as { text: string }).text), /Unknown tool turn_on/u);
    const notOn = await callTool(ledger, folder, "record_landing", { result: "x" });
    assert.equal(notOn.isError, true);
    assert.equal(fs.existsSync(path.join(folder, ".docket", "ledger.jsonl")), false, "nothing was written");

    // A ledger path that is a directory: the call still returns a readable refusal.
    const blockedPath = path.join(folder, "as-dir");
    fs.mkdirSync(blockedPath);
    const broken = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath: blockedPath, trusted: true });
    const status = await callTool(broken, folder, "status", {});
    assert.equal(typeof (status.content[0] as { text: string }).text, "string");
    assert.equal(agentState(broken).legalOperations.length, 0);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("the launch command line: nothing without a folder or trust; the ledger only when not the default; the notebook when configured", () => {
  const input = { cliPath: "/ext/dist/docket.js", runtimePath: "/usr/bin/node", workspaceFolder: "/work/repo", ledgerPath: null, notebookPath: null, trusted: true, electronRuntime: false };
  assert.equal(mcpLaunch({ ...input, workspaceFolder: null }), null);
  assert.equal(mcpLaunch({ ...input, trusted: false }), null);
  assert.deepEqual(mcpLaunch(input), { command: "/usr/bin/node", args: ["/ext/dist/docket.js", "mcp", "--workspace", "/work/repo"], env: {}, cwd: "/work/repo" });
  assert.deepEqual(mcpLaunch({ ...input, ledgerPath: path.join("/work/repo", ".docket", "ledger.jsonl") })?.args, ["/ext/dist/docket.js", "mcp", "--workspace", "/work/repo"]);
  assert.deepEqual(mcpLaunch({ ...input, ledgerPath: "/elsewhere/l.jsonl" })?.args, ["/ext/dist/docket.js", "mcp", "--workspace", "/work/repo", "--ledger", "/elsewhere/l.jsonl"]);
  assert.deepEqual(mcpLaunch({ ...input, runtimePath: "/opt/code/code", electronRuntime: true })?.env, { ELECTRON_RUN_AS_NODE: "1" });
  // Passed as written: the server applies the notebook path rules against the workspace on each call.
  assert.deepEqual(mcpLaunch({ ...input, notebookPath: "notes/research" })?.args, ["/ext/dist/docket.js", "mcp", "--workspace", "/work/repo", "--notebook", "notes/research"]);
  assert.deepEqual(mcpLaunch({ ...input, notebookPath: "  " })?.args, ["/ext/dist/docket.js", "mcp", "--workspace", "/work/repo"]);
});
