// Hook figures (issue 16, target 3): PreToolUse, PostToolUse and Stop as a host pays for them — a
// whole `node dist/docket-hook.js` process per call — on a large realistic ledger (many 20-event
// scopes, the last one open in the middle of its work), in CPU time next to a bare `node -e 0`
// measured in the same interleaved rounds:
// - with a current checkpoint (target ≤ 1.5× the floor);
// - with the checkpoint 1,000 lines behind the ledger (target ≤ 2×): every round restores the
//   behind state, since the hook moves the checkpoint to the end;
// - informational: PostToolUse with a current checkpoint on an evidence store whose newest segment
//   is nearly full (the current figure's store starts empty every round), so the capture's append
//   and the recent-handles refresh read what a long session leaves;
// - full run only: with no checkpoint at all on a 1,000,000-event ledger, the PreToolUse decision
//   in wall time (target: answered within 5 s — allow or deny — never past a host's timeout).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { captureToolResult, SEGMENT_BYTES } from "../server/evidence/evidenceStore";
import { lookupCheckpointFile } from "../server/hooks/checkpoint";
import { figure, measuredOf, type BenchFigure } from "./figure";
import { restoreDocketState, saveDocketState, type SavedDocketState } from "./docketState";
import { interleavedRounds, samplesOf, type Arm, type ProducerOptions } from "./runner";
import { EVENTS_PER_SCOPE, offsetOfLastLines, openScopeLines, realisticLedger } from "./workloads";


const BEHIND_LINES = 1_000;
const FILLED_STORE_ID = "hook.postToolUse.filledStore";
/** How full the filled store's only segment is left: a capture of the measured size still fits. */
const FILLED_SEGMENT_SHARE = 0.95;

