// Concurrency: eight writers of every kind — two backends (`docket serve --stdio`), two MCP
// servers (`docket mcp`), two CLI slots (`docket on|off`) and two hook slots (the installed
// PostToolUse command) — write to one workspace at the same moment, round after round, each from
// the same (soon stale) view of the ledger. Every acknowledged write must be in the ledger exactly
// once, the ledger must verify, and every refusal must carry a `docket.*` code that a race can
// explain — never a raw error, never a lock left behind or a temporary file.
import fc from "fast-check";
import type { ReliabilityContext, ReliabilityTarget } from "../target";
import { workspaceEvidence } from "../../../server/evidence/evidenceStore";
import { verifyLedgerBytes } from "../../../server/workspace/workspaceLedger";
import { captureOperation, describeOperation, editForLanding, LedgerReader, operationFor, type Operation, type WriterKind } from "../support/cycle";
import { cycleBaselineProblem } from "../support/cycleHealth";
import { acknowledgedProblems, checkpointDisagreement, gitignoreProblem, ledgerEventIds, leftovers, missingEvidence } from "../support/ledgerFacts";
import { seededSamples, unit } from "../support/seeded";
import { createWriterWorkspace } from "../support/writerWorkspace";
import { runCliWrite, runHookWrite, startBackendSession, startMcpSession, type Outcome, type WriterSession } from "../support/writers";

const CI_ROUNDS = { min: 30, spread: 10 };
const LONG_ROUNDS = { min: 400, spread: 100 };

/** Refusals a write can meet when another writer changed the state first. */
const RACE_REFUSALS = new Set([
  "docket.already-on",
  "docket.already-off",
  "docket.operation-not-legal",
  "docket.preflight-rejected",
  "docket.purpose-mismatch",
  "docket.verification-route-required",
  "docket.ledger-locked",
]);

interface Writer {
  readonly name: string;
  readonly kind: WriterKind;
  readonly session: WriterSession | null;
}

