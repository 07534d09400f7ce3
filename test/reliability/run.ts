// `npm run test:reliability [-- --long] [--only NAME[,NAME]] [--seed N] [--keep] [--report FILE]`:
// the standing adversarial suite. Each target (targets/*.ts) injects crashes, tampering, fuzz, gate
// attempts or secrets against real processes and files, and the run ends with one summary line.
// Exit 1 when a target fails or any data is lost. `--report` also writes the summary and every
// failure to FILE, so `npm test` can repeat them at its end (a CI log often keeps only its tail).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";
import type { ReliabilityTarget, TargetTally } from "./target";

interface Options {
  readonly long: boolean;
  readonly only: readonly string[] | null;
  readonly seed: number;
  readonly keep: boolean;
  readonly report: string | null;
}

function parseOptions(argv: readonly string[]): Options {
  let long = false;
  let only: string[] | null = null;
  let seed = 20261201;
  let keep = false;
  let report: string | null = null;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === "--long") long = true;
    else if (arg === "--keep") keep = true;
    else if (arg === "--only") only = (argv[++index] ?? "").split(",").filter((name) => name !== "");
    else if (arg === "--seed") seed = Number(argv[++index]);
    else if (arg === "--report") report = argv[++index] ?? "";
    else throw new Error(`unknown argument ${arg}; usage: run.js [--long] [--only NAME[,NAME]] [--seed N] [--keep] [--report FILE]`);
  }
  if (!Number.isSafeInteger(seed)) throw new Error("--seed needs an integer");
  if (report === "") throw new Error("--report needs a file path");
  return { long, only, seed, keep, report };
}

/** Every module in targets/ exporting `target`, in file-name order. */
function loadTargets(): ReliabilityTarget[] {
  const directory = path.join(__dirname, "targets");
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory)
    .filter((name) => name.endsWith(".js"))
    .sort()
    .map((name) => (require(path.join(directory, name)) as { target: ReliabilityTarget }).target)
    .filter((target) => target !== undefined);
}

const KEYS = ["trials", "faults", "inputs", "gateAttempts", "secrets", "dataLost"] as const;

function describe(tally: Required<Omit<TargetTally, "failures">>): string {
  return `${tally.trials} trials, ${tally.faults} faults injected, ${tally.inputs} inputs tried, ${tally.gateAttempts} gate attempts, ${tally.secrets} secrets tried, ${tally.dataLost} data lost`;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const targets = loadTargets().filter((target) => options.only === null || options.only.includes(target.name));
  if (options.only !== null && targets.length !== options.only.length) {
    process.stderr.write(`unknown target in --only ${options.only.join(",")}\n`);
    return 2;
  }
  const total = { trials: 0, faults: 0, inputs: 0, gateAttempts: 0, secrets: 0, dataLost: 0 };
  const failures: string[] = [];
  const kept: string[] = [];
  const root = repoRoot();
  const started = Date.now();
  for (const target of targets) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `docket-reliability-${target.name}-`));
    const begun = Date.now();
    let tally: TargetTally;
    try {
      tally = await target.run({
        long: options.long,
        seed: options.seed,
        tmp,
        repoRoot: root,
        log: (message) => process.stderr.write(`  [${target.name}] ${message}\n`),
      });
    } catch (error) {
      tally = { failures: [`crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`] };
    }
    const counts = { trials: 0, faults: 0, inputs: 0, gateAttempts: 0, secrets: 0, dataLost: 0 };
    for (const key of KEYS) counts[key] = tally[key] ?? 0;
    for (const key of KEYS) total[key] += counts[key];
    const targetFailures = [...tally.failures, ...(counts.dataLost > 0 ? [`${counts.dataLost} data lost`] : [])];
    failures.push(...targetFailures.map((failure) => `${target.name}: ${failure}`));
    const seconds = ((Date.now() - begun) / 1000).toFixed(1);
    process.stdout.write(`${targetFailures.length === 0 ? "✔" : "✖"} ${target.name} — ${describe(counts)} (${seconds} s)\n`);
    for (const failure of targetFailures.slice(0, 20)) process.stdout.write(`    ✖ ${failure}\n`);
    if (targetFailures.length > 20) process.stdout.write(`    … and ${targetFailures.length - 20} more\n`);
    if (options.keep || targetFailures.length > 0) {
      process.stdout.write(`    files kept in ${tmp}\n`);
      if (targetFailures.length > 0) kept.push(`${target.name}: files kept in ${tmp}`);
    }
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const summary = `reliability${options.long ? " (--long)" : ""}, seed ${options.seed}: ${targets.length} targets, ${describe(total)}, ${failures.length} failures in ${seconds} s`;
  process.stdout.write(`\n${summary}\n`);
  if (options.report !== null) {
    fs.writeFileSync(options.report, [summary, ...failures.map((failure) => `✖ ${failure}`), ...kept.map((line) => `  ${line}`)].join("\n") + "\n");
  }
  return failures.length === 0 && total.dataLost === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
