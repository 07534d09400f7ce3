// The audit figure (issue 17): `docket audit main..feature --json` — a whole `node dist/docket.js`
// process — over a two-commit range whose first commit changes a path the ledger's landings
// recorded, against a generated realistic ledger (20-event scopes, every one with a landing), next
// to its floor measured in the same interleaved rounds: a process that reads the same ledger bytes
// in 1 MiB chunks and hashes them with SHA-256. Informational (no target): the audit streams the
// ledger once through the store and replay, so its cost is replay's plus Git's few commands.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { figure, measuredOf, type BenchFigure } from "./figure";
import { interleavedRounds, samplesOf, type Arm, type ProducerOptions } from "./runner";
import { EVENTS_PER_SCOPE, realisticLedger } from "./workloads";

const FLOOR_SCRIPT = `
const fs = require("node:fs");
const crypto = require("node:crypto");
const fd = fs.openSync(process.argv[2], "r");
const chunk = Buffer.allocUnsafe(1 << 20);
const hash = crypto.createHash("sha256");
let total = 0;
for (let read = fs.readSync(fd, chunk, 0, chunk.length, null); read > 0; read = fs.readSync(fd, chunk, 0, chunk.length, null)) {
  hash.update(chunk.subarray(0, read));
  total += read;
}
process.stdout.write(total + " " + hash.digest("hex") + "\\n");
`;

function git(cwd: string, args: readonly string[]): void {
  const result = spawnSync("git", ["-C", cwd, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

/** A path some landing of the generated ledger recorded (read from its first megabyte). */
function landedPathOf(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(1 << 20);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    const match = /"changedPaths":\["([^"]+)"/u.exec(head.subarray(0, read).toString("utf8"));
    if (match === null) throw new Error("the generated ledger's first megabyte holds no landing");
    return match[1] as string;
  } finally {
    fs.closeSync(fd);
  }
}

/** main: README.md; feature: one commit changing a landed path, one adding an unlanded file. */
function rangeRepository(directory: string, landedPath: string): string {
  const repo = path.join(directory, "audit-repo");
  fs.mkdirSync(repo, { recursive: true });
  git(repo, ["init", "--quiet", "--initial-branch=main"]);
  fs.writeFileSync(path.join(repo, "README.md"), "bench\n");
  git(repo, ["add", "--all"]);
  git(repo, ["commit", "--quiet", "-m", "base"]);
  git(repo, ["checkout", "--quiet", "-b", "feature"]);
  fs.mkdirSync(path.dirname(path.join(repo, landedPath)), { recursive: true });
  fs.writeFileSync(path.join(repo, landedPath), "landed\n");
  git(repo, ["add", "--all"]);
  git(repo, ["commit", "--quiet", "-m", "landed change"]);
  fs.writeFileSync(path.join(repo, "unlanded.ts"), "unlanded\n");
  git(repo, ["add", "--all"]);
  git(repo, ["commit", "--quiet", "-m", "unlanded change"]);
  return repo;
}

export async function auditFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  if (!options.wants("audit.range")) return [];
  const scopes = options.quick ? 5_000 : 50_000;
  const ledger = realisticLedger(scopes);
  if (ledger.generated) options.log(`audit: generated a ${ledger.events}-event ledger`);
  const bytes = fs.statSync(ledger.file).size;
  const repo = rangeRepository(options.directory, landedPathOf(ledger.file));
  const floorScript = path.join(options.directory, "audit-floor.js");
  fs.writeFileSync(floorScript, FLOOR_SCRIPT);
  const cli = path.join(__dirname, "docket.js");
  const arms: Arm[] = [
    {
      name: "floor",
      measure: () => {
        const run = options.meter.run({ args: [floorScript, ledger.file], cwd: repo });
        if (run.status !== 0 || !run.stdout.startsWith(`${bytes} `)) throw new Error(`audit floor failed: ${run.stderr}`);
        return run.sample;
      },
    },
    {
      name: "audit",
      measure: () => {
        const run = options.meter.run({ args: [cli, "audit", "main..feature", "--json", "--workspace", repo, "--ledger", ledger.file], cwd: repo, timeoutMs: 600_000 });
        if (run.status !== 0) throw new Error(`docket audit exited ${String(run.status)}: ${run.stderr}`);
        const summary = (JSON.parse(run.stdout) as { summary: { landed: number; unlanded: number } }).summary;
        if (summary.landed !== 1 || summary.unlanded !== 1) throw new Error(`docket audit classified ${JSON.stringify(summary)}`);
        return run.sample;
      },
    },
  ];
  const { samples, rounds } = interleavedRounds(arms, { rounds: options.rounds ?? (options.quick ? 3 : 5), warmUps: 1, budgetMs: options.budgetMs });
  const measured = measuredOf(samplesOf(samples, "audit"));
  const megabytes = bytes / (1 << 20);
  return [
    figure({
      id: "audit.range",
      label: "docket audit of a two-commit range (whole process)",
      workload: `${ledger.events.toLocaleString("en-US")} events (${(ledger.events / EVENTS_PER_SCOPE).toLocaleString("en-US")} scopes), ${megabytes.toFixed(0)} MB`,
      rounds,
      measured,
      floor: { label: "read + SHA-256 of the same bytes (whole process)", measured: measuredOf(samplesOf(samples, "floor")) },
      basis: "cpu",
      note: `throughput ${(megabytes / (measured.wallMs.median / 1_000)).toFixed(1)} MB/s wall, peak RSS ${measured.peakRssMb?.median.toFixed(0) ?? "?"} MB; informational`,
    }),
  ];
}
