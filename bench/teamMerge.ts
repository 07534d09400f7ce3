// The ledger merge figure (issue 17, "Scale"): `docket merge-ledger`'s work — two passes over the
// base and both sides (line checks, then the result written and replayed) — on a realistic ledger
// of 20-event scopes to which each side appended one scope of its own, next to its floor from the
// same interleaved rounds: reading the three inputs and SHA-256 of their bytes. CPU time in this
// process. Informational: the issue asks for time linear in the ledger's size, which the ratio to
// a floor that is itself linear shows; no ratio is promised.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../server/ledger/ledgerLine";
import { mergeLedgerFiles } from "../server/team/mergeLedgerFiles";
import { closeScope, openScope } from "../test/support/envelopes";
import { figure, measuredOf, type BenchFigure } from "./figure";
import { inProcessSample, interleavedRounds, samplesOf, type ProducerOptions } from "./runner";
import { EVENTS_PER_SCOPE, lastLineOf, realisticLedger } from "./workloads";

/** The base followed by one closed scope of `name`'s own, as a new file. */
function sideOf(base: string, name: string, file: string): void {
  fs.copyFileSync(base, file);
  const last = lastLineOf(base);
  const opened = openScope(`scope:${Buffer.from(name).toString("hex").padEnd(24, "0")}`);
  const first = encodeLedgerLine(last.line + 1, last.lineSha256, DEVELOPER_STREAM, opened);
  const second = encodeLedgerLine(last.line + 2, first.lineSha256, DEVELOPER_STREAM, closeScope(opened));
  fs.appendFileSync(file, first.text + second.text);
}

function hashFile(file: string): string {
  const hash = crypto.createHash("sha256");
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  const fd = fs.openSync(file, "r");
  try {
    for (let position = 0; ; ) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      hash.update(chunk.subarray(0, read));
      position += read;
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
}

export async function teamMergeFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  if (!options.wants("merge.ledger")) return [];
  const scopes = options.quick ? 1_000 : 50_000;
  const source = realisticLedger(scopes);
  if (source.generated) options.log(`merge.ledger: generated a ${source.events.toLocaleString("en-US")}-event ledger (cached for the next run)`);
  const directory = path.join(options.directory, "team-merge");
  fs.mkdirSync(directory, { recursive: true });
  const base = path.join(directory, "base.jsonl");
  fs.copyFileSync(source.file, base);
  const ours = path.join(directory, "ours.jsonl");
  const theirs = path.join(directory, "theirs.jsonl");
  sideOf(base, "bench-ours", ours);
  sideOf(base, "bench-theirs", theirs);
  const work = path.join(directory, "result.jsonl");
  const inputs = [base, ours, theirs];
  let mergedLines = 0;
  const { samples, rounds } = interleavedRounds(
    [
      { name: "floor", measure: () => inProcessSample(() => inputs.forEach(hashFile)) },
      {
        name: "merge",
        before: () => fs.copyFileSync(ours, work),
        measure: () =>
          inProcessSample(() => {
            mergedLines = mergeLedgerFiles({ base, ours: work, theirs }).lines;
          }),
      },
    ],
    { rounds: options.rounds ?? 3, warmUps: options.quick ? 1 : 0, budgetMs: options.budgetMs },
  );
  const expected = scopes * EVENTS_PER_SCOPE + 4;
  if (mergedLines !== expected) throw new Error(`merge.ledger: the merged ledger has ${mergedLines} lines, expected ${expected}`);
  const bytes = inputs.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  fs.rmSync(directory, { recursive: true, force: true });
  return [
    figure({
      id: "merge.ledger",
      label: "docket merge-ledger (check three ledgers, write and replay the merge)",
      workload: `${source.events.toLocaleString("en-US")} events + 2 per side (${(bytes / 1_048_576).toFixed(0)} MB read)`,
      rounds,
      measured: measuredOf(samplesOf(samples, "merge")),
      floor: { label: "read + SHA-256 of the three inputs", measured: measuredOf(samplesOf(samples, "floor")) },
      basis: "cpu",
      note: "informational: linear in the ledger's size (two passes, each line's hash checked and the result replayed)",
    }),
  ];
}
