// Crash: SIGKILL every kind of Docket writer at seeded moments — the CLI (`docket on|off`), the
// MCP server (`docket mcp`, driven by the MCP SDK's client), the backend (`docket serve --stdio`,
// JSON-RPC) and the agent hooks (the installed PostToolUse command, which captures evidence and
// writes heartbeats and checkpoints) — including inside the ledger lock, after it, at a temporary
// file, and in the middle of the write itself (a torn batch, see support/tornWrite.ts). After each
// kill: every acknowledged write is still there exactly once, `ledger verify` passes (a torn tail
// of an unacknowledged write is a note), the hook checkpoint agrees with a replay, the next step
// of the cycle has its baseline, the next writer of every kind succeeds within the lock timeout,
// and nothing is left behind in `.docket/` (no lock, no temporary file).
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";
import type { EvidenceLookup } from "../../../server/developer/operations/evidence";
import { workspaceEvidence } from "../../../server/evidence/evidenceStore";
import { checkpointPathFor } from "../../../server/hooks/checkpoint";
import { verifyLedgerBytes } from "../../../server/workspace/workspaceLedger";
import { captureOperation, describeOperation, editForLanding, LedgerReader, operationFor, WRITER_KINDS, type Operation, type WriterKind } from "../support/cycle";
import { cycleBaselineProblem } from "../support/cycleHealth";
import { armKill, watchedFolders, type KillMode, type KillPlan } from "../support/killTrigger";
import { acknowledgedProblems, checkpointDisagreement, gitignoreProblem, ledgerEventIds, leftovers, missingEvidence } from "../support/ledgerFacts";
import { permute, seededSamples, unit } from "../support/seeded";
import { appendTornEvidence, appendTornWrite, type TornWrite } from "../support/tornWrite";
import { createWriterWorkspace, type WriterWorkspace } from "../support/writerWorkspace";
import { runCliWrite, runHookWrite, startBackendSession, startMcpSession, type Exit, type Outcome, type RunningWrite, type WriterSession } from "../support/writers";

/** Kills in CI; `--long` runs ten times as many. */
const CI_KILLS = 200;
const LONG_KILLS = 2_000;
/**
 * Wall-clock guard: CI stops launching trials after this even if short of CI_KILLS (and says so).
 * The idle 2-core machine reaches CI_KILLS in about 130 s; the guard leaves room for a busier
 * machine, where 170 s proved too tight (a run short of kills fails without any fault found).
 */
const CI_DEADLINE_MS = 300_000;
const LONG_DEADLINE_MS = 40 * 60_000;
const LANES = 3;
/** The ledger lock's default wait: the next writer must get through within it. */
const LOCK_TIMEOUT_MS = 10_000;

const LEDGER_LOCKS = ["ledger.jsonl.lock", "ledger.jsonl.lock.break"];
const EVIDENCE_LOCKS = ["append.lock", "append.lock.break"];

/** Refusals a writer may legitimately answer when the planner's view was already out of date. */
const LEGAL_REFUSALS = new Set(["docket.already-on", "docket.already-off", "docket.operation-not-legal"]);

const modeArbitrary: fc.Arbitrary<KillMode> = fc.oneof(
  { arbitrary: fc.constant<KillMode>("timed"), weight: 3 },
  { arbitrary: fc.constant<KillMode>("lock"), weight: 3 },
  { arbitrary: fc.constant<KillMode>("unlock"), weight: 2 },
  { arbitrary: fc.constant<KillMode>("tmp"), weight: 2 },
  { arbitrary: fc.constant<KillMode>("torn"), weight: 2 },
);

const planArbitrary = fc.record({
  kind: fc.constantFrom<WriterKind>(...WRITER_KINDS),
  mode: modeArbitrary,
  delay: unit,
  roll: unit,
  probeOrder: fc.array(unit, { minLength: 4, maxLength: 4 }),
  tornCut: unit,
  dropCheckpoint: fc.boolean(),
  host: fc.constantFrom<"claude" | "codex">("claude", "codex"),
  outputBytes: fc.integer({ min: 16, max: 60_000 }),
});
type TrialPlan = typeof planArbitrary extends fc.Arbitrary<infer T> ? T : never;

