// Connecting Claude Code or Codex to Docket, as a pure plan: given the current text of each host
// config file, the exact text Docket would write (hooks + MCP server), what the user must still
// do, and a digest of the plan so a confirmed plan can be applied only if nothing moved since.
// Reading and writing files is the adapter's job (installerFiles.ts).
import path from "node:path";
import type { AgentHostStatus, AgentPlan, AgentPlanFile } from "../protocol/messages";
import { toDocketError } from "../errors";
import type { HookEvent } from "../hooks/hostInput";
import { canonicalize, sha256Hex } from "../ledger/canonicalJson";
import { resolveLedgerPath } from "../workspace/ledgerPaths";
import { hasDocketTomlBlock, withDocketToml, withoutDocketToml } from "./codexToml";
import {
  checkedReadOnlyTools,
  connectNotes,
  disconnectNotes,
  hookCommand,
  hookEvents,
  HOST_FILES,
  mcpServerEntry,
  type AgentHost,
} from "./hostConfig";
import {
  docketHookEntries,
  hasDocketMcpServer,
  outdatedDocketHooks,
  parseJsonObject,
  serializeJson,
  withDocketHooks,
  withDocketMcpServer,
  withoutDocketHooks,
  withoutDocketMcpServer,
  type JsonObject,
} from "./jsonConfig";

export interface InstallTarget {
  readonly host: AgentHost;
  /** Absolute workspace folder: host configs live under it. */
  readonly workspaceFolder: string;
  /** Absolute, real path of the installed runtime (dist/docket.js) the hooks and MCP server run. */
  readonly runtimePath: string;
  /** The ledger the caller governs with (VS Code's `docket.ledgerPath`, resolved); absent = the default. */
  readonly ledgerPath?: string | null;
  /**
   * The workspace's real path, written into every hook command (`--workspace`) so the hook never
   * guesses it from the cwd; absent = `workspaceFolder` (the adapter passes the real path).
   */
  readonly hookWorkspace?: string;
  /** The user's additions to the hook's read-only allowlist (`--read-only-tool`); validated here. */
  readonly readOnlyTools?: readonly string[];
}

/**
 * The hooks and the MCP entry find the ledger the way every `docket` command does (the default
 * under the workspace), so a person who moved the ledger must hear that the agent's work is
 * recorded elsewhere than the Work tree shows.
 */
function ledgerNotes(target: InstallTarget): string[] {
  if (target.ledgerPath === undefined || target.ledgerPath === null) return [];
  const fallback = resolveLedgerPath(target.workspaceFolder, null);
  if (path.resolve(target.ledgerPath) === fallback) return [];
  return [
    `The agent's hooks and MCP server record to ${fallback}, not to the ledger set in docket.ledgerPath (${target.ledgerPath}): clear that setting to see the agent's work in the Work tree and Receipts.`,
  ];
}

/** Reads a file's current text; null when it does not exist. */
export type ReadText = (absolutePath: string) => string | null;

interface FileChange {
  readonly relative: string;
  readonly next: (before: string | null, label: string) => string | null;
}

function jsonChange(relative: string, edit: (root: JsonObject, label: string) => JsonObject, removeWhenEmpty: boolean): FileChange {
  return {
    relative,
    next: (before, label) => {
      const root = parseJsonObject(before, label);
      const edited = edit(root, label);
      if (edited === root) return before;
      if (removeWhenEmpty && Object.keys(edited).length === 0) return null;
      return serializeJson(edited);
    },
  };
}

