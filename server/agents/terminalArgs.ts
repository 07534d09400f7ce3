// The arguments of Docket's terminal commands (`docket on|off|status|connect|disconnect`): their
// reader, usage error and exit codes, apart from the commands so `docket status` can read them
// without loading the workspace ledger.
import path from "node:path";
import { isExtensibleToolName } from "../hooks/toolClassification";
import { findWorkspaceRoot, resolveLedgerPath } from "../workspace/ledgerPaths";

export interface TerminalIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** The script being run (process.argv[1]): the installed runtime hooks and MCP will call. */
  readonly runtime?: string;
}

export const TERMINAL_COMMANDS = ["on", "off", "status", "connect", "disconnect"] as const;
export type TerminalCommand = (typeof TERMINAL_COMMANDS)[number];

/** Exit codes (documented in `docket --help`). */
export const TerminalExit = { ok: 0, usage: 2, refused: 3 } as const;

export class TerminalUsageError extends Error {}

export interface Parsed {
  readonly positionals: string[];
  readonly workspace: string | undefined;
  readonly ledger: string | undefined;
  readonly flags: Set<string>;
  /** `--read-only-tool NAME`, repeatable (connect only). */
  readonly readOnlyTools: string[];
}

export function parse(args: readonly string[], booleans: readonly string[], allowLedger: boolean, allowReadOnlyTools = false): Parsed {
  const positionals: string[] = [];
  const flags = new Set<string>();
  const readOnlyTools: string[] = [];
  let workspace: string | undefined;
  let ledger: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const [name, inline] = arg.startsWith("--") ? (arg.slice(2).split(/=(.*)/su, 2) as [string, string | undefined]) : [null, undefined];
    if (name === null) {
      positionals.push(arg);
    } else if (name === "workspace" || (allowLedger && name === "ledger")) {
      const value = inline ?? args[index + 1];
      if (value === undefined || (inline === undefined && value.startsWith("--"))) throw new TerminalUsageError(`--${name} needs a value`);
      if (inline === undefined) index += 1;
      if (name === "workspace") workspace = value;
      else ledger = value;
    } else if (allowReadOnlyTools && name === "read-only-tool") {
      const value = inline ?? args[index + 1];
      if (value === undefined || value === "" || (inline === undefined && value.startsWith("--"))) throw new TerminalUsageError("--read-only-tool needs a tool name");
      if (inline === undefined) index += 1;
      if (!isExtensibleToolName(value)) {
        throw new TerminalUsageError(`--read-only-tool ${value}: use a tool name of letters, digits, "_", ".", ":" or "-" that is not a shell, edit or Docket tool`);
      }
      readOnlyTools.push(value);
    } else if (booleans.includes(name) && inline === undefined) {
      flags.add(name);
    } else {
      throw new TerminalUsageError(`unknown option --${name}`);
    }
  }
  return { positionals, workspace, ledger, flags, readOnlyTools };
}

export function workspaceOf(parsed: Parsed, io: TerminalIo): string {
  return parsed.workspace !== undefined ? path.resolve(io.cwd, parsed.workspace) : findWorkspaceRoot(io.cwd);
}

export function ledgerPathOf(parsed: Parsed, io: TerminalIo, workspaceFolder: string): string {
  return parsed.ledger !== undefined ? path.resolve(io.cwd, parsed.ledger) : resolveLedgerPath(workspaceFolder, null);
}
