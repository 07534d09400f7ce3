// `docket status` and `docket policy`, the commands people and scripts run most: answered from the
// verified hook checkpoint when the ledger vouches for it (server/workspace/checkpointPolicy.ts),
// which needs no replay and so little code that this module is bundled alone
// (dist/docket-cli-state.js). Anything the checkpoint cannot answer — no usable checkpoint, a
// blocked history, an allowance it cannot prove, and also every usage error — is handed, with the
// same arguments, to the replaying commands (workspaceCommands.ts), which print what they always
// printed. Nothing is printed before that hand-over.
import { parseArgs } from "./args";
import { locateLedger, type CliIo } from "./locate";
import { writePolicy } from "./policyReport";
import { agentsStatus } from "../agents/agentsStatus";
import { writeStatus, type StatusReport } from "../agents/statusReport";
import { ledgerPathOf, parse, workspaceOf, type TerminalIo } from "../agents/terminalArgs";
import type { ToolPolicyResult } from "../protocol/messages";
import { checkpointPolicy } from "../workspace/checkpointPolicy";

function replaying(): typeof import("./workspaceCommands") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./workspaceCommands") as typeof import("./workspaceCommands");
}

export function runStatusCommand(args: readonly string[], io: TerminalIo): number | Promise<number> {
  const answer = statusFromCheckpoint(args, io);
  if (answer === null) return replaying().runTerminalCommand("status", args, io);
  writeStatus(io, answer.json, answer.report);
  return 0;
}

export function runPolicyCommand(args: readonly string[], io: CliIo): number {
  const answer = policyFromCheckpoint(args, io);
  if (answer === null) return replaying().runReplayedPolicy(args, io);
  writePolicy(io, answer.json, answer.result);
  return 0;
}

function statusFromCheckpoint(args: readonly string[], io: TerminalIo): { json: boolean; report: StatusReport } | null {
  try {
    const parsed = parse(args, ["json"], true);
    if (parsed.positionals.length > 0) return null;
    const workspaceFolder = workspaceOf(parsed, io);
    const ledgerPath = ledgerPathOf(parsed, io, workspaceFolder);
    const policy = checkpointPolicy(workspaceFolder, ledgerPath);
    if (policy === null) return null;
    return { json: parsed.flags.has("json"), report: { workspaceFolder, ledgerPath, policy, agents: agentsStatus(workspaceFolder).hosts } };
  } catch {
    return null;
  }
}

function policyFromCheckpoint(args: readonly string[], io: CliIo): { json: boolean; result: ToolPolicyResult } | null {
  try {
    const parsed = parseArgs(args, ["ledger", "workspace"], ["json"]);
    if (parsed.positionals.length > 0) return null;
    const { workspaceFolder, ledgerPath } = locateLedger(parsed, io);
    const result = checkpointPolicy(workspaceFolder, ledgerPath);
    return result === null ? null : { json: parsed.flags.has("json"), result };
  } catch {
    return null;
  }
}