function changes(target: InstallTarget, mode: "connect" | "disconnect"): FileChange[] {
  const context = { workspace: target.hookWorkspace ?? target.workspaceFolder, readOnlyTools: checkedReadOnlyTools(target.readOnlyTools ?? []) };
  const commandFor = (event: HookEvent): string => hookCommand(target.host, event, target.runtimePath, context);
  const specs = hookEvents(target.host);
  const mcp = mcpServerEntry(target.runtimePath, target.workspaceFolder);
  const connect = mode === "connect";
  const hooksFile = target.host === "claude" ? HOST_FILES.claude.settings : HOST_FILES.codex.hooks;
  const hooks = jsonChange(
    hooksFile,
    (root, label) => (connect ? withDocketHooks(root, label, target.host, specs, commandFor) : withoutDocketHooks(root, label, target.host)),
    !connect,
  );
  if (target.host === "claude") {
    return [
      hooks,
      jsonChange(HOST_FILES.claude.mcp, (root, label) => (connect ? withDocketMcpServer(root, label, mcp) : withoutDocketMcpServer(root, label)), !connect),
    ];
  }
  return [
    hooks,
    {
      relative: HOST_FILES.codex.config,
      next: (before, label) => (connect ? withDocketToml(before, label, mcp) : withoutDocketToml(before, label)),
    },
  ];
}

/** Digest of the plan's content (never of a clock): equal plans have equal digests. */
export function planDigest(host: AgentHost, files: readonly AgentPlanFile[]): string {
  return sha256Hex(canonicalize({ host, files }));
}

function plan(target: InstallTarget, read: ReadText, mode: "connect" | "disconnect"): AgentPlan {
  const files: AgentPlanFile[] = [];
  for (const change of changes(target, mode)) {
    const absolute = path.join(target.workspaceFolder, change.relative);
    const before = read(absolute);
    const after = change.next(before, change.relative);
    if (after !== before) files.push({ path: absolute, before, after });
  }
  const notes = files.length === 0 ? [] : mode === "connect" ? [...connectNotes(target.host), ...ledgerNotes(target)] : disconnectNotes(target.host);
  return { host: target.host, files, notes, planSha256: planDigest(target.host, files) };
}

/** What `connect` would write; `files` is empty when the host is already connected. Throws coded errors. */
export function planConnect(target: InstallTarget, read: ReadText): AgentPlan {
  return plan(target, read, "connect");
}

/** What `disconnect` would write: Docket's entries removed, files Docket alone filled deleted. */
export function planDisconnect(target: InstallTarget, read: ReadText): AgentPlan {
  return plan(target, read, "disconnect");
}

/** Which Docket entries a host's configs hold now; a file Docket cannot read is reported, not thrown. */
export function installedStatus(host: AgentHost, workspaceFolder: string, read: ReadText): Omit<AgentHostStatus, "heartbeat"> {
  const expectedHooks = hookEvents(host).length;
  const files: AgentHostStatus["files"] = [];
  let hookCount = 0;
  let outdated = 0;
  let mcp = false;
  try {
    const hooksFile = host === "claude" ? HOST_FILES.claude.settings : HOST_FILES.codex.hooks;
    const hooksPath = path.join(workspaceFolder, hooksFile);
    const hooksRoot = parseJsonObject(read(hooksPath), hooksFile);
    const hookEntries = docketHookEntries(hooksRoot, hooksFile, host);
    hookCount = hookEntries.length;
    // Entries of an older version leave the gate weaker (a narrow matcher, no workspace): not "connected" until reconnected.
    outdated = outdatedDocketHooks(hooksRoot, hooksFile, host).length;
    if (hookEntries.length > 0) files.push({ path: hooksPath, entries: hookEntries.map((entry) => `hooks.${entry}`) });
    if (host === "claude") {
      const mcpPath = path.join(workspaceFolder, HOST_FILES.claude.mcp);
      mcp = hasDocketMcpServer(parseJsonObject(read(mcpPath), HOST_FILES.claude.mcp), HOST_FILES.claude.mcp);
      if (mcp) files.push({ path: mcpPath, entries: ["mcpServers.docket"] });
    } else {
      const configPath = path.join(workspaceFolder, HOST_FILES.codex.config);
      mcp = hasDocketTomlBlock(read(configPath), HOST_FILES.codex.config);
      if (mcp) files.push({ path: configPath, entries: ["mcp_servers.docket"] });
    }
  } catch (error) {
    const coded = toDocketError(error);
    return { host, installed: false, partial: files.length > 0, files, problem: { code: coded.code, message: coded.message } };
  }
  const complete = hookCount === expectedHooks && outdated === 0 && mcp;
  return { host, installed: complete, partial: !complete && (hookCount > 0 || mcp), files, problem: null };
}

