// Merging Docket's entries into JSON host configs (`.claude/settings.json`, `.mcp.json`,
// `.codex/hooks.json`) without disturbing anything else: existing keys keep their order, entries
// that are not Docket's are never touched, and a file whose shape is not what the host documents
// is refused rather than "repaired".
import { DocketError } from "../errors";
import type { HookEvent } from "../hooks/hostInput";
import { ErrorCodes } from "../protocol/errorCodes";
import {
  HOOK_TIMEOUT_SECONDS,
  isCurrentDocketHookCommand,
  isDocketHookCommand,
  isDocketMcpEntry,
  MCP_SERVER_NAME,
  type AgentHost,
  type HookEventSpec,
  type McpServerEntry,
} from "./hostConfig";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function malformed(file: string, why: string): DocketError {
  return new DocketError(ErrorCodes.agentConfigMalformed, `${file}: ${why}. Docket changed nothing; fix or move the file and try again.`);
}

/** Parses a config file; an absent or whitespace-only file is an empty object. */
export function parseJsonObject(text: string | null, file: string): JsonObject {
  if (text === null || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw malformed(file, `not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) throw malformed(file, "the top level is not a JSON object");
  return value;
}

/** The canonical form Docket writes: 2-space indent, trailing newline. */
export function serializeJson(value: JsonObject): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

interface HookGroup {
  matcher?: Json;
  hooks: JsonObject[];
  [key: string]: Json | undefined;
}

/** `hooks` as the host documents it: event → array of {matcher?, hooks: [handler…]}. */
function validatedHooks(root: JsonObject, file: string): { [event: string]: HookGroup[] } | null {
  const hooks = root["hooks"];
  if (hooks === undefined) return null;
  if (!isObject(hooks)) throw malformed(file, "\"hooks\" is not an object");
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) throw malformed(file, `"hooks.${event}" is not an array`);
    for (const [index, group] of groups.entries()) {
      if (!isObject(group)) throw malformed(file, `"hooks.${event}[${index}]" is not an object`);
      const handlers = group["hooks"];
      if (!Array.isArray(handlers) || !handlers.every(isObject)) {
        throw malformed(file, `"hooks.${event}[${index}].hooks" is not an array of objects`);
      }
    }
  }
  return hooks as unknown as { [event: string]: HookGroup[] };
}

function isDocketHandler(handler: JsonObject, host: AgentHost): boolean {
  return isDocketHookCommand(handler["command"], host);
}

function desiredGroup(spec: HookEventSpec, command: string): HookGroup {
  const handler: JsonObject = { type: "command", command, timeout: HOOK_TIMEOUT_SECONDS };
  return spec.matcher === undefined ? { hooks: [handler] } : { matcher: spec.matcher, hooks: [handler] };
}

/**
 * Docket hook groups written by an older version, which leave the gate weaker than it should be: a
 * PreToolUse matcher (the host then never asks Docket about other tools) or a command without
 * `--workspace` (the hook then guesses the workspace from the cwd). Labels, for status.
 */
export function outdatedDocketHooks(root: JsonObject, file: string, host: AgentHost): string[] {
  const hooks = validatedHooks(root, file);
  if (hooks === null) return [];
  const outdated: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of groups) {
      const docket = group.hooks.filter((handler) => isDocketHandler(handler, host));
      if (docket.length === 0) continue;
      const matcher = group.matcher;
      const narrowed = event === "PreToolUse" && matcher !== undefined && matcher !== "" && matcher !== "*";
      if (narrowed || docket.some((handler) => !isCurrentDocketHookCommand(handler["command"]))) outdated.push(event);
    }
  }
  return outdated;
}

/** Docket's hook entries found in a config: `Event[matcher]` labels, for status. */
export function docketHookEntries(root: JsonObject, file: string, host: AgentHost): string[] {
  const hooks = validatedHooks(root, file);
  if (hooks === null) return [];
  const found: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of groups) {
      if (group.hooks.some((handler) => isDocketHandler(handler, host))) found.push(typeof group.matcher === "string" && group.matcher !== "" ? `${event}[${group.matcher}]` : event);
    }
  }
  return found;
}

/** Removes every Docket handler, dropping the groups, events and `hooks` key that only held Docket's. */
export function withoutDocketHooks(root: JsonObject, file: string, host: AgentHost): JsonObject {
  const hooks = validatedHooks(root, file);
  if (hooks === null) return root;
  const nextHooks: JsonObject = {};
  let removedAny = false;
  for (const [event, groups] of Object.entries(hooks)) {
    const kept: Json[] = [];
    let removed = false;
    for (const group of groups) {
      const handlers = group.hooks.filter((handler) => !isDocketHandler(handler, host));
      if (handlers.length === group.hooks.length) {
        kept.push(group as unknown as Json);
        continue;
      }
      removed = true;
      if (handlers.length > 0) kept.push({ ...(group as unknown as JsonObject), hooks: handlers });
    }
    removedAny ||= removed;
    if (removed && kept.length === 0) continue;
    nextHooks[event] = kept;
  }
  // Nothing of Docket's: the very same object, so the file is not rewritten.
  if (!removedAny) return root;
  const next: JsonObject = {};
  for (const [key, value] of Object.entries(root)) {
    if (key !== "hooks") next[key] = value;
    else if (Object.keys(nextHooks).length > 0 || Object.keys(hooks).length === 0) next[key] = nextHooks;
  }
  return next;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** True when the config holds exactly Docket's desired groups and no other Docket handler. */
function hooksInstalled(root: JsonObject, file: string, host: AgentHost, specs: readonly HookEventSpec[], commandFor: (event: HookEvent) => string): boolean {
  const hooks = validatedHooks(root, file);
  if (hooks === null) return false;
  const wanted = new Map<string, HookGroup>(specs.map((spec) => [spec.event, desiredGroup(spec, commandFor(spec.event))]));
  for (const [event, groups] of Object.entries(hooks)) {
    const docket = groups.filter((group) => group.hooks.some((handler) => isDocketHandler(handler, host)));
    const expected = wanted.get(event);
    if (expected === undefined) {
      if (docket.length > 0) return false;
      continue;
    }
    if (docket.length !== 1 || !sameJson(docket[0], expected)) return false;
    wanted.delete(event);
  }
  return wanted.size === 0;
}

/** Adds Docket's hook groups (replacing any older Docket ones); unchanged when already in place. */
export function withDocketHooks(root: JsonObject, file: string, host: AgentHost, specs: readonly HookEventSpec[], commandFor: (event: HookEvent) => string): JsonObject {
  if (hooksInstalled(root, file, host, specs, commandFor)) return root;
  const stripped = withoutDocketHooks(root, file, host);
  const existing = isObject(stripped["hooks"]) ? stripped["hooks"] : {};
  const hooks: JsonObject = { ...existing };
  for (const spec of specs) {
    const groups = Array.isArray(hooks[spec.event]) ? (hooks[spec.event] as Json[]) : [];
    hooks[spec.event] = [...groups, desiredGroup(spec, commandFor(spec.event)) as unknown as Json];
  }
  if (!("hooks" in root)) return { ...stripped, hooks };
  // `hooks` keeps its place even when stripping emptied it (a reconnect from a moved runtime).
  const next: JsonObject = {};
  for (const key of Object.keys(root)) {
    if (key === "hooks") next[key] = hooks;
    else if (key in stripped) next[key] = stripped[key] as Json;
  }
  return next;
}

function validatedServers(root: JsonObject, file: string): JsonObject | null {
  const servers = root["mcpServers"];
  if (servers === undefined) return null;
  if (!isObject(servers)) throw malformed(file, "\"mcpServers\" is not an object");
  return servers;
}

/** Adds `mcpServers.docket`; refuses to overwrite a "docket" server that Docket did not write. */
export function withDocketMcpServer(root: JsonObject, file: string, entry: McpServerEntry): JsonObject {
  const servers = validatedServers(root, file) ?? {};
  const current = servers[MCP_SERVER_NAME];
  const desired: JsonObject = { command: entry.command, args: [...entry.args] };
  if (current !== undefined && sameJson(current, desired)) return root;
  if (current !== undefined && !isDocketMcpEntry(current)) {
    throw new DocketError(
      ErrorCodes.agentConfigConflict,
      `${file}: an MCP server named "${MCP_SERVER_NAME}" exists that Docket did not write. Docket changed nothing; rename or remove it and try again.`,
    );
  }
  return { ...root, mcpServers: { ...servers, [MCP_SERVER_NAME]: desired } };
}

export function hasDocketMcpServer(root: JsonObject, file: string): boolean {
  const servers = validatedServers(root, file);
  return servers !== null && isDocketMcpEntry(servers[MCP_SERVER_NAME]);
}

/** Removes Docket's `mcpServers.docket` (and `mcpServers` if that was its only server). */
export function withoutDocketMcpServer(root: JsonObject, file: string): JsonObject {
  const servers = validatedServers(root, file);
  if (servers === null || !isDocketMcpEntry(servers[MCP_SERVER_NAME])) return root;
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(servers)) if (key !== MCP_SERVER_NAME) rest[key] = value;
  const next: JsonObject = {};
  for (const [key, value] of Object.entries(root)) {
    if (key !== "mcpServers") next[key] = value;
    else if (Object.keys(rest).length > 0) next[key] = rest;
  }
  return next;
}
