// Docket from a terminal, for people running an agent without VS Code: `docket on|off|status`
// and `docket connect|disconnect claude|codex`. Workspace and ledger follow the same rules as the
// extension (ledgerPaths.ts); writes go through WorkspaceLedger (same lock) and the installers.
import path from "node:path";
import { DocketError, toDocketError } from "../errors";
import { AgentHost, type AgentPlan } from "../protocol/messages";
import { WorkspaceLedger } from "../workspace/workspaceLedger";
import { refreshCheckpoint } from "../hooks/checkpointState";
import { agentsStatus } from "./agentsStatus";
import { applyConnect, applyDisconnect, connectPlan, disconnectPlan, resolveRuntimePath } from "./installerFiles";
import { writeStatus } from "./statusReport";
import { TerminalExit, TerminalUsageError, ledgerPathOf, parse, workspaceOf, type Parsed, type TerminalCommand, type TerminalIo } from "./terminalArgs";
import { unifiedDiff } from "./textDiff";
import { runGitConnect } from "../team/gitConnectCli";
import { gitConnected, gitRepository } from "../team/gitConnect";

export { TERMINAL_COMMANDS, TerminalExit, type TerminalCommand, type TerminalIo } from "./terminalArgs";

/** The workspace's ledger, not yet read: a write starts from the verified snapshot, a reader replays when it asks. */
function openLedger(parsed: Parsed, io: TerminalIo): WorkspaceLedger {
  const workspaceFolder = workspaceOf(parsed, io);
  const ledgerPath = ledgerPathOf(parsed, io, workspaceFolder);
  // A person at a terminal runs this themselves: the workspace is trusted.
  return new WorkspaceLedger({ workspaceFolder, ledgerPath, trusted: true, actor: { kind: "terminal", client: null, session: null } });
}

function noPositionals(parsed: Parsed): void {
  if (parsed.positionals.length > 0) throw new TerminalUsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
}

