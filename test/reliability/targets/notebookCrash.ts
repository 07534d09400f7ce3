// The Notebook publisher killed at every step (issue 12, finding 4). A batch of creates and updates
// is published by the real CLI (`docket notebook publish`) with DOCKET_NOTEBOOK_KILL_AT=publish:N,
// so the publisher SIGKILLs itself before its N-th disk change, for N = 1, 2, … until it completes.
// After every kill, as a user would: `docket notebook recover`, then the notebook must be exactly
// its old state or exactly its new state (every record's bytes), with no temporary file or lock
// left, `validate` and `status` must agree (healthy), and a following publication must succeed (the
// same proposal if the notebook is old, a new one either way). The recovery itself is then killed
// at every one of its steps (`recover:N`) and finished by the next recovery.
//
// CI mode: every step of an 8-record batch and of its recovery, plus a seeded sample of the steps of
// a 200-record batch (its first and last steps and the phase boundaries always included). `--long`:
// every step of the 200-record batch and of its recovery. trials = publisher or recovery runs,
// faults = kills injected, dataLost = final states that are neither old nor new.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { countingSteps, KILL_AT_VARIABLE, type CrashPhase } from "../../../server/notebook/crashSeam";
import { openNotebook, readNotebook, setupNotebook } from "../../../server/notebook/notebookStore";
import { notebookView, prepareProposal } from "../../../server/notebook/preflight";
import { OBSERVER_SAVE_SCHEMA, type PreparedRecord } from "../../../server/notebook/proposal";
import { readReceipt, writeProposal } from "../../../server/notebook/proposalStore";
import { publishProposal } from "../../../server/notebook/publication";
import { recoverNotebook } from "../../../server/notebook/recovery";
import { sha256Hex } from "../../../server/ledger/canonicalJson";
import { sourceMarkdown } from "../../support/notebookRecords";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";

interface Scenario {
  readonly name: string;
  readonly workspace: string;
  readonly root: string;
  /** The workspace (notebook and stored proposal) before the publication, restored before each trial. */
  readonly pristine: string;
  readonly proposalId: string;
  readonly old: ReadonlyMap<string, Buffer>;
  readonly next: ReadonlyMap<string, Buffer>;
}