interface Lane {
  readonly index: number;
  workspace: WriterWorkspace;
  /** The lane's incremental views of its ledger and its evidence store. */
  reader: LedgerReader;
  evidenceIndex: EvidenceLookup;
  /** Workspaces this lane started over with after a stuck one. */
  generation: number;
  backend: WriterSession;
  mcp: WriterSession;
  /** Every acknowledged event id and evidence handle, with who it was acknowledged to. */
  acknowledged: Map<string, string>;
  evidence: Map<string, string>;
  readonly seenTemporary: Set<string>;
  readonly seenSetAside: Set<string>;
  /** Milliseconds an unkilled write of each kind takes here (the range of timed kills). */
  readonly calibration: Record<WriterKind, number>;
  captures: number;
  edits: number;
}

interface Totals {
  trials: number;
  kills: number;
  /** Kills after which the writer's lock was left behind: it died holding it. */
  killsInLock: number;
  tornWrites: number;
  /** Torn batches that kept a whole line without its newline: verify calls that an edit (exit 1), by design. */
  unterminated: number;
  setAside: number;
  /** Stuck scopes whose missing baseline the target wrote so the run could go on. */
  repairs: number;
  /** Lanes that had to start over in a fresh workspace because the ledger was blocked or stuck. */
  resets: number;
  dataLost: number;
  readonly failures: string[];
}

function delayFor(plan: TrialPlan, lane: Lane): number {
  switch (plan.mode) {
    case "timed":
      // Slightly past the measured write, so some kills land after the answer (the post-write work).
      return plan.delay * lane.calibration[plan.kind] * 1.1;
    case "lock":
      // Skewed to the first milliseconds, where the catch-up, preflight and write happen.
      return 14 * plan.delay * plan.delay;
    case "torn":
      // Before the append, so the write can be the one cut short.
      return 3 * plan.delay * plan.delay;
    case "unlock":
      return 20 * plan.delay;
    case "tmp":
      return 0.6 * plan.delay;
  }
}

function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case "ack":
      return `acknowledged ${outcome.eventIds.length} event(s)${outcome.evidence.length > 0 ? ` and evidence ${outcome.evidence.join(", ")}` : ""}`;
    case "refused":
      return `refused ${outcome.code}`;
    case "no-answer":
      return `no answer (${outcome.detail})`;
    case "raw":
      return `raw error (${outcome.detail})`;
  }
}

async function startLane(context: ReliabilityContext, index: number): Promise<Lane> {
  const workspace = createWriterWorkspace(context.tmp, `lane-${index}`, context.repoRoot);
  return {
    index,
    workspace,
    reader: new LedgerReader(workspace.root, workspace.ledgerPath),
    evidenceIndex: workspaceEvidence(workspace.root),
    generation: 0,
    backend: await startBackendSession(workspace),
    mcp: await startMcpSession(workspace, `reliability-standing-${index}`),
    acknowledged: new Map(),
    evidence: new Map(),
    seenTemporary: new Set(),
    seenSetAside: new Set(),
    calibration: { cli: 250, hook: 150, backend: 80, mcp: 80 },
    captures: 0,
    edits: 0,
  };
}

function record(lane: Lane, outcome: Outcome, by: string): void {
  if (outcome.kind !== "ack") return;
  for (const eventId of outcome.eventIds) lane.acknowledged.set(eventId, by);
  for (const handle of outcome.evidence) lane.evidence.set(handle, by);
}

function nextCapture(lane: Lane, host: "claude" | "codex", outputBytes: number): () => Operation {
  return () => captureOperation(lane.workspace.root, host, `toolu_crash_${lane.index}_${(lane.captures += 1)}`, outputBytes);
}

function prepare(lane: Lane, operation: Operation): void {
  if (operation.name === "recordLanding") editForLanding(lane.workspace.root, `edit-${lane.index}-${(lane.edits += 1)}`);
}

