// Which workspace and ledger a command means, and the streams it writes to. Shared by the
// dispatcher and the command bundles it loads; it imports only path rules, so it costs them nothing.
import path from "node:path";
import { stringFlag, type ParsedArgs } from "./args";
import { findWorkspaceRoot, resolveLedgerPath } from "../workspace/ledgerPaths";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

/** `--ledger PATH` wins; else the ledger of `--workspace DIR`; else of the Git root above cwd. */
export function locateLedger(parsed: ParsedArgs, io: CliIo): { workspaceFolder: string; ledgerPath: string } {
  const explicit = stringFlag(parsed, "ledger");
  const workspace = stringFlag(parsed, "workspace");
  const workspaceFolder = workspace !== undefined ? path.resolve(io.cwd, workspace) : findWorkspaceRoot(io.cwd);
  const ledgerPath = explicit !== undefined ? path.resolve(io.cwd, explicit) : resolveLedgerPath(workspaceFolder, null);
  return { workspaceFolder, ledgerPath };
}
