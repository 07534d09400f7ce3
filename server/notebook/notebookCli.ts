// `docket notebook <subcommand>`: the Notebook from a terminal or a script. The subcommands are a
// table so others can join it with one line (proposals and publication live in proposalCli.ts);
// each one gets the raw arguments and the same io, and returns its exit code.
import { countOf } from "../plural";
import { UsageError, parseArgs } from "../cli/args";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { findWorkspaceRoot } from "../workspace/ledgerPaths";
import { formatDiagnostic } from "./diagnostics";
import { NotebookLanguage } from "./manifest";
import { NOTEBOOK_USAGE, NotebookExit, notebookCommandFailure, notebookFolderArgument, notebookUsageText, reportIssue, type NotebookCliIo, type NotebookSubcommandName } from "./notebookCommand";
import { notebookStatus, planNotebookSetup, setupNotebook, type NotebookSetupPlan, type NotebookStatus } from "./notebookStore";
import type { RecoveryOutcome } from "./recovery";
import { runValidate } from "./validateCli";

export { NotebookExit, notebookFolderArgument, type NotebookCliIo } from "./notebookCommand";

/**
 * Recovery and what it needs (proposals, receipts, the publication's schemas) load only when a
 * command recovers or describes a recovery (docs/performance.md).
 */
function recoveryModule(): typeof import("./recovery") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./recovery") as typeof import("./recovery");
}

function recoverCommand(root: string): string {
  return `docket notebook recover ${root}`;
}

// ---- status ----

/** Issues without their (possibly 100) diagnostics: `validate` lists those; status gives the count. */
function statusJson(status: NotebookStatus, recovery: { action: string } | null): Record<string, unknown> {
  return {
    root: status.root,
    notebookId: status.notebookId,
    language: status.language,
    health: status.health,
    records: status.records,
    types: { source: status.types.source, inquiry: status.types.inquiry, memo: status.types.memo, zettel: status.types.zettel },
    activeTransaction: status.activeTransaction,
    issues: status.issues.map((issue) => ({
      code: issue.code,
      path: issue.path,
      message: issue.message,
      ...(issue.diagnostics !== undefined ? { diagnostics: issue.diagnostics.length } : {}),
      ...(issue.code === "publication-transaction.active" && recovery !== null ? { recovery: recovery.action } : {}),
    })),
  };
}