/** One write by a fresh process of `kind`, optionally with a kill armed once the write is under way. */
async function launch(lane: Lane, kind: WriterKind, operation: Operation, kill: KillPlan | null): Promise<{ outcome: Outcome; exit: Exit | null; trigger: string | null }> {
  const folders = watchedFolders(lane.workspace.docketFolder);
  const locks = kind === "hook" ? EVIDENCE_LOCKS : LEDGER_LOCKS;
  if (kind === "cli" || kind === "hook") {
    const running: RunningWrite = kind === "cli" ? runCliWrite(lane.workspace, operation) : runHookWrite(lane.workspace, operation);
    const armed = kill === null ? null : armKill(running.pid, kill, folders, locks);
    const outcome = await running.outcome;
    const exit = await running.exited;
    return { outcome, exit, trigger: armed?.disarm() ?? null };
  }
  const session = kind === "backend" ? await startBackendSession(lane.workspace) : await startMcpSession(lane.workspace, `reliability-victim-${lane.index}`);
  const armed = kill === null ? null : armKill(session.pid, kill, folders, locks);
  const outcome = await session.write(operation);
  const trigger = armed?.disarm() ?? null;
  if (trigger !== null) {
    return { outcome, exit: await session.exited, trigger };
  }
  await session.stop();
  return { outcome, exit: null, trigger };
}

/** Times one unkilled write of each kind, so timed kills spread over the whole write. */
async function calibrate(lane: Lane): Promise<void> {
  for (const kind of WRITER_KINDS) {
    let view = lane.reader.view();
    if (view.phase === "off" && kind === "mcp") {
      record(lane, await lane.backend.write({ name: "turnOn", params: {} }), `lane ${lane.index} setup`);
      view = lane.reader.view();
    }
    const operation = operationFor(kind, view, 0.99, nextCapture(lane, "claude", 1_000));
    if (operation === null) continue;
    prepare(lane, operation);
    const started = Date.now();
    const { outcome } = await launch(lane, kind, operation, null);
    record(lane, outcome, `lane ${lane.index} calibration ${kind}`);
    // Sessions are timed from the request; spawned writers from the spawn.
    lane.calibration[kind] = Math.max(kind === "cli" || kind === "hook" ? 100 : 30, Date.now() - started - (kind === "cli" || kind === "hook" ? 0 : 250));
  }
}

/**
 * A blocked ledger, or a scope whose next step is refused for reasons the target cannot repair,
 * takes the lane nowhere: it starts over in a fresh workspace (its acknowledged writes were all
 * checked), so one finding does not repeat in every later trial.
 */
async function resetLane(lane: Lane, context: ReliabilityContext): Promise<void> {
  await Promise.all([lane.backend.stop(), lane.mcp.stop()]);
  lane.generation += 1;
  lane.workspace = createWriterWorkspace(context.tmp, `lane-${lane.index}-${lane.generation}`, context.repoRoot);
  lane.reader = new LedgerReader(lane.workspace.root, lane.workspace.ledgerPath);
  lane.evidenceIndex = workspaceEvidence(lane.workspace.root);
  lane.backend = await startBackendSession(lane.workspace);
  lane.mcp = await startMcpSession(lane.workspace, `reliability-standing-${lane.index}`);
  lane.acknowledged = new Map();
  lane.evidence = new Map();
  lane.seenTemporary.clear();
  lane.seenSetAside.clear();
}

async function replaceDeadSessions(lane: Lane, failures: string[], repro: string): Promise<void> {
  for (const kind of ["backend", "mcp"] as const) {
    const session = kind === "backend" ? lane.backend : lane.mcp;
    let alive = true;
    try {
      process.kill(session.pid, 0);
    } catch {
      alive = false;
    }
    if (alive) continue;
    failures.push(`${repro}: the standing ${kind} process died`);
    if (kind === "backend") lane.backend = await startBackendSession(lane.workspace);
    else lane.mcp = await startMcpSession(lane.workspace, `reliability-standing-${lane.index}`);
  }
}