const roundArbitrary = fc.record({
  rolls: fc.array(unit, { minLength: 8, maxLength: 8 }),
  /** When each long-lived writer fires, as a fraction of a spawned writer's start-up time. */
  offsets: fc.array(unit, { minLength: 8, maxLength: 8 }),
  hosts: fc.array(fc.constantFrom<"claude" | "codex">("claude", "codex"), { minLength: 8, maxLength: 8 }),
  outputBytes: fc.integer({ min: 16, max: 40_000 }),
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describe(outcome: Outcome): string {
  if (outcome.kind === "ack") return `acknowledged ${outcome.eventIds.length} event(s)${outcome.evidence.length > 0 ? ` and ${outcome.evidence.join(", ")}` : ""}`;
  if (outcome.kind === "refused") return `refused ${outcome.code}: ${outcome.message.slice(0, 200)}`;
  return `${outcome.kind}: ${outcome.detail}`;
}

export const target: ReliabilityTarget = {
  name: "concurrency",
  description: "8 concurrent writers of every kind (2 backends, 2 MCP servers, 2 CLIs, 2 hooks) on one workspace: every acknowledged write exactly once, the ledger verifies, every refusal coded",
  async run(context: ReliabilityContext) {
    const failures: string[] = [];
    const bounds = context.long ? LONG_ROUNDS : CI_ROUNDS;
    const rounds = bounds.min + (Math.abs(context.seed) % bounds.spread);
    const workspace = createWriterWorkspace(context.tmp, "shared", context.repoRoot);
    const reader = new LedgerReader(workspace.root, workspace.ledgerPath);
    const evidenceIndex = workspaceEvidence(workspace.root);
    const writers: Writer[] = [];
    const acknowledged = new Map<string, string>();
    const evidence = new Map<string, string>();
    const refusals = new Map<string, number>();
    let writes = 0;
    let dataLost = 0;
    let captures = 0;
    let edits = 0;
    try {
      for (let index = 0; index < 2; index += 1) {
        writers.push({ name: `backend-${index}`, kind: "backend", session: await startBackendSession(workspace) });
        writers.push({ name: `mcp-${index}`, kind: "mcp", session: await startMcpSession(workspace, `reliability-concurrent-${index}`) });
        writers.push({ name: `cli-${index}`, kind: "cli", session: null });
        writers.push({ name: `hook-${index}`, kind: "hook", session: null });
      }
      // How long a spawned writer takes to reach its write here, so the long-lived ones fire into that window.
      const probeStart = Date.now();
      await runCliWrite(workspace, { name: "turnOn", params: {} }).outcome.then((outcome) => {
        if (outcome.kind === "ack") for (const id of outcome.eventIds) acknowledged.set(id, "setup");
      });
      const spawnMs = Math.max(100, Date.now() - probeStart);
      context.log(`${rounds} rounds of ${writers.length} writers; a spawned writer takes ~${spawnMs} ms`);
      const plans = seededSamples(roundArbitrary, context.seed, 201, rounds);
      for (const [round, plan] of plans.entries()) {
        const view = reader.view();
        const repro = `seed ${context.seed} round ${round} (phase ${view.phase})`;
        const planned = writers.map((writer, index) => {
          const capture = (): Operation => captureOperation(workspace.root, plan.hosts[index] ?? "claude", `toolu_concurrent_${(captures += 1)}`, plan.outputBytes);
          // Turning off rarely, so the rounds reach authorizations and landings, and race on them.
          let operation = operationFor(writer.kind, view, plan.rolls[index] ?? 0, capture, { cli: 0.08, backend: 0.03 });
          // Docket off: the MCP server tries anyway, and must be refused with a code.
          if (operation === null) operation = { name: "openJudgment", params: { routeDefinitionId: "route:meaning-settlement", question: "Is Docket on?", obligations: [{ obligationId: "obligation:race", statement: "Race." }] } };
          return { writer, operation, offset: writer.session === null ? 0 : (plan.offsets[index] ?? 0) * spawnMs };
        });
        if (planned.some(({ operation }) => operation.name === "recordLanding")) editForLanding(workspace.root, `round-${round}-${(edits += 1)}`);
        const outcomes = await Promise.all(
          planned.map(async ({ writer, operation, offset }) => {
            await sleep(offset);
            writes += 1;
            const outcome =
              writer.session !== null
                ? await writer.session.write(operation)
                : await (writer.kind === "cli" ? runCliWrite(workspace, operation) : runHookWrite(workspace, operation)).outcome;
            return { writer, operation, outcome };
          }),
        );
        for (const { writer, operation, outcome } of outcomes) {
          const what = `${repro}: ${writer.name} ${describeOperation(operation)}`;
          if (outcome.kind === "ack") {
            for (const id of outcome.eventIds) acknowledged.set(id, what);
            for (const handle of outcome.evidence) evidence.set(handle, what);
          } else if (outcome.kind === "refused") {
            refusals.set(outcome.code, (refusals.get(outcome.code) ?? 0) + 1);
            if (!RACE_REFUSALS.has(outcome.code)) failures.push(`${what} was ${describe(outcome)}, a refusal no race explains`);
          } else {
            failures.push(`${what} got ${describe(outcome)}`);
          }
        }
        const verified = verifyLedgerBytes(workspace.ledgerPath);
        if (!verified.ok) failures.push(`${repro}: ledger verify failed: line ${String(verified.firstFault?.line)} ${String(verified.firstFault?.code)}: ${String(verified.firstFault?.message)}`);
        else if (verified.tornTailBytes > 0) failures.push(`${repro}: ${verified.tornTailBytes} torn bytes at the end of the ledger with no writer killed`);
        const { missing, duplicated } = acknowledgedProblems(acknowledged, ledgerEventIds(workspace.ledgerPath));
        if (missing.length > 0) failures.push(`${repro}: acknowledged events missing: ${missing.join("; ")}`);
        if (duplicated.length > 0) failures.push(`${repro}: acknowledged events duplicated: ${duplicated.join("; ")}`);
        const lostEvidence = missingEvidence(evidenceIndex, evidence);
        if (lostEvidence.length > 0) failures.push(`${repro}: acknowledged evidence missing: ${lostEvidence.join("; ")}`);
        dataLost += missing.length + lostEvidence.length;
        for (const id of [...missing, ...lostEvidence]) {
          acknowledged.delete(id.split(" ")[0] as string);
          evidence.delete(id.split(" ")[0] as string);
        }
        const left = leftovers(workspace.docketFolder);
        if (left.locks.length + left.temporary.length + left.setAside.length > 0) {
          failures.push(`${repro}: left in .docket/ with no writer killed: ${[...left.locks, ...left.temporary, ...left.setAside].join(", ")}`);
        }
        const disagreement = checkpointDisagreement(workspace.ledgerPath, reader);
        if (disagreement !== null) failures.push(`${repro}: ${disagreement}`);
        const ignore = gitignoreProblem(workspace.docketFolder);
        if (ignore !== null) failures.push(`${repro}: ${ignore}`);
        const baseline = await cycleBaselineProblem(workspace.root, reader.current());
        if (baseline !== null) {
          failures.push(`${repro}: ${baseline.problem}`);
          await baseline.repair();
        }
        if (reader.view().phase === "blocked") {
          failures.push(`${repro}: the ledger is blocked: ${reader.current().history().blockedReason ?? ""}`);
          break;
        }
      }
      for (const writer of writers) {
        if (writer.session === null) continue;
        try {
          process.kill(writer.session.pid, 0);
        } catch {
          failures.push(`seed ${context.seed}: ${writer.name} died during the run`);
        }
      }
    } catch (error) {
      failures.push(`crashed (seed ${context.seed}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      await Promise.all(writers.map((writer) => writer.session?.stop()));
    }
    context.log(
      `${writes} concurrent writes: ${acknowledged.size} events and ${evidence.size} captures acknowledged; refusals ${JSON.stringify(Object.fromEntries([...refusals].sort()))}`,
    );
    return { trials: rounds, dataLost, failures };
  },
};
