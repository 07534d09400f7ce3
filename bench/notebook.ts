// Notebook figures for `npm run bench`.
//
// notebookFigures (issue 16, target 5): `docket notebook validate` as a person or script pays for
// it — a whole `node dist/docket.js notebook validate` process — on a generated Notebook of 10,000
// records (2,000 with --quick), cold (no validation cache: every record parsed, then the cache
// written) and unchanged (the cache of the previous process answers). The floor is a child process
// of the same kind that lists records/ and reads and SHA-256-hashes every record file (readdir,
// readFileSync, createHash per file), which any validator of those bytes must at least do. Rounds
// are interleaved (floor, cold, floor, unchanged), each process reports its own CPU time (user +
// system, from a preloaded exit hook), and the ratio is of CPU medians.
//
// runNotebookBench: in-process figures on DOCKET_BENCH_NOTEBOOK_RECORDS records (1,000 by
// default) — validation in one process (its second run answered from memory, which a CLI call
// never has: notebookFigures measures that), making a proposal of DOCKET_BENCH_NOTEBOOK_BATCH new
// records (100 by default) and publishing it, each next to a floor measured in the same run: for
// validation, reading and hashing every record file; for a publication, writing the batch's files
// the way any crash-safe writer must (temp file + rename). Publication runs synchronously in VS
// Code's backend, so its figure says how long other backend requests wait while a batch is saved.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { makeProposal } from "../server/notebook/makeProposal";
import { readNotebook, setupNotebook } from "../server/notebook/notebookStore";
import { publishProposal } from "../server/notebook/publication";
import { generateNotebookRecords, writeNotebookRecords } from "../test/support/notebookGenerator";
import { sourceMarkdown } from "../test/support/notebookRecords";
import { figure, measuredOf, type BenchFigure, type Sample } from "./figure";

const RECORDS = Number(process.env.DOCKET_BENCH_NOTEBOOK_RECORDS ?? 1_000);
const BATCH = Number(process.env.DOCKET_BENCH_NOTEBOOK_BATCH ?? 100);
const RUNS = 3;

