// The commands that replay the workspace ledger (WorkspaceLedger): `docket on|off|status|connect|
// disconnect` and the replayed answer of `docket policy`. Loaded from their own bundle, by the
// dispatcher and by stateCommands.ts when the checkpoint cannot answer.
import { UsageError, parseArgs } from "./args";
import { locateLedger, type CliIo } from "./locate";
import { writePolicy } from "./policyReport";
import { refreshCheckpoint } from "../hooks/checkpointState";
import { WorkspaceLedger } from "../workspace/workspaceLedger";

export { runTerminalCommand } from "../agents/terminal";

/** `docket policy` from a full replay; usage errors are thrown for the dispatcher to report. */
export function runReplayedPolicy(args: readonly string[], io: CliIo): number {
  const parsed = parseArgs(args, ["ledger", "workspace"], ["json"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const { workspaceFolder, ledgerPath } = locateLedger(parsed, io);
  const ledger = new WorkspaceLedger({ workspaceFolder, ledgerPath, trusted: false });
  ledger.refresh();
  const result = ledger.policy();
  // The next `docket policy` or `docket status` answers from the checkpoint again.
  refreshCheckpoint(ledger.store);
  writePolicy(io, parsed.flags.has("json"), result);
  return 0;
}
