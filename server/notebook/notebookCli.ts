// `docket notebook <subcommand>`: the Notebook from a terminal or a script. The subcommands are a
// table so others can join it with one line (proposals and publication live in proposalCli.ts);
// each one gets the raw arguments and the same io, and returns its exit code.
import { countOf, agree } from "../plural";
import { UsageError, parseArgs, type ParsedArgs } from "../cli/args";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { UnsafePathError } from "../workspace/containedFs";
import { findWorkspaceRoot } from "../workspace/ledgerPaths";
import { formatDiagnostic, notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import { ACTIVE_TRANSACTION_PATH, NotebookLanguage, type NotebookIssue } from "./manifest";
import { describeNotebookPathKind, resolveNotebookPath } from "./notebookPath";
import { notebookStatus, planNotebookSetup, setupNotebook, type NotebookSetupPlan, type NotebookStatus } from "./notebookStore";
import { validateNotebookCached } from "./notebookValidation";
import type { RecoveryOutcome } from "./recovery";
import { validationCacheLocation, type ValidationCacheLocation } from "./validationCache";

/**
 * Recovery and what it needs (proposals, receipts, the publication's schemas) load only when a
 * command recovers or describes a recovery, so `validate` starts without them (docs/performance.md).
 */
function recoveryModule(): typeof import("./recovery") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./recovery") as typeof import("./recovery");
}

export interface NotebookCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** Defaults to os.homedir(); `~` and `~/…` expand against it. */
  readonly home?: string;
  /** Whether a person can answer a question; defaults to stdin and stdout both being terminals. */
  readonly interactive?: boolean;
  /** Asks a yes/no question; defaults to a readline prompt on the terminal. */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** Whether diffs may be colored; defaults to stdout being a terminal and NO_COLOR unset. */
  readonly color?: boolean;
}

/**
 * 0 valid / done; 1 the Notebook answered but is invalid or unhealthy; 2 usage error, refusal or not
 * a usable Notebook; 3 a publication was interrupted and recovery is required (validate, recover).
 */
export const NotebookExit = { ok: 0, invalid: 1, unusable: 2, recoveryRequired: 3 } as const;

/** The one folder argument, read with the Notebook path rules (observer.md §5.1). */
export function notebookFolderArgument(parsed: ParsedArgs, io: NotebookCliIo, subcommand: string): { readonly path: string; readonly kind: string } {
  if (parsed.positionals.length !== 1) throw new UsageError(`notebook ${subcommand} needs exactly one Notebook folder`);
  const resolved = resolveNotebookPath(parsed.positionals[0] as string, io.cwd, io.home ?? os.homedir());
  if (!resolved.ok) throw new UsageError(resolved.message, resolved.code);
  return { path: resolved.path, kind: describeNotebookPathKind(resolved.kind) };
}

function reportIssue(issue: NotebookIssue, io: NotebookCliIo): number {
  io.stderr(`docket: ${issue.code}: ${issue.message} (${issue.path})\n`);
  return NotebookExit.unusable;
}

// ---- validate ----

function recoverCommand(root: string): string {
  return `docket notebook recover ${root}`;
}

/**
 * What `validate` says first while a publication lock is present: the notebook may be half
 * published, so it is never called valid, and the leftovers a crash put in records/ are named.
 */
function recoveryDiagnostics(root: string, leftovers: readonly string[]): NotebookDiagnostic[] {
  const recovery = recoveryModule().describeRecovery(root);
  return [
    notebookDiagnostic({
      phase: "record",
      code: "publication-transaction.active",
      path: ACTIVE_TRANSACTION_PATH,
      message: `recovery required: ${recovery.message}; run ${recoverCommand(root)}`,
    }),
    ...leftovers.map((name) =>
      notebookDiagnostic({ phase: "record", code: "publication-transaction.leftover", path: `records/${name}`, message: "a temporary file of the interrupted publication; recovery removes it" }),
    ),
  ];
}

/**
 * Where validate keeps its Phase A cache: the workspace named by `--workspace`, else the Git work
 * tree around the current folder; none outside a workspace or with `--no-cache`. The Notebook
 * itself holds nothing of Docket's (docs/notebook.md), so the cache lives with Docket's other state.
 */
function validateCacheLocation(parsed: ParsedArgs, io: NotebookCliIo, notebookRoot: string): ValidationCacheLocation | null {
  if (parsed.flags.has("no-cache")) return null;
  const flag = parsed.flags.get("workspace");
  let workspace: string;
  if (typeof flag === "string") {
    workspace = path.resolve(io.cwd, flag);
    let isFolder = false;
    try {
      isFolder = fs.statSync(workspace).isDirectory();
    } catch {
      isFolder = false;
    }
    if (!isFolder) throw new UsageError(`--workspace ${flag} is not a folder`);
  } else {
    workspace = findWorkspaceRoot(io.cwd);
    if (!fs.existsSync(path.join(workspace, ".git"))) return null;
  }
  try {
    return validationCacheLocation(fs.realpathSync.native(workspace), notebookRoot);
  } catch {
    return null;
  }
}

