// `docket notebook validate`, in a bundle of its own (dist/docket-cli-validate.js,
// scripts/build.mjs): the command people and scripts run most over a large Notebook starts with
// only what reading, the validation cache and Phase A's common path need. yaml and ajv (for the
// records the plain reader or the schema pre-check are unsure of), zod (for a manifest that is
// not certainly sound) and recovery (while a publication lock is present) load only when met,
// from sibling bundles (docs/performance.md, "Notebook validation cache").
import { countOf, agree } from "../plural";
import { parseArgs, UsageError, type ParsedArgs } from "../cli/args";
import fs from "node:fs";
import path from "node:path";
import { findWorkspaceRoot } from "../workspace/ledgerPaths";
import { formatDiagnostic, notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import { ACTIVE_TRANSACTION_PATH } from "./manifestFormat";
import { NotebookExit, notebookCommandFailure, notebookFolderArgument, reportIssue, type NotebookCliIo } from "./notebookCommand";
import { validateNotebookCached } from "./notebookValidation";
import { validationCacheLocation, type ValidationCacheLocation } from "./validationCache";

function recoverCommand(root: string): string {
  return `docket notebook recover ${root}`;
}

/**
 * What `validate` says first while a publication lock is present: the notebook may be half
 * published, so it is never called valid, and the leftovers a crash put in records/ are named.
 */
function recoveryDiagnostics(root: string, leftovers: readonly string[]): NotebookDiagnostic[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const recovery = (require("./recovery") as typeof import("./recovery")).describeRecovery(root);
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

export function runValidate(args: readonly string[], io: NotebookCliIo): number {
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

/** `docket notebook validate …` as the dispatcher runs it: errors reported as every notebook subcommand reports them. */
export function runValidateCommand(args: readonly string[], io: NotebookCliIo): number {
  try {
    return runValidate(args, io);
  } catch (error) {
    return notebookCommandFailure(error, io);
  }
}
