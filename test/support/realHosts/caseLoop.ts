// The loop every real-host target runs: install (or skip) the hosts, then one real session per case
// inside a time budget, each logged with its verdict and, on failure, the folder to look at and
// the command that reruns just that case. The targets supply the cases and how one is run.
import fs from "node:fs";
import path from "node:path";
import type { ReliabilityContext, TargetTally } from "../../reliability/target";
import type { HostName } from "./hostRun";
import { ensureHostsToolchain, type HostsToolchain } from "./toolchain";

export interface LoopCase {
  readonly id: string;
  readonly host: HostName;
  readonly what: string;
}

/** What one session showed, in the loop's terms. */
export interface CaseResult {
  readonly failures: readonly string[];
  /** "ok" or "host" (a documented host limitation) when nothing failed. */
  readonly state: "ok" | "host";
  /** Appended to the case's log line (a limitation, what the host never asked). */
  readonly note: string;
  readonly folder: string;
  readonly durationMs: number;
  readonly gateAttempts: number;
}

export interface CaseLoop<C extends LoopCase> {
  /** The target's name, for the rerun command. */
  readonly target: string;
  readonly budgetMs: number;
  readonly caseTimeoutMs: number;
  readonly cases: readonly C[];
  run(entry: C, toolchain: HostsToolchain, index: number, timeoutMs: number): Promise<CaseResult>;
}

export async function runCaseLoop<C extends LoopCase>(context: ReliabilityContext, loop: CaseLoop<C>): Promise<TargetTally> {
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
  const started = Date.now();
  for (const [index, entry] of loop.cases.entries()) {
    const left = loop.budgetMs - (Date.now() - started);
    if (left < 10_000) {
      failures.push(`out of time: ${loop.cases.length - index} case(s) not run within ${loop.budgetMs / 1000} s, from ${entry.id} on`);
      break;
    }
    const reproduce = `reproduce: DOCKET_REAL_HOSTS_CASES=${entry.id} node out/test/reliability/run.js --only ${loop.target} --keep`;
    try {
      const result = await loop.run(entry, toolchain, index, Math.min(loop.caseTimeoutMs, left));
      trials += 1;
      gateAttempts += result.gateAttempts;
      const took = result.durationMs / 1000;
      seconds[entry.host] += took;
      const state = result.failures.length > 0 ? "FAIL" : result.state === "host" ? "host" : "ok  ";
      context.log(`${state} ${entry.id} (${took.toFixed(1)} s): ${entry.what}${result.note}`);
      for (const failure of result.failures) failures.push(`${entry.id} — ${entry.what}: ${failure} (files: ${result.folder}; ${reproduce})`);
    } catch (error) {
      failures.push(`${entry.id}: setup failed: ${error instanceof Error ? error.message : String(error)} (${reproduce})`);
    }
  }
  context.log(`host time: Claude Code ${seconds.claude.toFixed(1)} s, Codex ${seconds.codex.toFixed(1)} s`);
  return { trials, gateAttempts, failures };
}
