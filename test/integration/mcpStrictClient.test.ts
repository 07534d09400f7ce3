// A strict tool-calling client against the real `docket mcp` (the bundled CLI as a child process,
// the MCP SDK's own client over stdio, a temporary Git repository): the schemas it lists pass both
// strict dialects, a whole cycle driven with arguments written the way a strict model writes them
// (every key present, null for "not given") is accepted, and bad input is still refused with a
// coded error that writes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { callTool, callToolOk, connectMcp, structuredField, type ToolAnswer } from "../support/mcpClient";
import { tempRepo } from "../support/gitRepo";
import { geminiParametersViolations, openAiStrictConversion, openAiStrictViolations } from "../support/strictSchemaDialects";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The union member an object is written for: its one-value enums (discriminators) match. */
function memberFor(members: readonly unknown[], value: JsonObject): JsonObject | undefined {
  return members.filter(isObject).find((member) => {
    if (!isObject(member.properties)) return false;
    return Object.entries(member.properties).every(([key, schema]) => {
      const values = isObject(schema) && Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum : null;
      return values === null || value[key] === values[0];
    });
  });
}

/** `args` as a strict model writes them against the published schema: every key present, null where none is given. */
function strictShaped(schema: unknown, value: unknown): unknown {
  if (!isObject(schema)) return value;
  if (Array.isArray(value)) return value.map((entry) => strictShaped(schema.items, entry));
  if (!isObject(value)) return value;
  if (Array.isArray(schema.anyOf)) {
    const member = memberFor(schema.anyOf, value);
    return member === undefined ? value : strictShaped(member, value);
  }
  if (!isObject(schema.properties)) return value;
  const shaped: JsonObject = {};
  for (const [key, property] of Object.entries(schema.properties)) shaped[key] = key in value ? strictShaped(property, value[key]) : null;
  return shaped;
}

interface StrictClient {
  /** Calls a tool with strict-shaped arguments, first checking a strict model could have written them. */
  call(name: string, args?: JsonObject): Promise<ToolAnswer>;
  ok(name: string, args?: JsonObject): Promise<ToolAnswer>;
}

async function strictClient(client: Client): Promise<StrictClient> {
  const { tools } = await client.listTools();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const schemas = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
  const shape = (name: string, args: JsonObject): JsonObject => {
    const schema = schemas.get(name);
    assert.ok(schema !== undefined, name);
    const shaped = strictShaped(schema, args) as JsonObject;
    const validate = ajv.compile(openAiStrictConversion(schema) as object);
    assert.ok(validate(shaped), `${name}: a strict model could not write ${JSON.stringify(shaped)}: ${ajv.errorsText(validate.errors)}`);
    return shaped;
  };
  return {
    call: (name, args = {}) => callTool(client, name, shape(name, args)),
    ok: (name, args = {}) => callToolOk(client, name, shape(name, args)),
  };
}

async function turnOn(workspace: string): Promise<void> {
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  await ledger.turnOn();
}

test("tools/list over stdio: every tool's schema passes OpenAI's strict conversion and Gemini's parameters", async () => {
  const repo = tempRepo({ files: { "README.md": "hello\n" } });
  const client = await connectMcp(repo.root);
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 14);
    for (const tool of tools) {
      assert.deepEqual(openAiStrictViolations(tool.inputSchema), [], `${tool.name} (OpenAI strict)`);
      assert.deepEqual(geminiParametersViolations(tool.inputSchema), [], `${tool.name} (Gemini parameters)`);
    }
  } finally {
    await client.close();
    repo.dispose();
  }
});

