// The `docket` command's start as a person or script pays for it: a whole `node dist/docket.js`
// process per command, on a small ledger (one full Developer cycle, then a second scope ready to
// edit), next to a bare `node -e 0` start measured in the same interleaved rounds. The figure is
// CPU time (user + system), which a busy machine disturbs less than wall time: each child reports
// its own from a preloaded exit hook (process.resourceUsage, microseconds), plus the CPU of the
// children it waited for (`ledger verify` runs git; /proc/self/stat, in clock ticks).
// Target (issue 15): `docket status` and `docket policy` ≤ 1.5× the `node -e 0` floor, median.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../server/workspace/workspaceLedger";
import { checkpointPolicy } from "../server/workspace/checkpointPolicy";

const TARGET_RATIO = 1.5;

/** Loaded with `node -r` into every measured process: writes its CPU microseconds to fd 3 on exit. */
const CPU_REPORTER = `"use strict";
const fs = require("node:fs");
process.on("exit", () => {
  const usage = process.resourceUsage();
  let children = 0;
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    children = (Number(fields[13]) + Number(fields[14])) * 10000;
  } catch {}
  fs.writeSync(3, String(usage.userCPUTime + usage.systemCPUTime + (Number.isFinite(children) ? children : 0)));
});
`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2030, 0, 1) + 1_000 * tick++).toISOString() };
}

function git(cwd: string, args: readonly string[]): void {
  const result = spawnSync("git", ["-C", cwd, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

/** A Git workspace whose ledger holds one full cycle and a second scope with a concluded frame. */
async function smallLedgerWorkspace(directory: string): Promise<{ workspace: string; ledgerPath: string; lines: number }> {
  const workspace = path.join(directory, "cli-workspace");
  fs.mkdirSync(path.join(workspace, "src"), { recursive: true });
  fs.writeFileSync(path.join(workspace, "src", "a.ts"), "export const a = 1;\n");
  git(workspace, ["init", "--quiet"]);
  git(workspace, ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "add", "--all"]);
  git(workspace, ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", "commit", "--quiet", "-m", "bench"]);
  const ledgerPath = path.join(workspace, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath, trusted: true, clock: fixedClock() });
  ledger.refresh();
  const obligations = [{ obligationId: "obligation:a", statement: "Settled." }];
  const decide = async (question: string): Promise<void> => {
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question, obligations });
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing to decide.", basis: ["Read the code."] });
  };
  await ledger.turnOn();
  await decide("What changes?");
  await ledger.authorizeChange({ movement: "Set a to 2.", stableLanding: "a is 2.", verificationTarget: "Read it." });
  fs.writeFileSync(path.join(workspace, "src", "a.ts"), "export const a = 2;\n");
  await ledger.recordLanding({ changedPaths: ["src/a.ts"], result: "Set a to 2.", verification: ["read src/a.ts"] });
  await decide("Does the landing change the plan?");
  await ledger.openJudgment({ purpose: "verification-decision", routeDefinitionId: "route:claim-evidence-assessment", question: "Is it verified?", obligations });
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Verified.", basis: ["a is 2."] });
  await ledger.turnOff("Cycle complete.");
  await ledger.turnOn();
  await decide("What next?");
  return { workspace, ledgerPath, lines: ledger.store.lineCount };
}

export async function benchCliStart(directory: string, runs: number): Promise<void> {
  const { workspace, ledgerPath, lines } = await smallLedgerWorkspace(directory);
  // The writers left a current, sealed checkpoint: status and policy must answer from it.
  if (checkpointPolicy(workspace, ledgerPath) === null) throw new Error("the bench ledger's checkpoint does not answer");
  const reporter = path.join(directory, "cpu-reporter.js");
  fs.writeFileSync(reporter, CPU_REPORTER);
  const cli = path.join(__dirname, "docket.js");
  const commands: { name: string; args: readonly string[]; target: boolean }[] = [
    { name: "docket status", args: [cli, "status"], target: true },
    { name: "docket policy", args: [cli, "policy"], target: true },
    { name: "docket ledger verify", args: [cli, "ledger", "verify"], target: false },
    { name: "docket --version", args: [cli, "--version"], target: false },
  ];
  /** CPU milliseconds of one whole process (and the processes it waited for). */
  const cpuOf = (args: readonly string[]): number => {
    const result = spawnSync(process.execPath, ["-r", reporter, ...args], { cwd: workspace, encoding: "utf8", stdio: ["ignore", "pipe", "pipe", "pipe"] });
    if (result.status !== 0) throw new Error(`${args.join(" ")} failed: ${result.stderr}`);
    const reported = Number(result.output[3]);
    if (!Number.isFinite(reported) || reported <= 0) throw new Error(`${args.join(" ")} reported no CPU time`);
    return reported / 1_000;
  };
  const floor = ["-e", "0"];
  for (const command of commands) cpuOf(command.args); // warm-up: the file cache
  cpuOf(floor);
  const times = commands.map((): number[] => []);
  const floorTimes: number[] = [];
  for (let round = 0; round < runs; round += 1) {
    floorTimes.push(cpuOf(floor));
    for (const [index, command] of commands.entries()) times[index]?.push(cpuOf(command.args));
  }
  const floorMs = median(floorTimes);
  for (const [index, command] of commands.entries()) {
    const ms = median(times[index] ?? []);
    const ratio = ms / floorMs;
    const verdict = command.target ? `${ratio <= TARGET_RATIO ? "pass" : "FAIL"}: target ≤ ${TARGET_RATIO}x` : "reported, no target";
    console.log(`${`${command.name}, ${lines}-line ledger`.padEnd(44)} ${ms.toFixed(1).padStart(6)} ms CPU   node -e 0 ${floorMs.toFixed(1)} ms   ratio ${ratio.toFixed(2)}x (${verdict}; median of ${runs})`);
  }
}
