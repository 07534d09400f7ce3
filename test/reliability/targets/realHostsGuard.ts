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
import { runHost, type HostName, type HostRun } from "../../support/realHosts/hostRun";
import { ensureHostsToolchain, type HostsToolchain } from "../../support/realHosts/toolchain";
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
  async run(context): Promise<TargetTally> {
    const installed = await ensureHostsToolchain((line) => context.log(line));
    if ("skip" in installed) {
      context.log(`skipped: ${installed.skip}`);
      return { failures: [] };
    }
    const { toolchain } = installed;
    if (!fs.existsSync(path.join(context.repoRoot, "dist", "docket-hook.js"))) {
      return { failures: ["dist/docket-hook.js is missing: run node scripts/build.mjs first"] };
    }
    const failures: string[] = [];
    let trials = 0;
    const seconds: Record<HostName, number> = { claude: 0, codex: 0 };
    const cases = selectedGuardCases();
    const started = Date.now();
    for (const [index, entry] of cases.entries()) {
      const left = BUDGET_MS - (Date.now() - started);
      if (left < 10_000) {
        failures.push(`out of time: ${cases.length - index} case(s) not run within ${BUDGET_MS / 1000} s, from ${entry.id} on`);
        break;
      }
      const reproduce = `reproduce: DOCKET_REAL_HOSTS_CASES=${entry.id} node out/test/reliability/run.js --only realHostsGuard --keep`;
      try {
        const { verdict, run, workspace } = await runCase(entry, toolchain, context, index, Math.min(CASE_TIMEOUT_MS, left));
        trials += 1;
        const took = run.durationMs / 1000;
        seconds[entry.host] += took;
        const state = verdict.failures.length > 0 ? "FAIL" : "ok  ";
        const limits = verdict.limitations.length === 0 ? "" : ` — host limitation: ${verdict.limitations.join("; ")}`;
        context.log(`${state} ${entry.id} (${took.toFixed(1)} s): ${entry.what}${limits}`);
        for (const failure of verdict.failures) failures.push(`${entry.id} — ${entry.what}: ${failure} (files: ${workspace.folder}; ${reproduce})`);
      } catch (error) {
        failures.push(`${entry.id}: setup failed: ${error instanceof Error ? error.message : String(error)} (${reproduce})`);
      }
    }
    context.log(`host time: Claude Code ${seconds.claude.toFixed(1)} s, Codex ${seconds.codex.toFixed(1)} s`);
    return { trials, failures };
  },
};