function git(cwd: string, args: readonly string[]): void {
  const result = spawnSync("git", ["-C", cwd, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

/** A Git work tree whose `.docket/ledger.jsonl` is a copy of `ledgerFile` followed by `extra`. */
export function workspaceWithLedger(directory: string, name: string, ledgerFile: string, extra: string): { workspace: string; ledgerPath: string } {
  const workspace = path.join(directory, name);
  fs.mkdirSync(path.join(workspace, ".docket"), { recursive: true });
  git(workspace, ["init", "--quiet"]);
  const ledgerPath = path.join(workspace, ".docket", "ledger.jsonl");
  fs.copyFileSync(ledgerFile, ledgerPath);
  fs.appendFileSync(ledgerPath, extra);
  return { workspace, ledgerPath };
}

/** `docket status` rebuilds a missing or behind checkpoint after its replay, as any command does. */
export function buildCheckpoint(workspace: string, ledgerPath: string): void {
  const result = spawnSync(process.execPath, [path.join(__dirname, "docket.js"), "status"], { cwd: workspace, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`docket status failed (${result.status}): ${result.stderr}${result.stdout}`);
  const kind = lookupCheckpointFile(ledgerPath).kind;
  if (kind !== "current") throw new Error(`docket status left the checkpoint ${kind}`);
}

interface HookCall {
  readonly id: string;
  readonly event: "PreToolUse" | "PostToolUse" | "Stop";
  readonly input: (workspace: string, call: number) => string;
  /** The answer a correct hook gives on this workspace (checked on every measured call). */
  readonly expect: (stdout: string) => boolean;
}

const CALLS: readonly HookCall[] = [
  {
    id: "preToolUse",
    event: "PreToolUse",
    input: (cwd, call) =>
      JSON.stringify({ session_id: "bench", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: `toolu_bench_pre_${call}` }),
    // The open scope's change has landed: a shell tool waits for the next authorization.
    expect: (stdout) => stdout.includes('"permissionDecision":"deny"'),
  },
  {
    id: "postToolUse",
    event: "PostToolUse",
    input: (cwd, call) =>
      JSON.stringify({
        session_id: "bench",
        cwd,
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { file_path: path.join(cwd, "README.md") },
        tool_response: { file: { filePath: path.join(cwd, "README.md"), content: `# Bench\n\nRead ${call}.\n` } },
        tool_use_id: `toolu_bench_post_${call}`,
      }),
    expect: () => true,
  },
  {
    id: "stop",
    event: "Stop",
    input: (cwd) =>
      JSON.stringify({
        session_id: "bench",
        transcript_path: null,
        cwd,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "I read the parser and the tokenizer; next I will look at how the cache is keyed.",
      }),
    expect: () => true,
  },
];

function hookArm(options: ProducerOptions, name: string, workspace: string, call: HookCall, state: SavedDocketState, afterCheck: () => void, warmUp: boolean): Arm {
  let calls = 0;
  return {
    name,
    warmUp,
    before: () => restoreDocketState(state),
    measure: () => {
      calls += 1;
      const run = options.meter.run({ args: [path.join(__dirname, "docket-hook.js"), "hook", "--host", "claude", call.event], cwd: workspace, input: call.input(workspace, calls) });
      if (run.status !== 0 || !call.expect(run.stdout)) throw new Error(`hook ${call.event} in ${name}: unexpected answer (exit ${run.status}): ${run.stdout}${run.stderr}`);
      afterCheck();
      return run.sample;
    },
  };
}

const FLOOR_LABEL = "node -e 0";

/** The current, 1,000-lines-behind and filled-store figures, on one workspace whose state is restored per run. */
async function checkpointFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  const scopes = Number(process.env.DOCKET_BENCH_HOOK_SCOPES ?? (options.quick ? 1_000 : 5_000));
  const plannedRounds = options.rounds ?? (options.quick ? 7 : 21);
  const cached = realisticLedger(scopes);
  const tail = openScopeLines(cached.file, "landed");
  const { workspace, ledgerPath } = workspaceWithLedger(options.directory, "hook-workspace", cached.file, tail);
  fs.writeFileSync(path.join(workspace, "README.md"), "# Bench\n");
  const lines = cached.events + tail.split("\n").length - 1;
  // Behind: a checkpoint made when the ledger ended 1,000 lines earlier.
  const cut = offsetOfLastLines(ledgerPath, BEHIND_LINES);
  const behindLines = fs.readFileSync(ledgerPath).subarray(cut);
  fs.truncateSync(ledgerPath, cut);
  buildCheckpoint(workspace, ledgerPath);
  fs.appendFileSync(ledgerPath, behindLines);
  if (lookupCheckpointFile(ledgerPath).kind !== "behind") throw new Error("the checkpoint is not behind after appending");
  const behind = saveDocketState(workspace);
  buildCheckpoint(workspace, ledgerPath);
  const current = saveDocketState(workspace);
  const expectCurrent = (): void => {
    const kind = lookupCheckpointFile(ledgerPath).kind;
    if (kind !== "current") throw new Error(`the hook left the checkpoint ${kind}`);
  };
  const arms: Arm[] = [{ name: "floor", measure: () => options.meter.run({ args: ["-e", "0"], cwd: workspace }).sample }];
  for (const call of CALLS) {
    arms.push(hookArm(options, `${call.id}.current`, workspace, call, current, expectCurrent, true));
    // After a behind call the checkpoint must have moved to the end (the next call is fast again).
    // No warm-up of its own: the current arm of the same call warms the same files and bundle.
    arms.push(hookArm(options, `${call.id}.behind${BEHIND_LINES}`, workspace, call, behind, expectCurrent, false));
  }
  const postToolUse = CALLS.find((call) => call.event === "PostToolUse") as HookCall;
  const filled = options.wants(FILLED_STORE_ID) ? await fillEvidenceStore(workspace) : null;
  if (filled !== null) arms.push(hookArm(options, "postToolUse.filledStore", workspace, postToolUse, filled.state, expectCurrent, true));
  const { samples, rounds } = interleavedRounds(arms, { rounds: plannedRounds, warmUps: 1, budgetMs: options.budgetMs });
  const floor = { label: FLOOR_LABEL, measured: measuredOf(samplesOf(samples, "floor")) };
  const size = `${lines.toLocaleString("en-US")} events (${scopes.toLocaleString("en-US")} × ${EVENTS_PER_SCOPE}-event scopes + 1 open)`;
  const filledFigure =
    filled === null
      ? []
      : [
          figure({
            id: FILLED_STORE_ID,
            label: "PostToolUse hook, current checkpoint, evidence segment nearly full",
            workload: `${size}; ${filled.records.toLocaleString("en-US")} evidence records, ${(filled.bytes / 1024 / 1024).toFixed(2)} MB`,
            rounds,
            measured: measuredOf(samplesOf(samples, "postToolUse.filledStore")),
            floor,
            basis: "cpu",
            note: "informational: hook.postToolUse.current on a store a long session leaves (its target is the current figure's)",
          }),
        ];
  return [...CALLS.flatMap((call) => [
    figure({
      id: `hook.${call.id}.current`,
      label: `${call.event} hook, current checkpoint`,
      workload: size,
      rounds,
      measured: measuredOf(samplesOf(samples, `${call.id}.current`)),
      floor,
      basis: "cpu",
      target: { max: 1.5, kind: "ratio", text: "≤ 1.5× node -e 0 with a current snapshot (issue 16, target 3)" },
    }),
    figure({
      id: `hook.${call.id}.behind${BEHIND_LINES}`,
      label: `${call.event} hook, checkpoint ${BEHIND_LINES.toLocaleString("en-US")} lines behind`,
      workload: size,
      rounds,
      measured: measuredOf(samplesOf(samples, `${call.id}.behind${BEHIND_LINES}`)),
      floor,
      basis: "cpu",
      target: { max: 2, kind: "ratio", text: "≤ 2× node -e 0 when 1,000 lines behind (issue 16, target 3)" },
    }),
  ]), ...filledFigure];
}

/** Deterministic tool output of about `bytes` bytes: source-like lines, nothing a secret rule flags. */
function toolOutput(index: number, bytes: number): string {
  const lines: string[] = [];
  for (let line = 0, size = 0; size < bytes; line += 1) {
    const text = `export function step${index}x${line}(value: number): number { return value * ${line + 1} + ${index % 97}; }`;
    lines.push(text);
    size += text.length + 1;
  }
  return lines.join("\n");
}

/**
 * The current state with `.docket/evidence/` holding one segment filled to FILLED_SEGMENT_SHARE of
 * its size by captures the way a host's PostToolUse makes them (Read, Bash and Grep results of a
 * few KB), so the measured capture appends to it without rotating.
 */
async function fillEvidenceStore(workspace: string): Promise<{ state: SavedDocketState; records: number; bytes: number }> {
  const folder = path.join(workspace, ".docket", "evidence");
  const segmentBytes = (): number =>
    fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith(".jsonl")).reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0) : 0;
  const tools = ["Read", "Bash", "Grep"] as const;
  let records = 0;
  while (segmentBytes() < SEGMENT_BYTES * FILLED_SEGMENT_SHARE) {
    const toolName = tools[records % tools.length] as (typeof tools)[number];
    const output = toolOutput(records, 1_000 + (records % 7) * 500);
    const filePath = path.join(workspace, "src", `module${records % 40}.ts`);
    await captureToolResult(workspace, {
      host: "claude",
      sessionId: "bench",
      toolCallId: `toolu_bench_fill_${records}`,
      toolName,
      toolInput: toolName === "Read" ? { file_path: filePath } : toolName === "Bash" ? { command: `npm test -- --grep step${records}` } : { pattern: `step${records}x`, path: "src" },
      toolResponse: toolName === "Read" ? { file: { filePath, content: output } } : toolName === "Bash" ? { stdout: output, stderr: "", interrupted: false } : { mode: "content", content: output },
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, records)).toISOString(),
    });
    records += 1;
  }
  const segments = fs.readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
  if (segments.length !== 1) throw new Error(`the filled evidence store has ${segments.length} segments, not one`);
  return { state: saveDocketState(workspace), records, bytes: segmentBytes() };
}

