// Every MCP tool's handler with arbitrary arguments: random JSON of any type (the `arguments`
// value itself may be a number, an array, null), and each tool's real arguments (a Developer
// cycle's open, conclude, authorize and landing, a plan and a review report, a notebook read and a
// proposal of real records) mutated, against a real Git workspace with Docket on and a real
// notebook. callTool runs in process for volume; a handful of the same cases then go through the
// real `docket mcp` over stdio. Every refusal is a tool result with a docket.* code other than
// docket.internal and no zod dump; nothing throws; the server answers every call. Cases share the
// workspace and its ledger (each one starts where the last left the cycle, and every 60th starts
// over), so a failure is replayed by running the whole seed again, not its path alone.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import fc from "fast-check";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DOCKET_TOOL_NAMES } from "../../../server/mcp/tools";
import { callTool } from "../../../server/mcp/mcpServer";
import { setupNotebook } from "../../../server/notebook/notebookStore";
import { discardProposal, listPendingProposalIds } from "../../../server/notebook/proposalStore";
import { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";
import { runGit } from "../../support/gitRepo";
import { RawMcpClient, type JsonRpcResponse } from "../../support/rawMcpClient";
import { anyJson, jsonMutation, jsonText, mutateJson, type Json, type JsonMutation } from "./mutate";
import { checkRejectionMessage, preview, violation, type FuzzSubTarget } from "./subTarget";

interface McpCase {
  readonly tool: number;
  readonly args: { readonly kind: "random"; readonly value: Json } | { readonly kind: "real"; readonly example: number; readonly mutations: readonly JsonMutation[] } | { readonly kind: "absent" };
}

const SOURCE_ID = "source-00000000-0000-4000-8000-00000000fa01";
const obligations = [{ obligationId: "obligation:scope", statement: "The change stays inside src/." }];

function realArguments(notebookRecord: string): Record<string, readonly Json[]> {
  return {
    status: [{}],
    open_judgment: [
      { purpose: "work-decision", routeDefinitionId: "route:meaning-settlement", question: "What should the greeting say?", obligations },
      { routeDefinitionId: "route:claim-evidence-assessment", question: "Verified?", obligations, ownerSkill: { skillName: "verify", subquestion: "Is it?", expectedContribution: "A check." } },
    ],
    open_context_sources: [{ inventorySourceIds: ["skill-verify"] }],
    conclude_judgment: [
      { disposition: "not-applicable", reason: "The plan is unchanged.", basis: ["Only the planned files changed."] },
      { disposition: "judgment", outcome: { kind: "contextual-judgment", rationale: "Two reads better.", artifact: "Set greeting to 2.", stopEvidence: ["Agreed."] } },
      {
        disposition: "judgment",
        applicability: { kind: "applicable", basis: ["The file can be read back."] },
        nominations: [{ nominationId: "nomination:read", kind: "tool-result", branchResultId: "branch-result-0123456789abcdef" }],
        selectionBasis: ["Reading back is the target."],
        coverage: { status: "sufficient", contributions: [{ nominationId: "nomination:read", useAs: "evidence", contribution: "It says 2.", assurance: "agent-asserted" }] },
        outcome: { kind: "contextual-judgment", citedUses: [{ contributionIndex: 0, artifactEffect: "Shows it." }], rationale: "Read back.", artifact: "Verified.", stopEvidence: ["2."] },
      },
    ],
    authorize_change: [{ movement: "Change greeting to 2.", stableLanding: "greeting is 2.", verificationTarget: "The file says 2." }],
    record_landing: [{ result: "Greeting changed.", verification: ["cat src/greeting.ts"] }, { result: "x", changedPaths: ["src/greeting.ts"] }],
    plan: [{ task: "Fix the greeting in src/greeting.ts without touching tests" }, { task: "Review src/", mode: "review" }],
    review_report: [{ basisSha256: "0".repeat(64), reviewer: "code-reviewer", outcome: "reported", findings: [], failure: null, task: "Review src/", mode: "review" }],
    notebook: [{}, { recordIds: [SOURCE_ID, "memo-unknown"] }, { notebook: "notebook" }],
    propose_notebook_records: [{ records: [{ operation: "create", record_id: SOURCE_ID, markdown: notebookRecord }] }, { notebook: "notebook", episode_language: "en", records: [] }],
  };
}

/** The rules every answer follows, from either path. */
function checkResult(result: CallToolResult, where: string): void {
  if (result.isError !== true) return;
  const error = (result.structuredContent as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = error?.code;
  if (typeof code !== "string" || !/^docket\.[a-z-]+$/u.test(code)) violation(`${where}: a refusal without a docket.* code: ${preview(result.structuredContent)}`);
  if (code === "docket.internal") violation(`${where}: docket.internal (a fault, not a refusal): ${preview(error?.message, 400)}`);
  const text = JSON.stringify(result.content);
  if (/\\"code\\":\s*\\"(invalid_type|invalid_union|too_small|unrecognized_keys)\\"/u.test(text)) violation(`${where}: a raw zod dump in the answer: ${preview(text, 300)}`);
  if (typeof error?.message === "string") checkRejectionMessage(error.message, `${where}: ${code}`);
}

function checkResponse(response: JsonRpcResponse, where: string): void {
  if (response.error !== undefined) violation(`${where}: a JSON-RPC error instead of a tool result: ${preview(response.error)}`);
  checkResult(response.result as CallToolResult, where);
}

export const mcpArgumentsSubTarget: FuzzSubTarget<McpCase> = {
  name: "mcp-arguments",
  runs: { short: 1_000, long: 100_000 },
  async prepare(context) {
    const workspace = path.join(context.tmp, "workspace");
    fs.mkdirSync(path.join(workspace, "src"), { recursive: true });
    fs.writeFileSync(path.join(workspace, "src", "greeting.ts"), "export const greeting = 1;\n");
    runGit(workspace, ["init", "--quiet"]);
    runGit(workspace, ["config", "user.name", "Docket Fuzz"]);
    runGit(workspace, ["config", "user.email", "docket-fuzz@example.invalid"]);
    runGit(workspace, ["add", "--all"]);
    runGit(workspace, ["commit", "--quiet", "--no-verify", "-m", "start"]);
    const notebook = setupNotebook(path.join(workspace, "notebook"), "en");
    if (!notebook.ok) throw new Error(`notebook setup failed: ${JSON.stringify(notebook)}`);
    const baseline = path.join(context.repoRoot, "test", "fixtures", "notebook", "notebooks", "valid", "baseline");
    for (const name of fs.readdirSync(baseline)) fs.copyFileSync(path.join(baseline, name), path.join(notebook.value.notebook.root, "records", name));
    const record = fs.readFileSync(path.join(context.repoRoot, "test", "fixtures", "notebook", "records", "valid", "external-source.md"), "utf8").replace("source-00000000-0000-4000-8000-000000000101", SOURCE_ID);
    const examples = realArguments(record);
    const ledgerPath = path.join(workspace, ".docket", "ledger.jsonl");
    let ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath, trusted: true });
    ledger.refresh();
    await ledger.turnOn();
    let calls = 0;

    const arbitrary: fc.Arbitrary<McpCase> = fc.record({
      tool: fc.nat({ max: DOCKET_TOOL_NAMES.length }),
      args: fc.oneof(
        { weight: 3, arbitrary: fc.record({ kind: fc.constant("random" as const), value: anyJson }) },
        { weight: 6, arbitrary: fc.record({ kind: fc.constant("real" as const), example: fc.nat(), mutations: fc.array(jsonMutation, { maxLength: 3 }) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant("absent" as const) }) },
      ),
    });
    // The last index is a tool that does not exist.
    const nameOf = (value: McpCase): string => DOCKET_TOOL_NAMES[value.tool] ?? "no_such_tool";
    const argsOf = (value: McpCase): unknown => {
      if (value.args.kind === "absent") return undefined;
      if (value.args.kind === "random") return value.args.value;
      const list = examples[nameOf(value)] ?? [{}];
      return mutateJson(list[value.args.example % list.length] as Json, value.args.mutations);
    };
    const settle = async (): Promise<void> => {
      calls += 1;
      for (const id of listPendingProposalIds(workspace)) discardProposal(workspace, id);
      // Start over now and then, so the cycle is tried from every state rather than stuck in one.
      if (calls % 60 === 0) {
        fs.rmSync(path.join(workspace, ".docket"), { recursive: true, force: true });
        runGit(workspace, ["checkout", "--quiet", "--", "."]);
        ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath, trusted: true });
        ledger.refresh();
        await ledger.turnOn();
      } else if (calls % 7 === 0) {
        fs.writeFileSync(path.join(workspace, "src", "greeting.ts"), `export const greeting = ${calls};\n`);
      }
    };

    return {
      arbitrary,
      describe: (value) => `${nameOf(value)} with ${preview(argsOf(value))}`,
      async check(value) {
        const result = await callTool(ledger, workspace, nameOf(value), argsOf(value), { notebookPath: "notebook", client: "docket-fuzz 0.0.0" });
        checkResult(result, `${nameOf(value)} in process`);
        await settle();
      },
      async finish() {
        // A handful of the same kind of cases through the real server, over stdio.
        const cases = fc.sample(arbitrary, { seed: context.seed + 1, numRuns: context.long ? 300 : 30 });
        const failures: string[] = [];
        const client = await RawMcpClient.start(workspace, ["--notebook", "notebook"]);
        try {
          for (const [index, value] of cases.entries()) {
            const started = performance.now();
            const args = argsOf(value);
            try {
              const { response } = await client.callToolText(nameOf(value), args === undefined ? undefined : jsonText(args as Json));
              checkResponse(response, `${nameOf(value)} over stdio`);
            } catch (error) {
              failures.push(`stdio case ${index} (fast-check sample seed ${context.seed + 1}): ${error instanceof Error ? error.message : String(error)}; input ${nameOf(value)} ${preview(args)}`);
            }
            const ms = performance.now() - started;
            if (ms > 2_000) failures.push(`hang: stdio case ${index} took ${ms.toFixed(0)} ms; input ${nameOf(value)} ${preview(args)}`);
            for (const id of listPendingProposalIds(workspace)) discardProposal(workspace, id);
          }
          const alive = await client.callTool("status", {});
          if (alive.response.error !== undefined || alive.response.result?.["isError"] === true) failures.push(`the server does not answer status after the stdio cases: ${preview(alive.response)}`);
        } finally {
          await client.close();
        }
        return { inputs: cases.length, failures };
      },
    };
  },
};
