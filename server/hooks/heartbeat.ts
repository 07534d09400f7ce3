// The hooks' heartbeat: the latest call per host, so the "Connected agents" view can tell a hook
// that is installed from one that actually fires. Best effort by design: a heartbeat that cannot
// be written never fails or slows the hook, and concurrent hooks may overwrite each other's
// entry (the file only ever claims "a hook of this host ran at about this time").
import path from "node:path";
import * as z from "zod/mini";
import { ensureDocketFolder } from "../workspace/docketFolder";
import { ensureContainedDirectory, readContained, writeFileAtomicContained } from "../workspace/containedFs";

export const HEARTBEAT_FORMAT = "docket/hook-heartbeat/v1";

/** Also the order readHeartbeats returns (code-unit order of the names). */
const HOSTS = ["claude", "codex", "vscode"] as const;

/**
 * The file's zod schemas, built on first use: a heartbeat file Docket wrote, and a beat a hook
 * records, pass `heartbeatOf`/`heartbeatFileOf` below without them; anything else goes through
 * them, and they decide. Exported for the differential test.
 */
export function heartbeatSchemas() {
  cachedSchemas ??= buildSchemas();
  return cachedSchemas;
}

function buildSchemas() {
  const HookHeartbeat = z.strictObject({
    host: z.enum(HOSTS),
    event: z.string().check(z.maxLength(100)),
    sessionId: z.nullable(z.string().check(z.maxLength(500))),
    /** ISO time of the call; for people, never used for ordering anything hashed. */
    at: z.string().check(z.maxLength(40)),
  });
  const HeartbeatFile = z.strictObject({
    format: z.literal(HEARTBEAT_FORMAT),
    hosts: z.strictObject({ claude: z.optional(HookHeartbeat), codex: z.optional(HookHeartbeat), vscode: z.optional(HookHeartbeat) }),
  });
  return { HookHeartbeat, HeartbeatFile };
}

let cachedSchemas: ReturnType<typeof buildSchemas> | null = null;

export type HookHeartbeat = z.infer<ReturnType<typeof buildSchemas>["HookHeartbeat"]>;
type HeartbeatFile = z.infer<ReturnType<typeof buildSchemas>["HeartbeatFile"]>;

function hasOnlyKeys(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length <= keys.length && own.every((key) => keys.includes(key));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const BEAT_KEYS = ["host", "event", "sessionId", "at"] as const;

/**
 * The beat as the schema's parse returns it (its keys in the schema's order), when the schema
 * certainly accepts `value`; null when unsure (the schema then decides).
 */
export function heartbeatOf(value: unknown): HookHeartbeat | null {
  if (!isRecord(value) || !hasOnlyKeys(value, BEAT_KEYS)) return null;
  const { host, event, sessionId, at } = value;
  if (host !== "claude" && host !== "codex" && host !== "vscode") return null;
  if (typeof event !== "string" || event.length > 100) return null;
  if (sessionId !== null && (typeof sessionId !== "string" || sessionId.length > 500)) return null;
  if (typeof at !== "string" || at.length > 40) return null;
  return { host, event, sessionId, at };
}

/** The file as the schema's parse returns it, when the schema certainly accepts `value`; null when unsure. */
export function heartbeatFileOf(value: unknown): HeartbeatFile | null {
  if (!isRecord(value) || !hasOnlyKeys(value, ["format", "hosts"]) || value.format !== HEARTBEAT_FORMAT || !isRecord(value.hosts) || !hasOnlyKeys(value.hosts, HOSTS)) return null;
  const hosts: { claude?: HookHeartbeat; codex?: HookHeartbeat; vscode?: HookHeartbeat } = {};
  for (const host of HOSTS) {
    if (!(host in value.hosts)) continue;
    const beat = heartbeatOf(value.hosts[host]);
    if (beat === null) return null;
    hosts[host] = beat;
  }
  return { format: HEARTBEAT_FORMAT, hosts };
}

export function heartbeatPath(workspaceFolder: string): string {
  return path.join(workspaceFolder, ".docket", "hooks", "heartbeat.json");
}

/** One small entry per host; a larger file reads as none. */
const MAX_HEARTBEAT_BYTES = 64 * 1024;

function readFile(workspaceFolder: string): HeartbeatFile | null {
  try {
    const bytes = readContained(workspaceFolder, heartbeatPath(workspaceFolder), MAX_HEARTBEAT_BYTES);
    if (bytes === null) return null;
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    const known = heartbeatFileOf(value);
    if (known !== null) return known;
    const parsed = heartbeatSchemas().HeartbeatFile.safeParse(value);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The latest heartbeat of each host that has one, sorted by host; unreadable files read as none. */
export function readHeartbeats(workspaceFolder: string): HookHeartbeat[] {
  const file = readFile(workspaceFolder);
  if (file === null) return [];
  return HOSTS.map((host) => file.hosts[host]).filter((beat): beat is HookHeartbeat => beat !== undefined);
}

/**
 * Hosts name sessions with UUIDs; anything else is not written (the heartbeat runs on every hook
 * call, before any redaction could, and a session id is the host's text, not Docket's).
 */
const SESSION_ID = /^[0-9A-Za-z]{8}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{12}$/u;

export function storableSessionId(sessionId: string | null): string | null {
  return sessionId !== null && SESSION_ID.test(sessionId) ? sessionId : null;
}

/** Records `beat` as its host's latest entry (temp file + rename); never throws. */
export function recordHeartbeat(workspaceFolder: string, beat: HookHeartbeat): void {
  try {
    const candidate = { ...beat, sessionId: storableSessionId(beat.sessionId) };
    let checked = heartbeatOf(candidate);
    if (checked === null) {
      const parsed = heartbeatSchemas().HookHeartbeat.safeParse(candidate);
      if (!parsed.success) return;
      checked = parsed.data;
    }
    const file = readFile(workspaceFolder) ?? { format: HEARTBEAT_FORMAT, hosts: {} };
    const next: HeartbeatFile = { format: HEARTBEAT_FORMAT, hosts: { ...file.hosts, [checked.host]: checked } };
    const target = heartbeatPath(workspaceFolder);
    // Never through a link: a repository's `.docket/hooks` link must not receive heartbeats.
    ensureDocketFolder(workspaceFolder);
    ensureContainedDirectory(workspaceFolder, path.dirname(target));
    writeFileAtomicContained(workspaceFolder, target, `${JSON.stringify(next)}\n`);
  } catch {
    // best effort: the hook's answer matters, the heartbeat does not
  }
}