/** No checkpoint at all, on the 1,000,000-event ledger: answered in time, or denied. */
function noSnapshotFigure(options: ProducerOptions): BenchFigure {
  const scopes = Number(process.env.DOCKET_BENCH_NO_SNAPSHOT_SCOPES ?? 50_000);
  const plannedRounds = options.rounds === null ? 3 : Math.min(options.rounds, 3);
  const started = Date.now();
  const cached = realisticLedger(scopes);
  if (cached.generated) options.log(`generated the ${cached.events.toLocaleString("en-US")}-event ledger in ${((Date.now() - started) / 1_000).toFixed(0)} s (cached in ${path.dirname(cached.file)})`);
  const tail = openScopeLines(cached.file, "landed");
  const { workspace } = workspaceWithLedger(options.directory, "hook-no-snapshot-workspace", cached.file, tail);
  const empty = saveDocketState(workspace);
  const call = CALLS[0] as HookCall;
  let calls = 0;
  const arm: Arm = {
    name: "noSnapshot",
    before: () => restoreDocketState(empty),
    measure: () => {
      calls += 1;
      const run = options.meter.run({ args: [path.join(__dirname, "docket-hook.js"), "hook", "--host", "claude", call.event], cwd: workspace, input: call.input(workspace, calls), timeoutMs: 60_000 });
      if (run.status !== 0 || !run.stdout.includes('"permissionDecision"')) throw new Error(`hook PreToolUse without a checkpoint gave no decision (exit ${run.status}): ${run.stdout}${run.stderr}`);
      return run.sample;
    },
  };
  const { samples, rounds } = interleavedRounds([arm], { rounds: plannedRounds, warmUps: 0, budgetMs: options.budgetMs });
  const events = cached.events + tail.split("\n").length - 1;
  return figure({
    id: "hook.preToolUse.noSnapshot",
    label: "PreToolUse hook, no checkpoint (answer or deny in time)",
    workload: `${events.toLocaleString("en-US")} events`,
    rounds,
    measured: measuredOf(samplesOf(samples, "noSnapshot")),
    basis: "wall",
    target: { max: 5_000, kind: "absolute", text: "answers (or denies) within 5 s on a 1,000,000-event ledger with no usable snapshot (issue 16, target 3)" },
    note: "wall time of the whole hook process; no floor: the target is a deadline",
  });
}

export async function hookFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  const checkpointIds = [...CALLS.flatMap((call) => [`hook.${call.id}.current`, `hook.${call.id}.behind${BEHIND_LINES}`]), FILLED_STORE_ID];
  const figures = checkpointIds.some(options.wants) ? await checkpointFigures(options) : [];
  // The 1,000,000-event ledger takes minutes to generate the first time: full runs only.
  if (!options.quick && options.wants("hook.preToolUse.noSnapshot")) figures.push(noSnapshotFigure(options));
  return figures;
}
