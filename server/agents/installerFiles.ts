// The thin file adapter for installers.ts: reads host config files, writes a plan atomically
// (temp file + rename, so a host never reads half a config), and finds the installed runtime.
import fs from "node:fs";
import path from "node:path";
import { DocketError } from "../errors";
import { HOOK_BUNDLE } from "../hooks/hookCommand";
import { ErrorCodes } from "../protocol/errorCodes";
import type { AgentPlan } from "../protocol/messages";
import type { AgentHost } from "./hostConfig";
import { planConnect, planDisconnect, type InstallTarget } from "./installers";
import { readBounded } from "../workspace/containedFs";

/** Host configs are a few kilobytes; a larger file (or a link to a device) is not one to edit. */
const MAX_HOST_CONFIG_BYTES = 4 * 1024 * 1024;

export function readText(absolutePath: string): string | null {
  try {
    // Followed through links as the host follows them, but only to a bounded regular file.
    const fd = fs.openSync(absolutePath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      return readBounded(fd, absolutePath, MAX_HOST_CONFIG_BYTES).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new DocketError(ErrorCodes.agentConfigUnwritable, `Cannot read ${absolutePath}: ${(error as Error).message}`);
  }
}

/**
 * The runtime hooks and the MCP server must run: the real path of an installed bundle
 * (dist/docket.js), never a source checkout's TypeScript, which `node` cannot run.
 */
export function resolveRuntimePath(candidate: string | undefined): string {
  if (candidate === undefined) throw new DocketError(ErrorCodes.agentRuntimeMissing, "Cannot tell where the Docket runtime is installed.");
  let real: string;
  try {
    real = fs.realpathSync(candidate);
  } catch {
    throw new DocketError(ErrorCodes.agentRuntimeMissing, `The Docket runtime ${candidate} does not exist.`);
  }
  if (!real.endsWith(".js") || !fs.statSync(real).isFile()) {
    throw new DocketError(ErrorCodes.agentRuntimeMissing, `${real} is not an installed Docket runtime (dist/docket.js); run docket from its bundle.`);
  }
  // Hooks run the lean bundle next to it; a missing one would leave the gate silently disabled.
  const hookBundle = path.join(path.dirname(real), HOOK_BUNDLE);
  if (!fs.existsSync(hookBundle)) {
    throw new DocketError(ErrorCodes.agentRuntimeMissing, `The hook runtime ${hookBundle} is missing next to ${real}; reinstall or rebuild Docket.`);
  }
  return real;
}

let tempCounter = 0;

function writeAtomically(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  tempCounter += 1;
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.docket-${process.pid}-${tempCounter}.tmp`);
  try {
    fs.writeFileSync(temp, text, { encoding: "utf8", flag: "wx" });
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Removes a file, then its directory if Docket's removal left it empty (e.g. a fresh `.codex/`). */
function removeFile(file: string, workspaceFolder: string): void {
  fs.rmSync(file, { force: true });
  const directory = path.dirname(file);
  if (path.resolve(directory) === path.resolve(workspaceFolder)) return;
  try {
    if (fs.readdirSync(directory).length === 0) fs.rmdirSync(directory);
  } catch {
    // best effort: an unremovable empty directory changes no host's behaviour
  }
}

/** Writes a plan's files, after checking each still holds the text the plan started from. */
export function writePlan(plan: AgentPlan, workspaceFolder: string): void {
  for (const file of plan.files) {
    if (readText(file.path) !== file.before) {
      throw new DocketError(ErrorCodes.agentPlanChanged, `${file.path} changed while Docket was preparing its edit; nothing was written. Try again.`);
    }
  }
  try {
    for (const file of plan.files) {
      if (file.after === null) removeFile(file.path, workspaceFolder);
      else writeAtomically(file.path, file.after);
    }
  } catch (error) {
    if (error instanceof DocketError) throw error;
    throw new DocketError(ErrorCodes.agentConfigUnwritable, `Cannot write the agent configuration: ${(error as Error).message}`);
  }
}

export interface Installation {
  readonly host: AgentHost;
  readonly workspaceFolder: string;
  readonly runtimePath: string;
  /** The ledger the caller governs with; absent = the default. */
  readonly ledgerPath?: string | null;
  /** The user's additions to the hook's read-only allowlist. */
  readonly readOnlyTools?: readonly string[];
}

/** The folder's real path: the hook compares it with the real paths of the locations a tool names. */
function realFolder(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

function target(installation: Installation): InstallTarget {
  return {
    host: installation.host,
    workspaceFolder: installation.workspaceFolder,
    runtimePath: installation.runtimePath,
    ledgerPath: installation.ledgerPath ?? null,
    hookWorkspace: realFolder(installation.workspaceFolder),
    readOnlyTools: installation.readOnlyTools ?? [],
  };
}

export function connectPlan(installation: Installation): AgentPlan {
  return planConnect(target(installation), readText);
}

export function disconnectPlan(installation: Installation): AgentPlan {
  return planDisconnect(target(installation), readText);
}

/** Re-plans and writes only if the plan is the one shown (same digest); returns what was written. */
export function applyConnect(installation: Installation, expectedSha256: string | null): AgentPlan {
  const plan = connectPlan(installation);
  if (expectedSha256 !== null && plan.planSha256 !== expectedSha256) {
    throw new DocketError(ErrorCodes.agentPlanChanged, "The configuration changed since the plan was shown; nothing was written. Review the new plan and confirm again.");
  }
  writePlan(plan, installation.workspaceFolder);
  return plan;
}

export function applyDisconnect(installation: Installation): AgentPlan {
  const plan = disconnectPlan(installation);
  writePlan(plan, installation.workspaceFolder);
  return plan;
}
