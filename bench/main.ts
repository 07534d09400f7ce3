// `npm run bench`: throughput figures, each printed next to a floor measured in the same run on
// the same machine, so the ratio (not the absolute number) is what to compare across machines.
// `npm run bench -- --quick`: only the in-process figures (ledger replay and Observer replay), none
// of the hook, Guard, CLI, Router or Notebook figures that spawn processes or build workspaces.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { canonicalJson, sha256Hex, toJsonValue } from "../server/ledger/canonicalJson";
import { createEnvelope, type Envelope } from "../server/ledger/envelope";
import { DEVELOPER_STREAM, encodeLedgerLine } from "../server/ledger/ledgerLine";
import { LedgerStore } from "../server/ledger/store";
import { tailSeedPathFor } from "../server/hooks/tailSeed";
import { checkpointPathFor, lookupCheckpointFile } from "../server/hooks/checkpoint";
import { scopeClosedDraft, scopeOpenedDraft } from "../server/developer/scopeOperations";
import { benchCliStart } from "./cli";
import { benchGuardHooks } from "./guard";
import { runNotebookBench } from "./notebook";
import { runObserverBench } from "./observer";
import { benchObserverCapture } from "./observerCapture";
import { runRouterBench } from "./router";

const EVENTS = Number(process.env.DOCKET_BENCH_EVENTS ?? 100_000);
const QUICK = process.argv.includes("--quick");
const RUNS = 3;