/** The status with what recovery would do spelled out in the lock's issue; reads only. */
function statusWithRecovery(status: NotebookStatus): { status: NotebookStatus; recovery: { action: string; message: string } | null } {
  if (!status.activeTransaction) return { status, recovery: null };
  const recovery = recoveryModule().describeRecovery(status.root);
  const issues = status.issues.map((issue) => (issue.code === "publication-transaction.active" ? { ...issue, message: `${issue.message}. ${capitalize(recovery.message)}` } : issue));
  return { status: { ...status, issues }, recovery };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function runStatus(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, [], ["json"]);
  const folder = notebookFolderArgument(parsed, io, "status");
  const result = notebookStatus(folder.path);
  if (!result.ok) return reportIssue(result.issue, io);
  const { status, recovery } = statusWithRecovery(result.value);
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify(statusJson(status, recovery))}\n`);
  } else {
    const { source, inquiry, memo, zettel } = status.types;
    io.stdout(`Notebook: ${status.root}\n`);
    io.stdout(`id: ${status.notebookId}\n`);
    io.stdout(`language: ${status.language}\n`);
    io.stdout(`records: ${status.records} (source ${source}, inquiry ${inquiry}, memo ${memo}, zettel ${zettel})\n`);
    io.stdout(`health: ${status.health}\n`);
    for (const issue of status.issues) {
      const count = issue.diagnostics !== undefined ? ` — run docket notebook validate for the ${countOf(issue.diagnostics.length, "diagnostic")}` : "";
      io.stdout(`  ${issue.code}: ${issue.message}${count}\n`);
    }
    if (recovery !== null) {
      const next =
        recovery.action === "wait"
          ? "wait for it, then check again"
          : recovery.action === "blocked"
            ? `recovery cannot finish it on its own (see above); once that is resolved, run ${recoverCommand(status.root)}`
            : `run ${recoverCommand(status.root)}`;
      io.stdout(`recovery needed: no publication can start until the interrupted one is settled or rolled back; ${next}.\n`);
    }
  }
  return status.health === "healthy" ? NotebookExit.ok : NotebookExit.invalid;
}

// ---- recover ----

function outcomeJson(outcome: RecoveryOutcome): Record<string, unknown> {
  switch (outcome.status) {
    case "clean":
      return { status: outcome.status, message: "no publication was in progress; nothing to recover" };
    case "settled":
      return { status: outcome.status, message: outcome.message, proposalId: outcome.receipt.proposal_id, completed: outcome.completed, receipt: outcome.receipt };
    case "not-published":
      return { status: outcome.status, message: outcome.message, proposalId: outcome.proposalId, restored: outcome.restored };
    case "mixed":
      return { status: outcome.status, message: outcome.message, proposalId: outcome.proposalId, records: outcome.records, diagnostics: outcome.diagnostics };
    case "busy":
    case "unreadable":
      return { status: outcome.status, message: outcome.message };
  }
}

/**
 * `docket notebook recover DIR`: settles, clears, rolls back or completes an interrupted publication
 * (recovery.ts), writing a settled batch's receipt into the workspace that holds its proposal.
 * Exit 0 when the notebook is whole and unlocked afterwards, 3 when recovery is still required
 * (another process holds the lock, or someone else's bytes are in the way), 2 when it is not a
 * usable notebook folder.
 */
function runRecover(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, ["workspace"], ["json"]);
  const folder = notebookFolderArgument(parsed, io, "recover");
  let root: string;
  try {
    root = fs.realpathSync.native(folder.path);
    if (!fs.statSync(root).isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
  } catch (error) {
    return reportIssue({ code: "notebook.path-missing", path: folder.path, message: `there is no Notebook folder here (${(error as Error).message})` }, io);
  }
  const flag = parsed.flags.get("workspace");
  const workspace = typeof flag === "string" ? path.resolve(io.cwd, flag) : findWorkspaceRoot(io.cwd);
  const outcome = recoveryModule().recoverNotebook({ root, workspace: fs.existsSync(workspace) ? workspace : null, receiptId: () => `receipt-${randomUUID()}` });
  const after = notebookStatus(root);
  const health = after.ok ? after.value.health : null;
  const whole = outcome.status === "clean" || outcome.status === "settled" || outcome.status === "not-published";
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify({ ...outcomeJson(outcome), root, health })}\n`);
  } else {
    io.stdout(`Notebook: ${root}\n`);
    io.stdout(`${whole ? "recovered" : "recovery required"}: ${String(outcomeJson(outcome)["message"])}\n`);
    if (outcome.status === "mixed") for (const diagnostic of outcome.diagnostics) io.stdout(`  ${formatDiagnostic(diagnostic)}\n`);
    if (outcome.status === "settled") io.stdout(`receipt ${outcome.receipt.receipt_id} for ${outcome.receipt.proposal_id} (${countOf(outcome.receipt.records.length, "record")})\n`);
    if (outcome.status === "not-published" && outcome.proposalId !== null) io.stdout(`${outcome.proposalId} was not published; it can be published again.\n`);
    io.stdout(`health: ${health ?? (after.ok ? "" : `${after.issue.code}: ${after.issue.message}`)}\n`);
  }
  if (!whole) {
    io.stderr(`docket: ${outcome.status === "busy" ? "publication-transaction.active" : outcome.status === "mixed" ? "publication-transaction.mixed" : "publication-transaction.recovery"}: ${String(outcomeJson(outcome)["message"])}\n`);
    return NotebookExit.recoveryRequired;
  }
  return NotebookExit.ok;
}

// ---- setup ----

async function defaultConfirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^(y|yes)$/iu.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

function planWithLanguage(root: string, requested: NotebookLanguage | undefined): ReturnType<typeof planNotebookSetup> {
  if (requested !== undefined) return planNotebookSetup(root, requested);
  // No --language: an existing Notebook keeps its own; a new one is English.
  const english = planNotebookSetup(root, "en");
  return !english.ok && english.issue.code === "notebook.language-conflict" ? planNotebookSetup(root, "ko") : english;
}

function describePlan(plan: NotebookSetupPlan): string {
  return plan.create.map((entry) => (entry === "." ? "the folder itself" : entry.endsWith(".json") ? entry : `${entry}/`)).join(", ");
}

