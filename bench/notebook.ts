// Notebook figures for `npm run bench`: on a generated Notebook of DOCKET_BENCH_NOTEBOOK_RECORDS
// records (1,000 by default), whole-notebook validation (phase A and B; cold, then with the
// records unchanged so Phase A answers are remembered), making a proposal of
// DOCKET_BENCH_NOTEBOOK_BATCH new records (100 by default) and publishing it, each next to a floor
// measured in the same run: for validation, reading and hashing every record file; for a
// publication, writing the batch's files the way any crash-safe writer must (temp file + rename).
// Publication runs synchronously in VS Code's backend, so its figure says how long other backend
// requests wait while a batch is saved.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { makeProposal } from "../server/notebook/makeProposal";
import { readNotebook, setupNotebook } from "../server/notebook/notebookStore";
import { publishProposal } from "../server/notebook/publication";
import { sourceMarkdown } from "../test/support/notebookRecords";

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
    line(`validate ${RECORDS} records, unchanged since last time`, warm, "read+hash", readFloor);

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
