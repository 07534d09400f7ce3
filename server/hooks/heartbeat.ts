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
const Host = z.enum(HOSTS);

export const HookHeartbeat = z.strictObject({
  host: Host,
  event: z.string().check(z.maxLength(100)),
  sessionId: z.nullable(z.string().check(z.maxLength(500))),
  /** ISO time of the call; for people, never used for ordering anything hashed. */
  at: z.string().check(z.maxLength(40)),
});
export type HookHeartbeat = z.infer<typeof HookHeartbeat>;

const HeartbeatFile = z.strictObject({
  format: z.literal(HEARTBEAT_FORMAT),
  hosts: z.strictObject({ claude: z.optional(HookHeartbeat), codex: z.optional(HookHeartbeat), vscode: z.optional(HookHeartbeat) }),
});
type HeartbeatFile = z.infer<typeof HeartbeatFile>;

export function heartbeatPath(workspaceFolder: string): string {
  return path.join(workspaceFolder, ".docket", "hooks", "heartbeat.json");
}

/** One small entry per host; a larger file reads as none. */
const MAX_HEARTBEAT_BYTES = 64 * 1024;

function readFile(workspaceFolder: string): HeartbeatFile | null {
  try {
    const bytes = readContained(workspaceFolder, heartbeatPath(workspaceFolder), MAX_HEARTBEAT_BYTES);
    if (bytes === null) return null;
    const parsed = HeartbeatFile.safeParse(JSON.parse(bytes.toString("utf8")));
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
    const parsed = HookHeartbeat.safeParse({ ...beat, sessionId: storableSessionId(beat.sessionId) });
    if (!parsed.success) return;
    const file = readFile(workspaceFolder) ?? { format: HEARTBEAT_FORMAT, hosts: {} };
    const next: HeartbeatFile = { format: HEARTBEAT_FORMAT, hosts: { ...file.hosts, [parsed.data.host]: parsed.data } };
    const target = heartbeatPath(workspaceFolder);
    // Never through a link: a repository's `.docket/hooks` link must not receive heartbeats.
    ensureDocketFolder(workspaceFolder);
    ensureContainedDirectory(workspaceFolder, path.dirname(target));
    writeFileAtomicContained(workspaceFolder, target, `${JSON.stringify(next)}\n`);
  } catch {
    // best effort: the hook's answer matters, the heartbeat does not
  }
}