interface Run {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function recordId(index: number, salt = 0): string {
  return `source-00000000-0000-4000-8${salt.toString(16).padStart(3, "0")}-${(index + 1).toString(16).padStart(12, "0")}`;
}

let proposalCounter = 0;
function nextProposalId(): string {
  proposalCounter += 1;
  return `proposal-00000000-0000-4000-9000-${proposalCounter.toString(16).padStart(12, "0")}`;
}

function readRecords(root: string): Map<string, Buffer> {
  const records = new Map<string, Buffer>();
  for (const name of fs.readdirSync(path.join(root, "records")).sort()) records.set(name, fs.readFileSync(path.join(root, "records", name)));
  return records;
}

function sameRecords(left: ReadonlyMap<string, Buffer>, right: ReadonlyMap<string, Buffer>): boolean {
  if (left.size !== right.size) return false;
  for (const [name, bytes] of left) {
    const other = right.get(name);
    if (other === undefined || !other.equals(bytes)) return false;
  }
  return true;
}

/** Stores a proposal checked against the notebook as it is now, as `docket notebook propose` does. */
function propose(workspace: string, root: string, records: readonly PreparedRecord[]): string {
  const opened = openNotebook(root);
  if (!opened.ok) throw new Error(`the notebook does not open: ${opened.issue.code}: ${opened.issue.message}`);
  const proposalId = nextProposalId();
  const made = prepareProposal(
    { observer_save: OBSERVER_SAVE_SCHEMA, proposal_id: proposalId, notebook_id: opened.value.manifest.notebook_id, root: opened.value.root, episode_language: "en", records: [...records] },
    notebookView(opened.value),
  );
  if (!made.ok) throw new Error(`preflight refused the batch: ${made.issue.reason}: ${made.issue.message}`);
  writeProposal(workspace, made.proposal);
  return proposalId;
}

/**
 * A notebook with `size / 2` source records, and a proposal updating each of them and creating as
 * many new ones (ids interleave, so plan order alternates creates and updates).
 */
function buildScenario(base: string, size: number): Scenario {
  const name = `${size}-record batch`;
  const directory = path.join(base, `batch-${size}`);
  const workspace = path.join(directory, "workspace");
  fs.mkdirSync(workspace, { recursive: true });
  const setup = setupNotebook(path.join(workspace, "notebook"), "en");
  if (!setup.ok) throw new Error(`setup failed: ${setup.issue.message}`);
  const root = setup.value.notebook.root;
  const batch: PreparedRecord[] = [];
  const finalFiles = new Map<string, string>();
  for (let index = 0; index < size; index += 1) {
    const id = recordId(index);
    if (index % 2 === 0) {
      const current = sourceMarkdown(id, `Reading ${index}`, `The first reading of item ${index}.`);
      const revised = sourceMarkdown(id, `Reading ${index}`, `The second reading of item ${index}, revised.`);
      fs.writeFileSync(path.join(root, "records", `reading-${index}.md`), current);
      batch.push({ operation: "update", record_id: id, expected_sha256: sha256Hex(current), markdown: revised });
      finalFiles.set(`reading-${index}.md`, revised);
    } else {
      const created = sourceMarkdown(id, `Observation ${index}`, `Observed while reading item ${index - 1}.`);
      batch.push({ operation: "create", record_id: id, markdown: created });
      finalFiles.set(`${id}.md`, created);
    }
  }
  const old = readRecords(root);
  const proposalId = propose(workspace, root, batch);
  const next = new Map(old);
  for (const [name, text] of finalFiles) next.set(name, Buffer.from(text, "utf8"));
  const pristine = path.join(directory, "pristine");
  fs.cpSync(workspace, pristine, { recursive: true });
  return { name, workspace, root, pristine, proposalId, old, next };
}

function restore(scenario: Scenario, from = scenario.pristine): void {
  fs.rmSync(scenario.workspace, { recursive: true, force: true });
  fs.cpSync(from, scenario.workspace, { recursive: true });
}

function docket(context: ReliabilityContext, args: readonly string[], killAt: string | null): Run {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  delete environment[KILL_AT_VARIABLE];
  if (killAt !== null) environment[KILL_AT_VARIABLE] = killAt;
  const result = spawnSync(process.execPath, [path.join(context.repoRoot, "dist", "docket.js"), "notebook", ...args], { encoding: "utf8", env: environment, timeout: 120_000 });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** The step the seam named when it killed the process, for the failure message. */
function killedAt(run: Run): string {
  const match = /killed before (?:publish|recover) step \d+ \((.*)\)/u.exec(run.stderr);
  return match === null ? "" : ` (${match[1]})`;
}

class Checker {
  readonly tally: Required<Omit<TargetTally, "failures">> & { failures: string[] } = { trials: 0, faults: 0, inputs: 0, gateAttempts: 0, secrets: 0, dataLost: 0, failures: [] };
  private followUps = 0;

  constructor(
    private readonly context: ReliabilityContext,
    /** Run `docket notebook validate` as a child process after this many trials (the in-process check runs every time). */
    private readonly validateEvery: number,
  ) {}

  fail(message: string): void {
    this.tally.failures.push(`${message} (reproduce: node out/test/reliability/run.js --only notebookCrash --seed ${this.context.seed}${this.context.long ? " --long" : ""})`);
  }

  /** One killed (or completed) run of the publisher or of recovery; then recover as a user would and check. */
  trial(scenario: Scenario, phase: CrashPhase, step: number, prefix: string): void {
    const args = phase === "publish" ? ["publish", scenario.proposalId, "--yes", "--workspace", scenario.workspace, "--json"] : ["recover", scenario.root, "--workspace", scenario.workspace, "--json"];
    const run = docket(this.context, args, `${phase}:${step}`);
    const where = `${scenario.name}, ${prefix}${KILL_AT_VARIABLE}=${phase}:${step}${killedAt(run)}`;
    this.tally.trials += 1;
    if (run.signal === "SIGKILL") this.tally.faults += 1;
    else if (run.status !== 0) return this.fail(`${where}: the ${phase === "publish" ? "publisher" : "recovery"} exited ${String(run.status)} without being killed: ${run.stderr.trim() || run.stdout.trim()}`);
    this.recoverAndCheck(scenario, where);
  }

  private recoverAndCheck(scenario: Scenario, where: string): void {
    const recovered = docket(this.context, ["recover", scenario.root, "--workspace", scenario.workspace, "--json"], null);
    if (recovered.status !== 0) return this.fail(`${where}: docket notebook recover exited ${String(recovered.status)}: ${recovered.stdout.trim()} ${recovered.stderr.trim()}`);
    let report: { status?: string; health?: string };
    try {
      report = JSON.parse(recovered.stdout) as { status?: string; health?: string };
    } catch {
      return this.fail(`${where}: docket notebook recover printed no JSON: ${recovered.stdout}`);
    }
    const records = readRecords(scenario.root);
    const state = sameRecords(records, scenario.old) ? "old" : sameRecords(records, scenario.next) ? "new" : null;
    if (state === null) {
      this.tally.dataLost += 1;
      const names = [...new Set([...records.keys(), ...scenario.old.keys(), ...scenario.next.keys()])];
      const differing = names.filter((name) => !(records.get(name)?.equals(scenario.old.get(name) ?? Buffer.alloc(0)) ?? false) && !(records.get(name)?.equals(scenario.next.get(name) ?? Buffer.alloc(0)) ?? false));
      return this.fail(`${where}: after recovery (${String(report.status)}) the notebook is neither its old nor its new state: ${differing.slice(0, 5).join(", ")}${differing.length > 5 ? ", …" : ""}`);
    }
    const observer = fs.readdirSync(path.join(scenario.root, ".observer")).sort();
    const transactions = fs.existsSync(path.join(scenario.root, ".observer", "transactions")) ? fs.readdirSync(path.join(scenario.root, ".observer", "transactions")) : [];
    if (observer.some((name) => name !== "notebook.json" && name !== "transactions") || transactions.length > 0) {
      return this.fail(`${where}: recovery left files behind: .observer/ holds ${observer.join(", ")}; .observer/transactions/ holds ${transactions.join(", ") || "nothing"}`);
    }
    if (report.health !== "healthy") return this.fail(`${where}: status after recovery says ${String(report.health)}, not healthy`);
    const validated = readNotebook(scenario.root);
    if (!validated.ok || !validated.value.validation.valid || validated.value.activeTransaction) return this.fail(`${where}: validate disagrees after recovery: ${JSON.stringify(validated.ok ? validated.value.validation.diagnostics.slice(0, 3) : validated.issue)}`);
    if (this.tally.trials % this.validateEvery === 0) {
      const cli = docket(this.context, ["validate", scenario.root, "--json"], null);
      if (cli.status !== 0 || !cli.stdout.startsWith('{"valid":true')) return this.fail(`${where}: docket notebook validate exited ${String(cli.status)}: ${cli.stdout.trim()} ${cli.stderr.trim()}`);
    }
    this.followingPublications(scenario, where, state);
  }

  /** Old: the same proposal publishes now. New: it is settled (or settles without republishing), and a new proposal publishes. */
  private followingPublications(scenario: Scenario, where: string, state: "old" | "new"): void {
    const again = publishProposal({ workspace: scenario.workspace, proposalId: scenario.proposalId, approved: true });
    if (state === "old" && !(again.ok && again.settled === "published")) return this.fail(`${where}: the notebook was restored, but publishing the proposal again failed: ${JSON.stringify(again)}`);
    if (state === "new" && !again.ok && !(again.issue.code === "save.lifecycle" && readReceipt(scenario.workspace, scenario.proposalId) !== null)) {
      return this.fail(`${where}: the notebook was published, but the proposal neither was settled nor settles now: ${JSON.stringify(again)}`);
    }
    if (!sameRecords(readRecords(scenario.root), scenario.next)) return this.fail(`${where}: after the following publication the notebook is not the new state`);
    // When the notebook came back old, publishing the proposal again was the following publication.
    if (state === "old") return;
    this.followUps += 1;
    const id = recordId(this.followUps, 1);
    try {
      const followUp = propose(scenario.workspace, scenario.root, [{ operation: "create", record_id: id, markdown: sourceMarkdown(id, "Follow-up", "Published after the recovery.") }]);
      const published = publishProposal({ workspace: scenario.workspace, proposalId: followUp, approved: true });
      if (!published.ok) this.fail(`${where}: a new publication after the recovery failed: ${published.issue.code}: ${published.issue.message}`);
    } catch (error) {
      this.fail(`${where}: a new proposal after the recovery failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Where the publication changes phase: owner file, journal, publishing, lock removal, receipt. */
const PHASES: readonly RegExp[] = [/docket-owner/u, /transaction\.json/u, /^(link|rename) .*\/staged\/.* -> records\//u, /docket-removed/u, /receipt/u];

/** The steps always tried in CI: the first two, the last, completion, and the first and last step of each phase. */
function boundarySteps(labels: readonly string[]): number[] {
  const chosen = new Set<number>([1, 2, labels.length, labels.length + 1]);
  for (const phase of PHASES) {
    const steps = labels.flatMap((label, index) => (phase.test(label) ? [index + 1] : []));
    const first = steps[0];
    const last = steps[steps.length - 1];
    if (first !== undefined) chosen.add(first);
    if (last !== undefined) chosen.add(last);
  }
  return [...chosen].filter((step) => step >= 1 && step <= labels.length + 1).sort((left, right) => left - right);
}

function sample(steps: readonly number[], count: number, seed: number): number[] {
  if (steps.length <= count) return [...steps];
  const [picked] = fc.sample(fc.shuffledSubarray([...steps], { minLength: count, maxLength: count }), { seed, numRuns: 1 });
  return [...(picked ?? [])].sort((left, right) => left - right);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

/** The disk changes of one full publication or recovery of the current state, run in this process (which changes the state). */
function stepLabels(scenario: Scenario, phase: CrashPhase): string[] {
  const labels: string[] = [];
  const steps = countingSteps(phase, (_index, label) => labels.push(label));
  if (phase === "publish") {
    const result = publishProposal({ workspace: scenario.workspace, proposalId: scenario.proposalId, approved: true, steps });
    if (!result.ok) throw new Error(`${scenario.name}: the publication to list its steps failed: ${result.issue.code}: ${result.issue.message}`);
  } else {
    const outcome = recoverNotebook({ root: scenario.root, workspace: scenario.workspace, receiptId: () => "receipt-00000000-0000-4000-8000-000000000000", steps });
    if (outcome.status === "busy" || outcome.status === "mixed" || outcome.status === "unreadable") throw new Error(`${scenario.name}: the recovery to list its steps ended ${outcome.status}`);
  }
  return labels;
}

/** Kills the publisher at `publishStep`, keeps that crashed workspace, and kills recovery of it at each of `steps` (all when null). */
function recoveryKills(checker: Checker, scenario: Scenario, publishStep: number, steps: ((total: number) => number[]) | null, context: ReliabilityContext): void {
  restore(scenario);
  const crash = docket(context, ["publish", scenario.proposalId, "--yes", "--workspace", scenario.workspace, "--json"], `publish:${publishStep}`);
  if (crash.signal !== "SIGKILL") return checker.fail(`${scenario.name}: the publisher was not killed at publish step ${publishStep} (exit ${String(crash.status)})`);
  const crashed = path.join(path.dirname(scenario.pristine), `crashed-${publishStep}`);
  fs.rmSync(crashed, { recursive: true, force: true });
  fs.cpSync(scenario.workspace, crashed, { recursive: true });
  const total = stepLabels(scenario, "recover").length;
  const chosen = steps === null ? range(1, total + 1) : steps(total);
  context.log(`${scenario.name}: recovery of a crash at publish step ${publishStep} has ${total} steps; killing it at ${chosen.length} of them`);
  for (const step of chosen) {
    restore(scenario, crashed);
    checker.trial(scenario, "recover", step, `publisher killed at ${KILL_AT_VARIABLE}=publish:${publishStep}, then `);
  }
  fs.rmSync(crashed, { recursive: true, force: true });
}

function firstStep(labels: readonly string[], pattern: RegExp): number {
  const index = labels.findIndex((label) => pattern.test(label));
  return index < 0 ? 1 : index + 1;
}

interface Plan {
  readonly size: number;
  /** Publisher steps to kill: all of them, or the phase boundaries plus this many seeded others. */
  readonly publishSample: number | "all";
  /** Recovery steps to kill after a mid-publish crash: all, or this many seeded ones (a settling recovery is always killed at every step). */
  readonly recoverySample: number | "all";
}

// CI (measured on the 2-core development machine shared with other builds): the 8-record batch
// whole, the 200-record batch sampled. --long: every step of both.
const CI_PLANS: readonly Plan[] = [
  { size: 8, publishSample: "all", recoverySample: "all" },
  { size: 200, publishSample: 4, recoverySample: 4 },
];
const LONG_PLANS: readonly Plan[] = [
  { size: 8, publishSample: "all", recoverySample: "all" },
  { size: 200, publishSample: "all", recoverySample: "all" },
];

async function run(context: ReliabilityContext): Promise<TargetTally> {
  const base = fs.realpathSync(context.tmp);
  const checker = new Checker(context, context.long ? 1 : 10);
  for (const plan of context.long ? LONG_PLANS : CI_PLANS) {
    const started = Date.now();
    const trialsBefore = checker.tally.trials;
    const scenario = buildScenario(base, plan.size);
    restore(scenario);
    const labels = stepLabels(scenario, "publish");
    restore(scenario);
    const every = range(1, labels.length + 1);
    const steps = plan.publishSample === "all" ? every : [...new Set([...boundarySteps(labels), ...sample(every, plan.publishSample, context.seed)])].sort((left, right) => left - right);
    context.log(`${scenario.name}: the publication has ${labels.length} steps; killing it at ${steps.length === every.length ? "every one (and once after the last)" : `${steps.length} of them (phase boundaries and a seeded sample)`}`);
    for (const step of steps) {
      restore(scenario);
      checker.trial(scenario, "publish", step, "");
    }
    // Recovery killed at its own steps: of a crash halfway through publishing (it rolls back) and of a
    // crash after the last record was published (it settles).
    const afterPublish = firstStep(labels, /^rename \.observer\/transactions\/active -> /u);
    const midPublish = Math.floor((firstStep(labels, /^(link|rename) .*\/staged\/.* -> records\//u) + afterPublish) / 2);
    const recoverySample = plan.recoverySample;
    recoveryKills(checker, scenario, midPublish, recoverySample === "all" ? null : (total) => sample(range(1, total + 1), recoverySample, context.seed + midPublish), context);
    recoveryKills(checker, scenario, afterPublish, null, context);
    context.log(`${scenario.name}: ${checker.tally.trials - trialsBefore} runs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return checker.tally;
}

export const target: ReliabilityTarget = {
  name: "notebookCrash",
  description: "kill the Notebook publisher (and its recovery) at every step of a batch; recovery always ends in the exact old or new notebook",
  run,
};
