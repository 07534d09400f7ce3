// CLI start figures: the `docket` command as a person or script pays for it — a whole
// `node dist/docket.js` process per command — on a small ledger (one full Developer cycle, then a
// second scope ready to edit), next to a bare `node -e 0` start measured in the same interleaved
// rounds, in CPU time (the runner's exit reporter: the process's own, plus the git calls
// `ledger verify` waits for). Target (issue 15): `docket status` and `docket policy` ≤ 1.5× the
// floor, median; `ledger verify` (a full replay by definition) and `--version` are informational.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../server/workspace/workspaceLedger";
import { checkpointPolicy } from "../server/workspace/checkpointPolicy";
import { figure, measuredOf, type BenchFigure } from "./figure";
import { interleavedRounds, samplesOf, type Arm, type ProducerOptions } from "./runner";

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

interface Command {
  readonly id: string;
  readonly label: string;
  readonly args: readonly string[];
  readonly target: boolean;
}

export async function cliFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  const cli = path.join(__dirname, "docket.js");
  const commands: readonly Command[] = [
    { id: "cli.status", label: "docket status", args: [cli, "status"], target: true },
    { id: "cli.policy", label: "docket policy", args: [cli, "policy"], target: true },
    { id: "cli.ledgerVerify", label: "docket ledger verify", args: [cli, "ledger", "verify"], target: false },
    { id: "cli.version", label: "docket --version", args: [cli, "--version"], target: false },
  ].filter((command) => options.wants(command.id));
  if (commands.length === 0) return [];
  const plannedRounds = options.rounds ?? Number(process.env.DOCKET_BENCH_CLI_RUNS ?? (options.quick ? 7 : 21));
  const { workspace, ledgerPath, lines } = await smallLedgerWorkspace(options.directory);
  // The writers left a current, sealed checkpoint: status and policy must answer from it.
  if (checkpointPolicy(workspace, ledgerPath) === null) throw new Error("the bench ledger's checkpoint does not answer");
  const measure = (args: readonly string[]) => () => {
    const run = options.meter.run({ args, cwd: workspace });
    if (run.status !== 0) throw new Error(`node ${args.join(" ")} failed (${run.status}): ${run.stderr}`);
    return run.sample;
  };
  const arms: Arm[] = [{ name: "floor", measure: measure(["-e", "0"]) }, ...commands.map((command) => ({ name: command.id, measure: measure(command.args) }))];
  // The warm-up round fills the file cache.
  const { samples, rounds } = interleavedRounds(arms, { rounds: plannedRounds, warmUps: 1, budgetMs: options.budgetMs });
  const floor = { label: "node -e 0", measured: measuredOf(samplesOf(samples, "floor")) };
  return commands.map((command) =>
    figure({
      id: command.id,
      label: command.label,
      workload: `${lines}-line ledger, current checkpoint`,
      rounds,
      measured: measuredOf(samplesOf(samples, command.id)),
      floor,
      basis: "cpu",
      ...(command.target ? { target: { max: 1.5, kind: "ratio" as const, text: "≤ 1.5× node -e 0 (issue 15)" } } : {}),
    }),
  );
}
