// The completion guard end to end with the real Claude Code and Codex programs (issue 13): each case
// is one real session in a workspace set up as a user sets one up (`docket connect <host>`,
// `docket on`, optionally `docket guard mode block-once`), whose loopback stub model ends the turn
// with a final answer — unreviewed, or reviewed first through Docket's own MCP tools (`review_open`,
// `review_submit`) served by the real `docket mcp` the workspace configuration registers. What
// counts is what the host did at Stop: the notice it showed, a silent stop, exactly one
// continuation carrying Docket's reason. Cases: test/support/realHosts/guardCases.ts.
import fs from "node:fs";
import path from "node:path";
import { selectedGuardCases, type GuardCase } from "../../support/realHosts/guardCases";
import { evaluateGuard, type GuardVerdict } from "../../support/realHosts/guardVerdict";
import { runCaseLoop } from "../../support/realHosts/caseLoop";
import { runHost, type HostRun } from "../../support/realHosts/hostRun";
import type { HostsToolchain } from "../../support/realHosts/toolchain";
import { createHostWorkspace, type HostWorkspace } from "../../support/realHosts/workspace";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";

/** The whole target stays inside the CI budget even if a host hangs: no case starts after this. */
const BUDGET_MS = 150_000;
const CASE_TIMEOUT_MS = 60_000;

async function runCase(entry: GuardCase, toolchain: HostsToolchain, context: ReliabilityContext, index: number, timeoutMs: number): Promise<{ verdict: GuardVerdict; run: HostRun; workspace: HostWorkspace }> {
  const workspace = createHostWorkspace(entry.host, context.tmp, `${String(index).padStart(2, "0")}-${entry.id.replace(/\W+/gu, "-")}`);
  if (entry.mode !== "notice") workspace.docket(["guard", "mode", entry.mode, "--workspace", workspace.root]);
  const run = await runHost(entry.host, {
    toolchain,
    home: workspace.home,
    cwd: workspace.root,
    steps: entry.steps,
    allowedTools: entry.host === "claude" ? entry.allowedTools : undefined,
    claudeOutput: "stream-json",
    logFile: path.join(workspace.folder, `${entry.host}.log`),
    tmpDir: workspace.tmpDir,
    timeoutMs,
  });
  fs.writeFileSync(path.join(workspace.folder, "requests.json"), JSON.stringify(run.requests, null, 1));
  fs.writeFileSync(path.join(workspace.folder, "stdout.txt"), run.stdout);
  return { verdict: evaluateGuard(run, entry, workspace.root), run, workspace };
}

export const target: ReliabilityTarget = {
  name: "realHostsGuard",
  description: "The completion guard with the real Claude Code and Codex, offline: an unreviewed completion claim gets Docket's notice, a reviewed one stops silently, block-once continues exactly once.",
  run: (context): Promise<TargetTally> =>
    runCaseLoop(context, {
      target: "realHostsGuard",
      budgetMs: BUDGET_MS,
      caseTimeoutMs: CASE_TIMEOUT_MS,
      cases: selectedGuardCases(),
      async run(entry, toolchain, index, timeoutMs) {
        const { verdict, run, workspace } = await runCase(entry, toolchain, context, index, timeoutMs);
        return {
          failures: verdict.failures,
          state: "ok",
          note: verdict.limitations.length === 0 ? "" : ` — host limitation: ${verdict.limitations.join("; ")}`,
          folder: workspace.folder,
          durationMs: run.durationMs,
          gateAttempts: 0,
        };
      },
    }),
};