async function runSetup(args: readonly string[], io: NotebookCliIo): Promise<number> {
  const parsed = parseArgs(args, ["language"], ["yes"]);
  const folder = notebookFolderArgument(parsed, io, "setup");
  const languageFlag = parsed.flags.get("language");
  let language: NotebookLanguage | undefined;
  if (languageFlag !== undefined) {
    const checked = NotebookLanguage.safeParse(languageFlag);
    if (!checked.success) throw new UsageError("--language must be en or ko");
    language = checked.data;
  }
  const planned = planWithLanguage(folder.path, language);
  if (!planned.ok) return reportIssue(planned.issue, io);
  const plan = planned.value;
  // The absolute path comes first, before anything is written, so a mistyped folder is caught.
  io.stdout(`Notebook folder: ${plan.root} (${folder.kind})\n`);
  if (plan.create.length === 0 && plan.existingManifest !== null) {
    io.stdout(`Already a Notebook (${plan.existingManifest.notebook_id}, language ${plan.existingManifest.default_language}); nothing to create.\n`);
    return NotebookExit.ok;
  }
  io.stdout(`Will create: ${describePlan(plan)} (language ${plan.language}). Existing files are never rewritten.\n`);
  if (!parsed.flags.has("yes")) {
    const interactive = io.interactive ?? (process.stdin.isTTY === true && process.stdout.isTTY === true);
    if (!interactive) {
      io.stderr(`docket: notebook.confirmation-required: setup writes to ${plan.root}; nobody is here to confirm, so re-run with --yes to create it\n`);
      return NotebookExit.unusable;
    }
    if (!(await (io.confirm ?? defaultConfirm)(`Create a Notebook at ${plan.root}?`))) {
      io.stderr("docket: notebook.setup-declined: nothing was written\n");
      return NotebookExit.unusable;
    }
  }
  const done = setupNotebook(plan.root, plan.language);
  if (!done.ok) return reportIssue(done.issue, io);
  const { notebook, created } = done.value;
  io.stdout(
    created.length === 0
      ? `Already a Notebook (${notebook.manifest.notebook_id}); nothing was created.\n`
      : `Created Notebook ${notebook.manifest.notebook_id} (language ${notebook.manifest.default_language}) at ${notebook.root}\n`,
  );
  return NotebookExit.ok;
}

// ---- dispatch ----

export interface NotebookSubcommand {
  /** One help line: the arguments after `docket notebook`. */
  readonly usage: string;
  readonly run: (args: readonly string[], io: NotebookCliIo) => number | Promise<number>;
}

/** Keeps a subcommand's module unloaded until it is used. */
export function lazySubcommand(usage: string, load: () => NotebookSubcommand["run"]): NotebookSubcommand {
  return { usage, run: (args, io) => load()(args, io) };
}

/** Every subcommand, with its help line from NOTEBOOK_USAGE (shared with validate's own bundle). */
export const NOTEBOOK_SUBCOMMANDS: Readonly<Record<NotebookSubcommandName, NotebookSubcommand>> = {
  validate: { usage: NOTEBOOK_USAGE.validate, run: runValidate },
  status: { usage: NOTEBOOK_USAGE.status, run: runStatus },
  recover: { usage: NOTEBOOK_USAGE.recover, run: runRecover },
  setup: { usage: NOTEBOOK_USAGE.setup, run: runSetup },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  propose: lazySubcommand(NOTEBOOK_USAGE.propose, () => (require("./proposalCli") as typeof import("./proposalCli")).runPropose),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  proposals: lazySubcommand(NOTEBOOK_USAGE.proposals, () => (require("./proposalReviewCli") as typeof import("./proposalReviewCli")).runProposals),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  show: lazySubcommand(NOTEBOOK_USAGE.show, () => (require("./proposalReviewCli") as typeof import("./proposalReviewCli")).runShow),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  publish: lazySubcommand(NOTEBOOK_USAGE.publish, () => (require("./proposalCli") as typeof import("./proposalCli")).runPublish),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  discard: lazySubcommand(NOTEBOOK_USAGE.discard, () => (require("./proposalReviewCli") as typeof import("./proposalReviewCli")).runDiscard),
};

/** Runs `docket notebook …`; usage errors and coded refusals print `docket: CODE: message` on stderr and exit 2. */
export async function dispatchNotebookCommand(args: readonly string[], io: NotebookCliIo): Promise<number> {
  const [name, ...rest] = args;
  try {
    if (name === undefined || name === "--help" || name === "-h") {
      (name === undefined ? io.stderr : io.stdout)(`Usage:\n${notebookUsageText()}See docs/notebook.md.\n`);
      return name === undefined ? NotebookExit.unusable : NotebookExit.ok;
    }
    const subcommand = Object.hasOwn(NOTEBOOK_SUBCOMMANDS, name) ? NOTEBOOK_SUBCOMMANDS[name as NotebookSubcommandName] : undefined;
    if (subcommand === undefined) throw new UsageError(`unknown notebook subcommand ${name}; one of ${Object.keys(NOTEBOOK_SUBCOMMANDS).join(", ")}`);
    return await subcommand.run(rest, io);
  } catch (error) {
    return notebookCommandFailure(error, io);
  }
}