test("a whole cycle with strict-shaped arguments (null for every key not given) is accepted", async () => {
  const repo = tempRepo({ files: { "src/greeting.ts": "export const greeting = 1;\n", "README.md": "hello\n" } });
  const client = await connectMcp(repo.root, { name: "strict-client" });
  try {
    const strict = await strictClient(client);
    await turnOn(repo.root);
    await strict.ok("status");
    const opened = await strict.ok("open_judgment", {
      routeDefinitionId: "route:meaning-settlement",
      question: "What should the greeting say?",
      obligations: [{ obligationId: "obligation:greeting", statement: "The greeting wording is decided." }],
    });
    assert.equal(structuredField(opened, "result", "runtime", "state"), "frame");
    const concluded = await strict.ok("conclude_judgment", {
      disposition: "judgment",
      outcome: { kind: "contextual-judgment", rationale: "Two reads better.", artifact: "Set greeting to 2.", stopEvidence: ["The wording is agreed."] },
    });
    assert.equal(structuredField(concluded, "state", "nextAction"), "authorize_change");
    await strict.ok("authorize_change", { movement: "Change greeting to 2.", stableLanding: "greeting is 2.", verificationTarget: "The file says 2." });
    repo.write("src/greeting.ts", "export const greeting = 2;\n");
    // changedPaths and verification null: Git supplies the paths, verification takes its default.
    const landed = await strict.ok("record_landing", { result: "Greeting changed." });
    assert.deepEqual(structuredField(landed, "landing", "changedPaths"), ["src/greeting.ts"]);
    assert.equal(structuredField(landed, "state", "requiredPurpose"), "reroute-decision");
    await strict.ok("open_judgment", {
      purpose: "reroute-decision",
      routeDefinitionId: "route:meaning-settlement",
      question: "Does the landing change the plan?",
      obligations: [{ obligationId: "obligation:plan", statement: "The plan still holds." }],
    });
    // The merged root: outcome, applicability, nominations, … arrive as null beside reason and basis.
    const rerouted = await strict.ok("conclude_judgment", { disposition: "not-applicable", reason: "The plan is unchanged.", basis: ["Only the planned file changed."] });
    assert.equal(structuredField(rerouted, "result", "runtime", "reroutePending"), false);
    const planned = await strict.ok("plan", { task: "make greet.ts trim the name" });
    assert.ok(typeof structuredField(planned, "plan", "planSha256") === "string");
  } finally {
    await client.close();
    repo.dispose();
  }
});

test("a null for a key that is not optional, an unknown key or a broken constraint is still a coded refusal that writes nothing", async () => {
  const repo = tempRepo({ files: { "README.md": "hello\n" } });
  const client = await connectMcp(repo.root);
  try {
    await turnOn(repo.root);
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const before = fs.readFileSync(ledgerPath, "utf8");
    const obligations = [{ obligationId: "obligation:x", statement: "Decided." }];
    const base = { purpose: null, routeDefinitionId: "route:meaning-settlement", question: "Q?", obligations, ownerSkill: null };

    const requiredNull = await callTool(client, "open_judgment", { ...base, question: null });
    assert.equal(requiredNull.isError, true);
    assert.match(requiredNull.text, /^docket\.invalid-params: .*question/u);
    assert.equal(structuredField(requiredNull, "error", "code"), "docket.invalid-params");
    // Lengths, patterns and item counts are published in words only; zod still enforces them.
    assert.match((await callTool(client, "open_judgment", { ...base, question: "x".repeat(4001) })).text, /^docket\.invalid-params: Invalid arguments for open_judgment: question: Too big/u);
    assert.match((await callTool(client, "open_judgment", { ...base, routeDefinitionId: "9 not an id" })).text, /^docket\.invalid-params: Invalid arguments for open_judgment: routeDefinitionId: /u);
    assert.match((await callTool(client, "open_judgment", { ...base, obligations: [] })).text, /^docket\.invalid-params: Invalid arguments for open_judgment: obligations: Too small/u);
    assert.match((await callTool(client, "open_judgment", { ...base, purpose: "someday" })).text, /^docket\.invalid-params: Invalid arguments for open_judgment: purpose: /u);
    // A null for a key no schema knows is not read as "not given".
    assert.match((await callTool(client, "record_landing", { changedPaths: null, result: "x", verification: null, bogus: null })).text, /^docket\.invalid-params: .*bogus/u);
    // A key of the other disposition with a value (not null) is refused as before.
    const mixed = await callTool(client, "conclude_judgment", { disposition: "judgment", reason: "why", outcome: { kind: "needs-evidence", evidenceNeeded: ["x"], resolutionOwner: "me", artifact: null } });
    assert.match(mixed.text, /^docket\.invalid-params: /u);
    assert.equal(fs.readFileSync(ledgerPath, "utf8"), before, "refused calls wrote nothing");

    // Off the request thread (the Notebook's tools run in the worker) a null is "not given" too.
    const notebook = await callTool(client, "notebook", { notebook: null, recordIds: null });
    assert.equal(structuredField(notebook, "error", "code"), "docket.notebook-not-configured");
    assert.match(notebook.text, /no notebook folder was given/u);
  } finally {
    await client.close();
    repo.dispose();
  }
});