function sourceId(series: number, index: number): string {
  return `source-00000000-0000-4000-8${series.toString(16).padStart(3, "0")}-${index.toString(16).padStart(12, "0")}`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function line(label: string, ms: number, floorLabel: string, floorMs: number): void {
  console.log(`${label.padEnd(52)} ${ms.toFixed(1).padStart(9)} ms   ${floorLabel} ${floorMs.toFixed(1).padStart(8)} ms   ratio ${(ms / floorMs).toFixed(2)}x floor`);
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

export function runNotebookBench(): void {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-notebook-"));
  try {
    const setup = setupNotebook(path.join(workspace, "notes"), "en");
    if (!setup.ok) throw new Error(`setup failed: ${setup.issue.code}: ${setup.issue.message}`);
    const root = setup.value.notebook.root;
    const records = path.join(root, "records");
    for (let index = 0; index < RECORDS; index += 1) {
      const id = sourceId(0, index);
      fs.writeFileSync(path.join(records, `${id}.md`), sourceMarkdown(id, `Reading ${index}`, `Observation number ${index} about the parser.`));
    }
    console.log(`\nnotebook — ${RECORDS} records, a batch of ${BATCH} new records, median of ${RUNS} runs`);

    // Validation: every file through phase A, then the graph (phase B); floor = read + hash each file.
    const files = fs.readdirSync(records).map((name) => path.join(records, name));
    const readFloor = median(
      Array.from({ length: RUNS }, () => timed(() => files.forEach((file) => createHash("sha256").update(fs.readFileSync(file)).digest("hex")))),
    );
    const validateOnce = (): number =>
      timed(() => {
        const read = readNotebook(root);
        if (!read.ok || !read.value.validation.valid) throw new Error("the generated notebook does not validate");
      });
    // Cold: every record parsed (a fresh process); warm: Phase A answers remembered by content hash.
    const cold = validateOnce();
    const warm = median(Array.from({ length: RUNS }, validateOnce));
    line(`validate ${RECORDS} records, cold (phase A + B)`, cold, "read+hash", readFloor);
    line(`validate ${RECORDS} records again, in-process memory`, warm, "read+hash", readFloor);

    // Propose and publish a batch; each run creates new ids, so the notebook grows by BATCH per run.
    const propose: number[] = [];
    const publish: number[] = [];
    const writeFloor: number[] = [];
    const scratch = path.join(workspace, "scratch");
    fs.mkdirSync(scratch);
    for (let run = 1; run <= RUNS; run += 1) {
      const batch = Array.from({ length: BATCH }, (_, index) => {
        const id = sourceId(run, index);
        return { operation: "create" as const, record_id: id, markdown: sourceMarkdown(id, `New reading ${index}`, `Batch ${run}, record ${index}.`) };
      });
      let proposalId = "";
      propose.push(
        timed(() => {
          const made = makeProposal({ workspace, root, episodeLanguage: null, records: batch, origin: { kind: "cli", client: null } });
          if (!made.ok) throw new Error(`proposal refused at stage ${made.stage}`);
          proposalId = made.proposal.prepared.proposal_id;
        }),
      );
      publish.push(
        timed(() => {
          const result = publishProposal({ workspace, proposalId, approved: true });
          if (!result.ok) throw new Error(`publication failed: ${result.issue.code}: ${result.issue.message}`);
        }),
      );
      writeFloor.push(
        timed(() => {
          for (const record of batch) {
            const target = path.join(scratch, `${record.record_id}.${run}.md`);
            fs.writeFileSync(`${target}.tmp`, record.markdown, { flag: "wx" });
            fs.renameSync(`${target}.tmp`, target);
          }
        }),
      );
    }
    line(`propose ${BATCH} records (preflight incl. final graph)`, median(propose), "read+hash", readFloor);
    line(`publish ${BATCH} records (stage, drift, write, read back)`, median(publish), "temp+rename", median(writeFloor));
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

// ---- notebookFigures: whole processes ----

/** Preloaded into every measured process: writes its CPU microseconds (user + system) to fd 3 on exit. */
const CPU_REPORTER = `"use strict";
process.on("exit", () => {
  const usage = process.resourceUsage();
  require("node:fs").writeSync(3, String(usage.userCPUTime + usage.systemCPUTime));
});
`;

/** The floor: what any validator of these bytes must do, in a process of the same kind. */
const READ_AND_HASH = `"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { createHash } = require("node:crypto");
const folder = process.argv[2];
let files = 0;
for (const name of fs.readdirSync(folder)) {
  createHash("sha256").update(fs.readFileSync(path.join(folder, name))).digest("hex");
  files += 1;
}
process.stdout.write(String(files));
`;

interface Run {
  readonly sample: Sample;
  readonly stdout: string;
}

function runProcess(reporter: string, args: readonly string[], cwd: string): Run {
  const start = performance.now();
  const result = spawnSync(process.execPath, ["-r", reporter, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - start;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${String(result.status)}: ${result.stderr}`);
  const cpuMicros = Number(result.output[3]);
  if (!Number.isFinite(cpuMicros) || cpuMicros <= 0) throw new Error(`${args.join(" ")} reported no CPU time`);
  return { sample: { cpuMs: cpuMicros / 1_000, wallMs }, stdout: result.stdout };
}

export async function notebookFigures(options: { quick: boolean }): Promise<BenchFigure[]> {
  const records = options.quick ? 2_000 : 10_000;
  const rounds = options.quick ? 5 : 7;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-notebook-cli-"));
  try {
    const workspace = path.join(directory, "workspace");
    fs.mkdirSync(workspace);
    const setup = setupNotebook(path.join(directory, "notes"), "en");
    if (!setup.ok) throw new Error(`setup failed: ${setup.issue.code}: ${setup.issue.message}`);
    const root = setup.value.notebook.root;
    writeNotebookRecords(root, generateNotebookRecords({ records, seed: 16 }));
    const reporter = path.join(directory, "cpu-reporter.js");
    const floorScript = path.join(directory, "read-and-hash.js");
    fs.writeFileSync(reporter, CPU_REPORTER);
    fs.writeFileSync(floorScript, READ_AND_HASH);
    const cacheFolder = path.join(workspace, ".docket", "cache", "notebook-validation");
    const validate = [path.join(__dirname, "docket.js"), "notebook", "validate", root, "--workspace", workspace, "--json"];
    const floorArgs = [floorScript, path.join(root, "records")];

    // Warm-up: the file cache, and one validation whose report every later run must repeat.
    const expected = runProcess(reporter, validate, workspace).stdout;
    if (!expected.startsWith('{"valid":true')) throw new Error(`the generated notebook does not validate: ${expected.slice(0, 200)}`);
    if (runProcess(reporter, floorArgs, workspace).stdout !== String(records)) throw new Error("the floor did not read every record");

    const floorCold: Sample[] = [];
    const cold: Sample[] = [];
    const floorUnchanged: Sample[] = [];
    const unchanged: Sample[] = [];
    const checked = (run: Run): Sample => {
      if (run.stdout !== expected) throw new Error("a validation's report differs from the first one");
      return run.sample;
    };
    for (let round = 0; round < rounds; round += 1) {
      floorCold.push(runProcess(reporter, floorArgs, workspace).sample);
      fs.rmSync(cacheFolder, { recursive: true, force: true });
      cold.push(checked(runProcess(reporter, validate, workspace)));
      floorUnchanged.push(runProcess(reporter, floorArgs, workspace).sample);
      unchanged.push(checked(runProcess(reporter, validate, workspace)));
    }
    const workload = `${records.toLocaleString("en-US")} records`;
    const floorLabel = "read + SHA-256 of every record file (child process)";
    return [
      figure({
        id: "notebook.validate.cold",
        label: "docket notebook validate, no validation cache",
        workload,
        rounds,
        measured: measuredOf(cold),
        floor: { label: floorLabel, measured: measuredOf(floorCold) },
        basis: "cpu",
        target: { max: 3, kind: "ratio", text: "≤ 3× reading + hashing the records, cold" },
      }),
      figure({
        id: "notebook.validate.unchanged",
        label: "docket notebook validate, unchanged since the last process",
        workload,
        rounds,
        measured: measuredOf(unchanged),
        floor: { label: floorLabel, measured: measuredOf(floorUnchanged) },
        basis: "cpu",
        target: { max: 1.2, kind: "ratio", text: "≤ 1.2× reading + hashing the records, unchanged across processes" },
      }),
    ];
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}