/** The checks that hold at any quiet moment: verify, acknowledged writes, checkpoint, .gitignore. */
function checkLedger(lane: Lane, totals: Totals, repro: string, torn: TornWrite | null, afterProbes: boolean): void {
  const { ledgerPath, docketFolder } = lane.workspace;
  const verified = verifyLedgerBytes(ledgerPath);
  const when = afterProbes ? "after the next writers" : "after the kill";
  if (!verified.ok) {
    const fault = verified.firstFault;
    const expectedUnterminated = !afterProbes && torn?.wholeLineWithoutNewline === true && fault?.code === "ledger-line-unterminated";
    if (expectedUnterminated) totals.unterminated += 1;
    else totals.failures.push(`${repro}: ledger verify failed ${when}: line ${String(fault?.line)} ${String(fault?.code)}: ${String(fault?.message)}`);
  } else if (afterProbes && verified.tornTailBytes > 0) {
    totals.failures.push(`${repro}: ${verified.tornTailBytes} torn bytes are still at the end of the ledger ${when}`);
  }
  const { missing, duplicated } = acknowledgedProblems(lane.acknowledged, ledgerEventIds(ledgerPath));
  if (missing.length > 0) {
    totals.dataLost += missing.length;
    totals.failures.push(`${repro}: acknowledged events missing from the ledger ${when}: ${missing.join("; ")}`);
  }
  if (duplicated.length > 0) totals.failures.push(`${repro}: acknowledged events duplicated ${when}: ${duplicated.join("; ")}`);
  const lostEvidence = missingEvidence(lane.evidenceIndex, lane.evidence);
  if (lostEvidence.length > 0) {
    totals.dataLost += lostEvidence.length;
    totals.failures.push(`${repro}: acknowledged evidence missing ${when}: ${lostEvidence.join("; ")}`);
    for (const handle of lostEvidence) lane.evidence.delete(handle.split(" ")[0] as string);
  }
  for (const eventId of missing) lane.acknowledged.delete(eventId.split(" ")[0] as string);
  const disagreement = checkpointDisagreement(ledgerPath, lane.reader);
  if (disagreement !== null) totals.failures.push(`${repro}: ${when}, ${disagreement}`);
  const ignore = gitignoreProblem(docketFolder);
  if (ignore !== null) totals.failures.push(`${repro}: ${when}, ${ignore}`);
}

/** One probe write by the next writer of `kind`; a failure when it does not get through. */
async function probeOne(lane: Lane, kind: WriterKind, plan: TrialPlan, totals: Totals, repro: string): Promise<boolean> {
  const view = lane.reader.view();
  let operation = operationFor(kind, view, 0.99, nextCapture(lane, plan.host, 2_000));
  // Docket off: the MCP server has no write to make, but asking proves it gets the lock.
  if (operation === null) operation = { name: "openJudgment", params: { routeDefinitionId: "route:meaning-settlement", question: "Is Docket on?", obligations: [{ obligationId: "obligation:probe", statement: "Probe." }] } };
  prepare(lane, operation);
  const started = Date.now();
  let outcome: Outcome;
  if (kind === "backend") outcome = await lane.backend.write(operation);
  else if (kind === "mcp") outcome = await lane.mcp.write(operation);
  else outcome = await (kind === "cli" ? runCliWrite(lane.workspace, operation) : runHookWrite(lane.workspace, operation)).outcome;
  const elapsed = Date.now() - started;
  const what = `the next ${kind} writer (${describeOperation(operation)})`;
  record(lane, outcome, `${repro}, then ${what}`);
  if (elapsed > LOCK_TIMEOUT_MS) totals.failures.push(`${repro}: ${what} took ${elapsed} ms, beyond the ${LOCK_TIMEOUT_MS} ms lock timeout`);
  if (outcome.kind === "ack") {
    if (kind === "hook" && view.phase !== "off" && outcome.evidence.length === 0) totals.failures.push(`${repro}: ${what} captured nothing while Docket was on`);
    return false;
  }
  const legal =
    outcome.kind === "refused" &&
    ((kind === "cli" && outcome.code === "docket.already-on") || (kind === "mcp" && view.phase === "off" && (outcome.code === "docket.already-off" || outcome.code === "docket.operation-not-legal")));
  if (!legal) totals.failures.push(`${repro}: stuck: ${what} was ${describeOutcome(outcome)} (phase ${view.phase})`);
  return !legal;
}

/**
 * The next writer of every kind: the two long-lived ones (backend, MCP) one after the other and
 * the two spawned ones (CLI, hook: different locks) side by side, either group first, in a seeded
 * order, so each kind is sometimes the one that finds the dead writer's lock.
 */
async function probe(lane: Lane, plan: TrialPlan, totals: Totals, repro: string): Promise<boolean> {
  const order = permute(WRITER_KINDS, plan.probeOrder);
  const sessions = order.filter((kind) => kind === "backend" || kind === "mcp");
  const spawned = order.filter((kind) => kind === "cli" || kind === "hook");
  let stuck = false;
  const runSessions = async (): Promise<void> => {
    for (const kind of sessions) stuck = (await probeOne(lane, kind, plan, totals, repro)) || stuck;
  };
  const runSpawned = async (): Promise<void> => {
    for (const result of await Promise.all(spawned.map((kind) => probeOne(lane, kind, plan, totals, repro)))) stuck = result || stuck;
  };
  if (order[0] === "backend" || order[0] === "mcp") {
    await runSessions();
    await runSpawned();
  } else {
    await runSpawned();
    await runSessions();
  }
  return stuck;
}

