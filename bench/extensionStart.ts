// Extension start on a large ledger (issue 16, target 6, first half): from spawning the backend
// (`node dist/docket.js serve --stdio`, as the extension does) to its answer to the Work view's
// first `docket/workState`, on a ledger of 1,000,000 generated events (quick: 100,000) whose
// snapshot (checkpoint + tail seed) is current. Wall time, the extension's wait; the target is
// absolute (≤ 300 ms), so there is no floor. The answer must come from the snapshot
// (`stillReading`), else this would measure a replay and the producer fails.
//
// The ledger is the bench's cached realistic workload (bench/workloads.ts), hard-linked (copied
// where a link cannot be made) into a workspace of its own under os.tmpdir() that only this
// bench writes its checkpoint into; nothing writes to the ledger.
//   node out/bench/extensionStart.js [--quick]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { Requests, type BackendInitOptions } from "../server/protocol/messages";
import { figure, measuredOf, type BenchFigure, type Sample } from "./figure";
import { EVENTS_PER_SCOPE, realisticLedger, ensureSnapshot } from "./workloads";
import { repoRoot } from "../test/support/repoRoot";

const START_TARGET_MS = 300;

/** A workspace holding the cached ledger and a current snapshot for it, built once. */
export function startWorkspace(events: number): { workspace: string; ledgerPath: string } {
  const source = realisticLedger(Math.max(1, Math.round(events / EVENTS_PER_SCOPE)));
  const workspace = path.join(os.tmpdir(), "docket-bench-start", path.basename(source.file, ".jsonl"));
  const ledgerPath = path.join(workspace, ".docket", "ledger.jsonl");
  if (!fs.existsSync(ledgerPath)) {
    fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
    const temporary = `${ledgerPath}.${process.pid}.tmp`;
    try {
      fs.linkSync(source.file, temporary);
    } catch {
      fs.copyFileSync(source.file, temporary);
    }
    fs.renameSync(temporary, ledgerPath);
  }
  ensureSnapshot(ledgerPath);
  return { workspace, ledgerPath };
}

/** CPU time (user + system) a running process has used so far, from /proc (Linux; 10 ms ticks). */
function cpuSoFarMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Where the backend keeps its compile cache, as the extension sets it (extension/backend.ts: Node
 * 22.1 and later keep the bundles' compiled code there; Node 20 ignores it). The unmeasured first
 * start of each figure writes it, as an editor's first start after an install or update does.
 */
const COMPILE_CACHE = path.join(os.tmpdir(), "docket-bench-start", "node-compile-cache");
/** How long a start may take to exit after `shutdown` + `exit` before it is killed. */
const EXIT_WAIT_MS = 5_000;

/** One start: spawn, initialize, ask for the Work view; the time until its answer. */
async function startOnce(cli: string, workspace: string, expectSnapshot: boolean): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, "serve", `--clientProcessId=${process.pid}`, "--stdio"], {
    stdio: ["pipe", "pipe", "ignore"],
    env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.listen();
  try {
    const initializationOptions: BackendInitOptions = { workspaceFolder: workspace, ledgerPath: null, trusted: true };
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions });
    await connection.sendNotification("initialized", {});
    const work = Requests.workState.result.parse(await connection.sendRequest(Requests.workState.method, {}));
    const wallMs = performance.now() - started;
    const cpuMs = child.pid === undefined ? Number.NaN : cpuSoFarMs(child.pid);
    if (expectSnapshot && work.stillReading !== true) throw new Error("the backend did not answer from the snapshot: this would measure a replay");
    return { cpuMs, wallMs };
  } finally {
    // The backend is still reading the history behind its answer; that is not measured here. It
    // stops as the editor stops it (`shutdown`, then `exit`), which is when Node writes its cache.
    const killer = setTimeout(() => child.kill("SIGKILL"), EXIT_WAIT_MS);
    const stopping = (async () => {
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
    })().catch(() => child.kill("SIGKILL"));
    await Promise.race([exited, stopping]);
    await exited;
    clearTimeout(killer);
    connection.dispose();
  }
}

export async function extensionStartFigures(options: { quick: boolean; rounds?: number | null }): Promise<BenchFigure[]> {
  const cli = path.join(repoRoot(), "dist", "docket.js");
  const events = options.quick ? 100_000 : 1_000_000;
  const rounds = options.rounds ?? (options.quick ? 5 : 9);
  const { workspace } = startWorkspace(events);
  // The same start in a folder without a ledger: Node's start and the backend bundle's load, which
  // every start pays; interleaved with the measured one so both see the same machine.
  const empty = path.join(os.tmpdir(), "docket-bench-start", "no-ledger");
  fs.mkdirSync(empty, { recursive: true });
  // One unmeasured start each: the page cache holds what a start reads, as on a machine in use.
  await startOnce(cli, workspace, true);
  await startOnce(cli, empty, false);
  const samples: Sample[] = [];
  const emptySamples: Sample[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const large of order) {
      if (large) samples.push(await startOnce(cli, workspace, true));
      else emptySamples.push(await startOnce(cli, empty, false));
    }
  }
  return [
    figure({
      id: "extension.start.noLedger",
      label: "backend start → first `docket/workState` answer, folder without a ledger",
      workload: "no ledger",
      rounds,
      measured: measuredOf(emptySamples),
      basis: "wall",
      note: "what every start pays (Node and the backend bundle), for comparison with extension.start.workState",
    }),
    figure({
      id: "extension.start.workState",
      label: "backend start → first `docket/workState` answer, snapshot current",
      workload: `${events.toLocaleString("en-US")} events`,
      rounds,
      measured: measuredOf(samples),
      basis: "wall",
      target: { max: START_TARGET_MS, kind: "absolute", text: "activation to the first Work tree render ≤ 300 ms on a 1,000,000-event ledger (issue 16, target 6)" },
      note: "wall time from spawning `docket serve --stdio` to the Work view's answer (from the verified snapshot; the history is read behind it); CPU from /proc at the answer",
    }),
  ];
}

if (require.main === module && path.basename(process.argv[1] ?? "") === "extensionStart.js") {
  extensionStartFigures({ quick: process.argv.includes("--quick") }).then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