/** Deterministic workload: scopes opened and closed with varied closure reasons. */
function workload(count: number): string[] {
  const lines: string[] = [];
  let previousLine: string | null = null;
  let opened: Envelope | null = null;
  for (let index = 0; index < count; index += 1) {
    const occurredAt = new Date(Date.UTC(2030, 0, 1) + index * 1_000).toISOString();
    let envelope: Envelope;
    if (opened === null) {
      envelope = createEnvelope(scopeOpenedDraft(`scope:bench-${index.toString(36).padStart(6, "0")}`, occurredAt));
      opened = envelope;
    } else {
      const reason = `Closed after reviewing change ${index} of the benchmark workload; verification recorded elsewhere.`;
      const refs = index % 3 === 0 ? [{ workScopeId: opened.workScopeId, eventId: opened.eventId, eventSha256: opened.eventSha256 }] : [];
      envelope = createEnvelope(scopeClosedDraft(opened, reason, occurredAt, refs));
      opened = null;
    }
    const encoded = encodeLedgerLine(index, previousLine, DEVELOPER_STREAM, envelope);
    lines.push(encoded.text);
    previousLine = encoded.lineSha256;
  }
  return lines;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function measure(run: () => void): number {
  run(); // warm-up: let the JIT settle before timing
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

function report(name: string, count: number, ms: number, floorMs: number): void {
  const rate = (count / ms) * 1_000;
  const floorRate = (count / floorMs) * 1_000;
  console.log(
    `${name.padEnd(44)} ${rate.toFixed(0).padStart(9)} events/s   floor ${floorRate.toFixed(0).padStart(9)} events/s   ratio ${(ms / floorMs).toFixed(2)}x floor time`,
  );
}

/**
 * A PreToolUse hook decision as a host pays for it (a whole `node dist/docket-hook.js` process) on
 * a ledger of EVENTS+ lines with a current checkpoint, next to a bare `node -e 0` start measured
 * interleaved in the same run. Target (issue 4): ratio ≤ 1.5.
 */
function benchHookLatency(directory: string, ledgerPath: string): { workspace: string; hookLedger: string; lines: number; runs: number } {
  const runs = Number(process.env.DOCKET_BENCH_HOOK_RUNS ?? 21);
  const workspace = path.join(directory, "hook-workspace");
  fs.mkdirSync(path.join(workspace, ".git"), { recursive: true });
  fs.mkdirSync(path.join(workspace, ".docket"));
  const hookLedger = path.join(workspace, ".docket", "ledger.jsonl");
  fs.copyFileSync(ledgerPath, hookLedger);
  // One more line opens a scope, so the hook has something to deny.
  const lineCount = new LedgerStore(hookLedger);
  lineCount.refresh();
  fs.appendFileSync(hookLedger, workload(lineCount.lineCount + 1).slice(lineCount.lineCount).join(""));
  const input = JSON.stringify({ session_id: "bench", cwd: workspace, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_bench" });
  const hookBundle = path.join(__dirname, "docket-hook.js");
  const runHook = (): string => {
    const result = spawnSync(process.execPath, [hookBundle, "hook", "--host", "claude", "PreToolUse"], { input, cwd: workspace, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`hook failed: ${result.stderr}`);
    return result.stdout;
  };
  const coldStart = performance.now();
  const cold = runHook(); // no checkpoint yet: one full replay, which writes it
  const coldMs = performance.now() - coldStart;
  if (!cold.includes('"permissionDecision":"deny"')) throw new Error(`unexpected hook answer: ${cold}`);
  if (lookupCheckpointFile(hookLedger).kind !== "current") throw new Error("the hook did not leave a current checkpoint");
  const hookTimes: number[] = [];
  const nodeTimes: number[] = [];
  runHook();
  spawnSync(process.execPath, ["-e", "0"]);
  for (let index = 0; index < runs; index += 1) {
    let start = performance.now();
    spawnSync(process.execPath, ["-e", "0"]);
    nodeTimes.push(performance.now() - start);
    start = performance.now();
    runHook();
    hookTimes.push(performance.now() - start);
  }
  const hookMs = median(hookTimes);
  const nodeMs = median(nodeTimes);
  console.log(
    `hook PreToolUse decision, ${lineCount.lineCount + 1} lines, checkpoint  ${hookMs.toFixed(1)} ms   node -e 0 ${nodeMs.toFixed(1)} ms   ratio ${(hookMs / nodeMs).toFixed(2)}x (target ≤ 1.5x; median of ${runs})`,
  );
  console.log(`hook PreToolUse decision without a checkpoint (one full replay, rewrites it)  ${coldMs.toFixed(1)} ms`);

  // Behind: the checkpoint is TAIL lines short of the ledger (a crash between append and checkpoint
  // write, or lines from an older Docket). The hook reduces those lines from the checkpoint's seed.
  const tailLines = 100;
  const savedCheckpoint = fs.readFileSync(checkpointPathFor(hookLedger));
  const savedSeed = fs.readFileSync(tailSeedPathFor(hookLedger));
  const before = lineCount.lineCount + 1;
  fs.appendFileSync(hookLedger, workload(before + tailLines).slice(before).join(""));
  const behindTimes: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    fs.writeFileSync(checkpointPathFor(hookLedger), savedCheckpoint);
    fs.writeFileSync(tailSeedPathFor(hookLedger), savedSeed);
    if (lookupCheckpointFile(hookLedger).kind !== "behind") throw new Error("the restored checkpoint is not behind");
    const start = performance.now();
    runHook();
    behindTimes.push(performance.now() - start);
    if (lookupCheckpointFile(hookLedger).kind !== "current") throw new Error("the hook did not move the checkpoint to the end");
  }
  const behindMs = median(behindTimes);
  console.log(
    `hook PreToolUse decision, checkpoint ${tailLines} lines behind (tail reduced)  ${behindMs.toFixed(1)} ms   ratio ${(behindMs / nodeMs).toFixed(2)}x node -e 0 (median of ${runs})`,
  );
  return { workspace, hookLedger, lines: before + tailLines, runs };
}

const directory = fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-"));
let hookBench: ReturnType<typeof benchHookLatency>;
try {
  console.log(`docket bench — ${EVENTS} developer/v8 events, median of ${RUNS} runs, node ${process.version}, ${os.cpus().length} cpus`);
  const lines = workload(EVENTS);
  const ledgerPath = path.join(directory, "ledger.jsonl");
  fs.writeFileSync(ledgerPath, lines.join(""));
  const text = lines.map((line) => line.slice(0, -1));

  // Floor: the least any verifying reader must do per line: parse, canonicalize, hash.
  const floorMs = measure(() => {
    for (const line of text) sha256Hex(canonicalJson(toJsonValue(JSON.parse(line))));
  });

  const replayMs = measure(() => {
    const store = new LedgerStore(ledgerPath);
    store.refresh();
    if (store.replayer.accepted.length !== EVENTS) throw new Error(`replay accepted ${store.replayer.accepted.length} of ${EVENTS}`);
  });
  report("cold replay (read, verify lines, replay)", EVENTS, replayMs, floorMs);

  const tailStore = new LedgerStore(ledgerPath);
  tailStore.refresh();
  const extra = workload(EVENTS + 2).slice(EVENTS);
  fs.appendFileSync(ledgerPath, extra.join(""));
  const tailStart = performance.now();
  tailStore.refresh();
  const tailMs = performance.now() - tailStart;
  const tailFloorStart = performance.now();
  for (const line of extra) sha256Hex(canonicalJson(toJsonValue(JSON.parse(line))));
  const tailFloorMs = performance.now() - tailFloorStart;
  console.log(`incremental catch-up of 2 appended lines      ${tailMs.toFixed(2)} ms   floor ${tailFloorMs.toFixed(2)} ms (independent of the ${EVENTS} lines before)`);
  runObserverBench(QUICK ? 3 : 5);
  if (QUICK) {
    fs.rmSync(directory, { recursive: true, force: true });
    process.exit(process.exitCode ?? 0);
  }
  hookBench = benchHookLatency(directory, ledgerPath);
  // A small Developer ledger ending with an open scope (an odd count ends on an opening).
  benchObserverCapture(directory, workload(1_001).join(""), hookBench.runs);
} catch (error) {
  fs.rmSync(directory, { recursive: true, force: true });
  throw error;
}
// After the ledger figures (each generates and removes its own workspace).
const guardBench = hookBench;
void benchGuardHooks(guardBench.workspace, guardBench.hookLedger, guardBench.lines, guardBench.runs)
  .catch((error: unknown) => {
    console.error(`guard bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exitCode = 1;
  })
  .then(() => benchCliStart(directory, Number(process.env.DOCKET_BENCH_CLI_RUNS ?? 21)))
  .catch((error: unknown) => {
    console.error(`CLI bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(directory, { recursive: true, force: true }))
  .then(() => runRouterBench())
  .catch((error: unknown) => {
    console.error(`router bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exitCode = 1;
  })
  .then(() => runNotebookBench())
  .catch((error: unknown) => {
    console.error(`notebook bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exitCode = 1;
  });