async function turn(on: boolean, args: readonly string[], io: TerminalIo): Promise<number> {
  const parsed = parse(args, ["json"], true);
  noPositionals(parsed);
  const ledger = openLedger(parsed, io);
  const result = on ? await ledger.turnOn() : await ledger.turnOff();
  const policy = ledger.policy();
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify({ result, phase: policy.phase, ledgerPath: ledger.store.ledgerPath })}\n`);
  } else {
    io.stdout(on ? `Docket is on: work scope ${result.workScopeId ?? "?"}\n` : "Docket is off.\n");
    io.stdout(`phase: ${policy.phase}; next: ${result.nextAction ?? "none"}\nledger: ${ledger.store.ledgerPath}\n`);
    if (on && (await gitHint(ledger.options.workspaceFolder, io))) io.stdout("hint: `docket connect git` links your commits to Docket's landings (shows the change first)\n");
  }
  return TerminalExit.ok;
}

/** Whether to mention `docket connect git`: the workspace is in a Git repository that is not connected. */
async function gitHint(workspaceFolder: string, io: TerminalIo): Promise<boolean> {
  try {
    const runtimePath = resolveRuntimePath(io.runtime);
    return (await gitRepository(workspaceFolder)) && !(await gitConnected({ workspaceFolder, runtimePath, nodePath: process.execPath }));
  } catch {
    return false;
  }
}

function status(args: readonly string[], io: TerminalIo): number {
  const parsed = parse(args, ["json"], true);
  noPositionals(parsed);
  const ledger = openLedger(parsed, io);
  ledger.refresh();
  const policy = ledger.policy();
  // `docket status` answers from the checkpoint when it can; one replay makes it current again.
  refreshCheckpoint(ledger.store);
  const workspaceFolder = ledger.options.workspaceFolder;
  writeStatus(io, parsed.flags.has("json"), { workspaceFolder, ledgerPath: ledger.store.ledgerPath, policy, agents: agentsStatus(workspaceFolder).hosts });
  return TerminalExit.ok;
}

function hostArgument(parsed: Parsed, command: string): AgentHost {
  const [host, extra] = parsed.positionals;
  if (host === undefined) throw new TerminalUsageError(`${command} needs a host: claude, codex or git`);
  if (extra !== undefined) throw new TerminalUsageError(`unexpected argument ${extra}`);
  const checked = AgentHost.safeParse(host);
  if (!checked.success) throw new TerminalUsageError(`unknown host ${host}: use claude or codex`);
  return checked.data;
}

function describePlan(plan: AgentPlan, workspaceFolder: string, withDiff: boolean): string {
  if (plan.files.length === 0) return "";
  const lines: string[] = [];
  for (const file of plan.files) {
    const relative = path.relative(workspaceFolder, file.path);
    const action = file.before === null ? "create" : file.after === null ? "delete" : "update";
    lines.push(`${action} ${relative}`);
    if (withDiff) lines.push(unifiedDiff(file.before ?? "", file.after ?? "", file.before === null ? "/dev/null" : `a/${relative}`, file.after === null ? "/dev/null" : `b/${relative}`));
  }
  return `${lines.join("\n")}\n`;
}

function connect(connecting: boolean, args: readonly string[], io: TerminalIo): number | Promise<number> {
  const parsed = parse(args, ["json", "dry-run"], false, connecting);
  const command = connecting ? "connect" : "disconnect";
  if (parsed.positionals[0] === "git") {
    noPositionals({ ...parsed, positionals: parsed.positionals.slice(1) });
    if (parsed.readOnlyTools.length > 0) throw new TerminalUsageError("--read-only-tool is for agent hosts, not git");
    return runGitConnect(connecting, workspaceOf(parsed, io), parsed.flags, io);
  }
  const host = hostArgument(parsed, command);
  const workspaceFolder = workspaceOf(parsed, io);
  const installation = { host, workspaceFolder, runtimePath: resolveRuntimePath(io.runtime), readOnlyTools: parsed.readOnlyTools };
  const dryRun = parsed.flags.has("dry-run");
  const plan = dryRun
    ? connecting ? connectPlan(installation) : disconnectPlan(installation)
    : connecting ? applyConnect(installation, null) : applyDisconnect(installation);
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify({ ...plan, dryRun, workspaceFolder, runtimePath: installation.runtimePath })}\n`);
    return TerminalExit.ok;
  }
  if (plan.files.length === 0) {
    io.stdout(connecting ? `${host} is already connected to Docket in ${workspaceFolder}; nothing to change.\n` : `${host} has no Docket entries in ${workspaceFolder}; nothing to change.\n`);
    return TerminalExit.ok;
  }
  io.stdout(dryRun ? `Would change (dry run, nothing written):\n` : connecting ? `Connected ${host} to Docket:\n` : `Disconnected ${host} from Docket:\n`);
  io.stdout(describePlan(plan, workspaceFolder, dryRun));
  if (plan.notes.length > 0) io.stdout(`${dryRun ? "Afterwards" : "Still to do"}:\n${plan.notes.map((note) => `  - ${note}\n`).join("")}`);
  return TerminalExit.ok;
}

/** Runs one terminal command and resolves to its exit code; never rejects. */
export async function runTerminalCommand(command: TerminalCommand, args: readonly string[], io: TerminalIo): Promise<number> {
  try {
    if (command === "on" || command === "off") return await turn(command === "on", args, io);
    if (command === "status") return status(args, io);
    return await connect(command === "connect", args, io);
  } catch (error) {
    if (error instanceof TerminalUsageError) {
      io.stderr(`docket: docket.usage: ${error.message}\nRun 'docket --help' for usage.\n`);
      return TerminalExit.usage;
    }
    const coded = error instanceof DocketError ? error : toDocketError(error);
    io.stderr(`docket: ${coded.code}: ${coded.message}\n`);
    return TerminalExit.refused;
  }
}
