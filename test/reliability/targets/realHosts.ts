// The gate, end to end, with the real Claude Code and Codex programs (real-hosts.md): each case is
// one real session, started the way a user starts one in a workspace set up the way a user sets it
// up (`docket connect <host>`, `docket on`), whose model is a loopback stub that asks for exactly
// the tool call under test. What counts is what the host did: the file the call would create does
// not exist, the host's own log shows it parsed the hook's deny, the tool result the model got says
// Docket denied it, and the ledger's bytes did not move. The allow case shows the same command runs
// once the work is authorized through Docket's own MCP tools. Cases: test/support/realHosts/cases.ts.
import fs from "node:fs";
import path from "node:path";
import { CLAUDE_ALLOWED_TOOLS, LedgerWatch, selectedCases, type RealHostCase } from "../../support/realHosts/cases";
import { runCaseLoop } from "../../support/realHosts/caseLoop";
import { runHost, type HostRun } from "../../support/realHosts/hostRun";
import type { HostsToolchain } from "../../support/realHosts/toolchain";
import { evaluate, snapshotUnchanged, type Verdict } from "../../support/realHosts/verdict";
import { createHostWorkspace, type HostWorkspace } from "../../support/realHosts/workspace";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";

/** The whole target stays inside the CI budget even if a host hangs: no case starts after this. */
const BUDGET_MS = 240_000;
const CASE_TIMEOUT_MS = 60_000;

async function runCase(entry: RealHostCase, toolchain: HostsToolchain, context: ReliabilityContext, index: number, timeoutMs: number): Promise<{ verdict: Verdict; run: HostRun; workspace: HostWorkspace }> {
  const workspace = createHostWorkspace(entry.host, context.tmp, `${String(index).padStart(2, "0")}-${entry.id.replace(/\W+/gu, "-")}`);
  const ledger = new LedgerWatch(workspace);
  const prepared = await entry.prepare(workspace, ledger);
  ledger.mark();
  const snapshots = snapshotUnchanged(prepared);
  const run = await runHost(entry.host, {
    toolchain,
    home: workspace.home,
    cwd: prepared.cwd,
    steps: [...prepared.calls.map((call) => call.step), { kind: "text", text: "Finished." }],
    allowedTools: entry.host === "claude" ? CLAUDE_ALLOWED_TOOLS : undefined,
    logFile: path.join(workspace.folder, `${entry.host}.log`),
    tmpDir: workspace.tmpDir,
    timeoutMs,
  });
  fs.writeFileSync(path.join(workspace.folder, "requests.json"), JSON.stringify(run.requests, null, 1));
  fs.writeFileSync(path.join(workspace.folder, "stdout.txt"), run.stdout);
  return { verdict: evaluate(run, workspace, prepared, ledger, snapshots, entry.hostLimitation), run, workspace };
}

export const target: ReliabilityTarget = {
  name: "realHosts",
  description: "The real Claude Code and Codex, driven offline by a loopback stub model through Docket's installed configuration: gated tool calls leave no trace on disk.",
  run: (context): Promise<TargetTally> =>
    runCaseLoop(context, {
      target: "realHosts",
      budgetMs: BUDGET_MS,
      caseTimeoutMs: CASE_TIMEOUT_MS,
      cases: selectedCases(),
      async run(entry, toolchain, index, timeoutMs) {
        const { verdict, run, workspace } = await runCase(entry, toolchain, context, index, timeoutMs);
        return {
          failures: verdict.failures,
          state: verdict.limitation !== null ? "host" : "ok",
          note: verdict.limitation === null ? "" : ` — Docket never asked: ${verdict.limitation} (documented limitation)`,
          folder: workspace.folder,
          durationMs: run.durationMs,
          gateAttempts: verdict.gateAttempts,
        };
      },
    }),
};