async function runTrial(lane: Lane, plan: TrialPlan, number: number, context: ReliabilityContext, totals: Totals): Promise<void> {
  const { workspace } = lane;
  let view = lane.reader.view();
  if (plan.kind === "mcp" && view.phase === "off") {
    record(lane, await lane.backend.write({ name: "turnOn", params: {} }), `lane ${lane.index} trial ${number} setup`);
    view = lane.reader.view();
  }
  const operation = operationFor(plan.kind, view, plan.roll, nextCapture(lane, plan.host, plan.outputBytes));
  if (operation === null) return;
  prepare(lane, operation);
  if (plan.kind === "hook" && plan.dropCheckpoint) fs.rmSync(checkpointPathFor(workspace.ledgerPath), { force: true });
  const kill: KillPlan = { mode: plan.mode, delayMs: delayFor(plan, lane) };
  const sizeBefore = fs.statSync(workspace.ledgerPath, { throwIfNoEntry: false })?.size ?? 0;
  const { outcome, exit, trigger } = await launch(lane, plan.kind, operation, kill);
  totals.trials += 1;
  const killed = trigger !== null && (exit === null || exit.signal === "SIGKILL" || exit.code === null);
  if (killed) totals.kills += 1;
  let repro = `seed ${context.seed} lane ${lane.index} trial ${number}: ${plan.kind} ${describeOperation(operation)} (phase ${view.phase}), kill ${plan.mode} → ${killed ? trigger : "not sent (the write finished first)"}, ${describeOutcome(outcome)}`;
  record(lane, outcome, repro);
  if (outcome.kind === "raw") totals.failures.push(`${repro}: the writer answered with a raw error`);
  if (outcome.kind === "refused" && !LEGAL_REFUSALS.has(outcome.code)) totals.failures.push(`${repro}: unexpected refusal`);

  const lockLeft = [...LEDGER_LOCKS.map((name) => path.join(workspace.docketFolder, name)), ...EVIDENCE_LOCKS.map((name) => path.join(workspace.docketFolder, "evidence", name))].some((file) => fs.existsSync(file));
  if (killed && lockLeft) totals.killsInLock += 1;
  let torn: TornWrite | null = null;
  // Only a writer that died in the lock before its append can have been cut mid-write.
  const unwritten = (fs.statSync(workspace.ledgerPath, { throwIfNoEntry: false })?.size ?? 0) === sizeBefore;
  if (killed && plan.mode === "torn" && plan.kind !== "hook" && unwritten && fs.existsSync(path.join(workspace.docketFolder, LEDGER_LOCKS[0] as string))) {
    torn = await appendTornWrite(workspace.ledgerPath, path.join(context.tmp, `torn-scratch-${lane.index}`), plan.tornCut, operation);
    if (torn !== null) {
      totals.tornWrites += 1;
      repro += `, then a torn ${torn.operation} batch: ${torn.bytes} of ${torn.of} bytes (${torn.completeLines} whole line(s))`;
    }
  }
  if (killed && plan.mode === "torn" && plan.kind === "hook" && fs.existsSync(path.join(workspace.docketFolder, "evidence", EVIDENCE_LOCKS[0] as string))) {
    const tornEvidence = appendTornEvidence(path.join(workspace.docketFolder, "evidence"), plan.tornCut);
    if (tornEvidence !== null) {
      totals.tornWrites += 1;
      repro += `, then a torn evidence record in ${tornEvidence.segment}: ${tornEvidence.bytes} of ${tornEvidence.of} bytes`;
    }
  }
  checkLedger(lane, totals, repro, torn, false);
  // Only these writes refresh a baseline after their ledger write (turning on, authorizing, landing).
  const refreshesBaseline = operation.name === "turnOn" || operation.name === "authorizeChange" || operation.name === "recordLanding";
  const baseline = await cycleBaselineProblem(workspace.root, lane.reader.current(), refreshesBaseline);
  if (baseline !== null) {
    totals.failures.push(`${repro}: stuck: ${baseline.problem}`);
    // Written as Docket should have, so the probes below test the lock and the files, not this again.
    await baseline.repair();
    totals.repairs += 1;
  }

  // A writer that finished on its own left nothing for the next ones to recover: its trial ends here.
  const stuck = killed ? await probe(lane, plan, totals, repro) : false;
  await replaceDeadSessions(lane, totals.failures, repro);
  if (killed) checkLedger(lane, totals, repro, null, true);
  const left = leftovers(workspace.docketFolder);
  if (left.locks.length > 0) totals.failures.push(`${repro}: locks still present ${killed ? "after the next writers" : "with no writer killed"}: ${left.locks.join(", ")}`);
  for (const file of left.temporary) {
    if (lane.seenTemporary.has(file)) continue;
    lane.seenTemporary.add(file);
    totals.failures.push(`${repro}: temporary file left in .docket/: ${file}`);
  }
  for (const file of left.setAside) {
    if (lane.seenSetAside.has(file)) continue;
    lane.seenSetAside.add(file);
    totals.setAside += 1;
  }
  const blocked = lane.reader.view().phase === "blocked";
  if (blocked) totals.failures.push(`${repro}: the ledger is blocked: ${lane.reader.current().history().blockedReason ?? ""}`);
  if (blocked || stuck) {
    totals.resets += 1;
    await resetLane(lane, context);
  }
}

