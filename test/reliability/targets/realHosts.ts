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
import { runHost, type HostName, type HostRun } from "../../support/realHosts/hostRun";
import { ensureHostsToolchain, type HostsToolchain } from "../../support/realHosts/toolchain";
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
    context.log(`Claude Code ${toolchain.versions.claudeCode}, Codex ${toolchain.versions.codex} (${toolchain.cache})`);
    const failures: string[] = [];
    let trials = 0;
    let gateAttempts = 0;
    const seconds: Record<HostName, number> = { claude: 0, codex: 0 };
    const cases = selectedCases();
    const started = Date.now();
    for (const [index, entry] of cases.entries()) {
      const left = BUDGET_MS - (Date.now() - started);
      if (left < 10_000) {
        failures.push(`out of time: ${cases.length - index} case(s) not run within ${BUDGET_MS / 1000} s, from ${entry.id} on`);
        break;
      }
      const reproduce = `reproduce: DOCKET_REAL_HOSTS_CASES=${entry.id} node out/test/reliability/run.js --only realHosts --keep`;
      try {
        const { verdict, run, workspace } = await runCase(entry, toolchain, context, index, Math.min(CASE_TIMEOUT_MS, left));
        trials += 1;
        gateAttempts += verdict.gateAttempts;
        const took = run.durationMs / 1000;
        seconds[entry.host] += took;
        const state = verdict.failures.length > 0 ? "FAIL" : verdict.limitation !== null ? "host" : "ok  ";
        context.log(`${state} ${entry.id} (${took.toFixed(1)} s): ${entry.what}${verdict.limitation === null ? "" : ` — Docket never asked: ${verdict.limitation} (documented limitation)`}`);
        for (const failure of verdict.failures) failures.push(`${entry.id} — ${entry.what}: ${failure} (files: ${workspace.folder}; ${reproduce})`);
      } catch (error) {
        failures.push(`${entry.id}: setup failed: ${error instanceof Error ? error.message : String(error)} (${reproduce})`);
      }
    }
    context.log(`host time: Claude Code ${seconds.claude.toFixed(1)} s, Codex ${seconds.codex.toFixed(1)} s`);
    return { trials, gateAttempts, failures };
  },
};