function runValidate(args: readonly string[], io: NotebookCliIo): number {
  const parsed = parseArgs(args, ["workspace"], ["json", "no-cache"]);
  const folder = notebookFolderArgument(parsed, io, "validate");
  let notebookRoot: string;
  try {
    notebookRoot = fs.realpathSync.native(folder.path);
  } catch {
    // The reader reports a missing folder with its own code; without a root there is no cache to name.
    notebookRoot = folder.path;
  }
  const read = validateNotebookCached(folder.path, validateCacheLocation(parsed, io, notebookRoot));
  if (!read.ok) return reportIssue(read.issue, io);
  const { validation } = read.value;
  const { activeTransaction, leftovers } = read.value.notebook;
  const diagnostics = [...(activeTransaction ? recoveryDiagnostics(read.value.notebook.root, leftovers) : []), ...validation.diagnostics.map(notebookDiagnostic)].slice(0, 100);
  const valid = validation.valid && !activeTransaction;
  if (parsed.flags.has("json")) {
    const report = { valid, graphEvaluated: validation.graphEvaluated, records: validation.records, diagnostics };
    io.stdout(`${JSON.stringify(report)}\n`);
  } else {
    io.stdout(`Notebook ${read.value.notebook.root} (${read.value.notebook.manifest.notebook_id}, ${read.value.notebook.manifest.default_language})\n`);
    const graph = validation.graphEvaluated ? "whole graph checked" : "graph not checked: a record failed its own checks first";
    if (valid) {
      io.stdout(`valid: ${countOf(validation.records, "record")}, whole graph checked\n`);
    } else if (activeTransaction) {
      io.stdout(`recovery required: a publication was interrupted, so ${agree(validation.records, "this", "these")} ${countOf(validation.records, "record file")} may be half published (${graph})\n`);
    } else {
      io.stdout(`invalid: ${countOf(validation.diagnostics.length, "diagnostic")}, ${countOf(read.value.notebook.files.length, "record file")}, ${graph}\n`);
    }
    for (const diagnostic of diagnostics) io.stdout(`  ${formatDiagnostic(diagnostic)}\n`);
  }
  if (activeTransaction) return NotebookExit.recoveryRequired;
  return valid ? NotebookExit.ok : NotebookExit.invalid;
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

export const NOTEBOOK_SUBCOMMANDS: Readonly<Record<string, NotebookSubcommand>> = {
  validate: { usage: "validate DIR [--workspace DIR] [--no-cache] [--json]", run: runValidate },
  status: { usage: "status DIR [--json]", run: runStatus },
  recover: { usage: "recover DIR [--workspace DIR] [--json]", run: runRecover },
  setup: { usage: "setup DIR [--language en|ko] [--yes]", run: runSetup },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  propose: lazySubcommand("propose FILE.json [--notebook DIR] [--workspace DIR] [--json]", () => (require("./proposalCli") as typeof import("./proposalCli")).runPropose),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  proposals: lazySubcommand("proposals [--workspace DIR] [--json]", () => (require("./proposalReviewCli") as typeof import("./proposalReviewCli")).runProposals),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  show: lazySubcommand("show PROPOSAL_ID [--workspace DIR] [--json]", () => (require("./proposalReviewCli") as typeof import("./proposalReviewCli")).runShow),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  publish: lazySubcommand("publish PROPOSAL_ID --yes [--sha256 DIGEST] [--workspace DIR] [--json]", () => (require("./proposalCli") as typeof import("./proposalCli")).runPublish),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  discard: lazySubcommand("discard PROPOSAL_ID [--workspace DIR]", () => (require("./proposalReviewCli") as typeof import("./proposalReviewCli")).runDiscard),
};

function usageText(): string {
  return Object.values(NOTEBOOK_SUBCOMMANDS)
    .map((subcommand) => `  docket notebook ${subcommand.usage}\n`)
    .join("");
}

/** Runs `docket notebook …`; usage errors and coded refusals print `docket: CODE: message` on stderr and exit 2. */
export async function dispatchNotebookCommand(args: readonly string[], io: NotebookCliIo): Promise<number> {
  const [name, ...rest] = args;
  try {
    if (name === undefined || name === "--help" || name === "-h") {
      (name === undefined ? io.stderr : io.stdout)(`Usage:\n${usageText()}See docs/notebook.md.\n`);
      return name === undefined ? NotebookExit.unusable : NotebookExit.ok;
    }
    const subcommand = Object.hasOwn(NOTEBOOK_SUBCOMMANDS, name) ? NOTEBOOK_SUBCOMMANDS[name] : undefined;
    if (subcommand === undefined) throw new UsageError(`unknown notebook subcommand ${name}; one of ${Object.keys(NOTEBOOK_SUBCOMMANDS).join(", ")}`);
    return await subcommand.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`docket: ${error.code}: ${error.message}\nUsage:\n${usageText()}`);
      return NotebookExit.unusable;
    }
    if (error instanceof UnsafePathError) {
      io.stderr(`docket: docket.unsafe-path: ${error.message}\n`);
      return NotebookExit.unusable;
    }
    io.stderr(`docket: docket.internal: ${error instanceof Error ? error.message : String(error)}\n`);
    return NotebookExit.unusable;
  }
}
