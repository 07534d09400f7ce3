// What every `docket notebook` subcommand shares, kept apart from notebookCli.ts so that
// `docket notebook validate`, which runs from a bundle of its own (validateCli.ts,
// docs/performance.md "Notebook validation cache"), prints its usage and its errors exactly as the
// other subcommands do without loading them.
import os from "node:os";
import { UsageError, type ParsedArgs } from "../cli/args";
import { UnsafePathError } from "../workspace/containedFs";
import type { NotebookIssue } from "./manifestFormat";
import { describeNotebookPathKind, resolveNotebookPath } from "./notebookPath";

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

/**
 * One help line per subcommand (the arguments after `docket notebook`), in the order help lists
 * them. notebookCli.ts's table must have exactly these keys (its type says so).
 */
export const NOTEBOOK_USAGE = {
  validate: "validate DIR [--workspace DIR] [--no-cache] [--json]",
  status: "status DIR [--json]",
  recover: "recover DIR [--workspace DIR] [--json]",
  setup: "setup DIR [--language en|ko] [--yes]",
  propose: "propose FILE.json [--notebook DIR] [--workspace DIR] [--json]",
  proposals: "proposals [--workspace DIR] [--json]",
  show: "show PROPOSAL_ID [--workspace DIR] [--json]",
  publish: "publish PROPOSAL_ID --yes [--sha256 DIGEST] [--workspace DIR] [--json]",
  discard: "discard PROPOSAL_ID [--workspace DIR]",
} as const;

export type NotebookSubcommandName = keyof typeof NOTEBOOK_USAGE;

export function notebookUsageText(): string {
  return Object.values(NOTEBOOK_USAGE)
    .map((usage) => `  docket notebook ${usage}\n`)
    .join("");
}

/** The one folder argument, read with the Notebook path rules (observer.md §5.1). */
export function notebookFolderArgument(parsed: ParsedArgs, io: NotebookCliIo, subcommand: string): { readonly path: string; readonly kind: string } {
  if (parsed.positionals.length !== 1) throw new UsageError(`notebook ${subcommand} needs exactly one Notebook folder`);
  const resolved = resolveNotebookPath(parsed.positionals[0] as string, io.cwd, io.home ?? os.homedir());
  if (!resolved.ok) throw new UsageError(resolved.message, resolved.code);
  return { path: resolved.path, kind: describeNotebookPathKind(resolved.kind) };
}

export function reportIssue(issue: NotebookIssue, io: NotebookCliIo): number {
  io.stderr(`docket: ${issue.code}: ${issue.message} (${issue.path})\n`);
  return NotebookExit.unusable;
}

/** How a subcommand's thrown error is reported: usage errors with the usage, coded refusals, anything else as internal. */
export function notebookCommandFailure(error: unknown, io: NotebookCliIo): number {
  if (error instanceof UsageError) {
    io.stderr(`docket: ${error.code}: ${error.message}\nUsage:\n${notebookUsageText()}`);
    return NotebookExit.unusable;
  }
  if (error instanceof UnsafePathError) {
    io.stderr(`docket: docket.unsafe-path: ${error.message}\n`);
    return NotebookExit.unusable;
  }
  io.stderr(`docket: docket.internal: ${error instanceof Error ? error.message : String(error)}\n`);
  return NotebookExit.unusable;
}