export const target: ReliabilityTarget = {
  name: "crash",
  description: "SIGKILL the CLI, MCP server, backend and hooks at seeded moments (inside the lock, mid-write, at temp files): nothing acknowledged is lost, verify passes, nothing is stuck or left behind",
  async run(context) {
    const goal = context.long ? LONG_KILLS : CI_KILLS;
    const deadline = Date.now() + (context.long ? LONG_DEADLINE_MS : CI_DEADLINE_MS);
    const totals: Totals = { trials: 0, kills: 0, killsInLock: 0, tornWrites: 0, unterminated: 0, setAside: 0, repairs: 0, resets: 0, dataLost: 0, failures: [] };
    const lanes: Lane[] = [];
    try {
      for (let index = 0; index < LANES; index += 1) lanes.push(await startLane(context, index));
      await Promise.all(lanes.map((lane) => calibrate(lane)));
      context.log(`calibrated write times (ms): ${lanes.map((lane) => JSON.stringify(lane.calibration)).join(" ")}`);
      // Each lane stops on its own error; the others finish their trials (and their processes).
      await Promise.all(
        lanes.map(async (lane) => {
          // Enough plans for the goal even if most trials finish before their kill.
          const plans = seededSamples(planArbitrary, context.seed, 101 + lane.index, Math.ceil((goal * 4) / LANES));
          try {
            for (const [number, plan] of plans.entries()) {
              if (totals.kills >= goal || Date.now() > deadline) break;
              await runTrial(lane, plan, number, context, totals);
              if (totals.trials % 50 === 0) context.log(`${totals.trials} trials, ${totals.kills} kills (${totals.killsInLock} inside a lock), ${totals.failures.length} failures`);
            }
          } catch (error) {
            totals.failures.push(`lane ${lane.index} (seed ${context.seed}) crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          }
        }),
      );
    } catch (error) {
      totals.failures.push(`crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      await Promise.all(lanes.flatMap((lane) => [lane.backend.stop(), lane.mcp.stop()]));
    }
    if (totals.kills < goal) totals.failures.push(`only ${totals.kills} of ${goal} kills fit in the time budget (seed ${context.seed})`);
    const acknowledged = lanes.reduce((sum, lane) => sum + lane.acknowledged.size + lane.evidence.size, 0);
    context.log(
      `${totals.kills} kills in ${totals.trials} trials: ${totals.killsInLock} left a lock behind, ${totals.tornWrites} torn writes (${totals.unterminated} kept a whole line without its newline), ${totals.setAside} torn tails set aside, ${totals.repairs} stuck scopes repaired, ${totals.resets} blocked or stuck workspaces replaced, ${acknowledged} acknowledged writes checked`,
    );
    const tally: TargetTally = { trials: totals.trials, faults: totals.kills, dataLost: totals.dataLost, failures: totals.failures };
    return tally;
  },
};
