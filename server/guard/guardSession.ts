// Per host session state of the completion guard (`.docket/guard/sessions/<host>-<h24>.json`):
// the latest intake (the human input the session is working on, and whether the host confirmed
// its origin), tool activity bound to it, which intake warnings were already given, which intakes
// block-once already continued, and the last Stop decision (the views show it). Hook-local state,
// not audit: reviews are the ledger facts. Every write is atomic and never through a link; a write
// that fails never turns into a block (the decision that needs it yields instead).
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { readContained, writeFileAtomicContained } from "../workspace/containedFs";
import { storableSessionId } from "../hooks/heartbeat";
import { guardFolder } from "./reviewLocator";

const SESSION_FORMAT = "docket/guard-session/v1";
const MAX_SESSION_BYTES = 64 * 1024;
const MAX_LIST = 64;

/** Why an intake's origin is not confirmed (stable names, in notices and JSON). */
export type IntakeCause = "no-intake" | "session-start-only" | "prompt-unavailable";

export interface Intake {
  readonly intakeId: string;
  /** "user": the host's UserPromptSubmit carried the prompt; otherwise unavailable, never guessed. */
  readonly origin: "user" | "unavailable";
  readonly cause: IntakeCause | null;
  readonly promptSha256: string | null;
  readonly at: string;
  /** Tool calls seen after this intake (PostToolUse). */
  readonly toolCalls: number;
}

export interface StopRecord {
  readonly at: string;
  readonly decision: "silent" | "notice" | "block";
  readonly reviewStatus: string;
  readonly reviewId: string | null;
  readonly remaining: readonly { kind: string; text: string }[];
  readonly notice: string | null;
}

export interface GuardSession {
  readonly format: typeof SESSION_FORMAT;
  readonly host: string;
  readonly sessionId: string;
  readonly intake: Intake | null;
  readonly warned: readonly string[];
  readonly continued: readonly string[];
  readonly lastStop: StopRecord | null;
}

export function sessionsFolder(workspaceFolder: string): string {
  return path.join(guardFolder(workspaceFolder), "sessions");
}

function sessionPath(workspaceFolder: string, host: string, sessionId: string): string {
  const key = createHash("sha256").update(`${host}\0${sessionId}`, "utf8").digest("hex").slice(0, 24);
  return path.join(sessionsFolder(workspaceFolder), `${host}-${key}.json`);
}

/**
 * The session id as stored: a host's UUID as is, anything else only as a digest (a session id is
 * the host's text, written before any redaction could see it — the heartbeat's rule).
 */
export function storedSessionId(sessionId: string): string {
  return storableSessionId(sessionId) ?? `session-${createHash("sha256").update(sessionId, "utf8").digest("hex").slice(0, 16)}`;
}

function emptySession(host: string, sessionId: string): GuardSession {
  return { format: SESSION_FORMAT, host, sessionId: storedSessionId(sessionId), intake: null, warned: [], continued: [], lastStop: null };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= MAX_LIST && value.every((item) => typeof item === "string");
}

/** Parses a session file's text; null when it is not one (a damaged file counts as a new session). */
export function parseSession(text: string): GuardSession | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null) return null;
  const value = raw as Record<string, unknown>;
  if (value.format !== SESSION_FORMAT || typeof value.host !== "string" || typeof value.sessionId !== "string") return null;
  if (!isStringList(value.warned) || !isStringList(value.continued)) return null;
  const intake = value.intake;
  if (intake !== null && (typeof intake !== "object" || typeof (intake as Intake).intakeId !== "string" || typeof (intake as Intake).toolCalls !== "number")) return null;
  return value as unknown as GuardSession;
}

export function readSession(workspaceFolder: string, host: string, sessionId: string): GuardSession {
  try {
    const bytes = readContained(workspaceFolder, sessionPath(workspaceFolder, host, sessionId), MAX_SESSION_BYTES);
    if (bytes === null) return emptySession(host, sessionId);
    const parsed = parseSession(bytes.toString("utf8"));
    return parsed !== null && parsed.host === host && parsed.sessionId === storedSessionId(sessionId) ? parsed : emptySession(host, sessionId);
  } catch {
    return emptySession(host, sessionId);
  }
}

/** Writes the session; false when it could not (the caller must not rely on it). */
export function writeSession(workspaceFolder: string, rawSessionId: string, session: GuardSession): boolean {
  const bounded: GuardSession = { ...session, warned: session.warned.slice(-MAX_LIST), continued: session.continued.slice(-MAX_LIST) };
  try {
    writeFileAtomicContained(workspaceFolder, sessionPath(workspaceFolder, session.host, rawSessionId), `${JSON.stringify(bounded)}\n`, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/** A new intake: every UserPromptSubmit (a new question inside a running turn too) and every session start. */
export function recordIntake(
  workspaceFolder: string,
  host: string,
  sessionId: string,
  input: { readonly prompt: string | null; readonly event: "UserPromptSubmit" | "SessionStart"; readonly at: string },
): boolean {
  const session = readSession(workspaceFolder, host, sessionId);
  const confirmed = input.event === "UserPromptSubmit" && input.prompt !== null && input.prompt.trim() !== "";
  const cause: IntakeCause | null = confirmed ? null : input.event === "SessionStart" ? "session-start-only" : "prompt-unavailable";
  const intake: Intake = {
    intakeId: `intake:${randomBytes(12).toString("hex")}`,
    origin: confirmed ? "user" : "unavailable",
    cause,
    promptSha256: confirmed ? createHash("sha256").update(input.prompt as string, "utf8").digest("hex") : null,
    at: input.at,
    toolCalls: 0,
  };
  // A session start after a confirmed prompt (resume, compaction) keeps waiting on that prompt.
  if (input.event === "SessionStart" && session.intake?.origin === "user") return true;
  return writeSession(workspaceFolder, sessionId, { ...session, intake });
}

/** Tool activity after the latest intake binds to it. */
export function recordToolActivity(workspaceFolder: string, host: string, sessionId: string): boolean {
  const session = readSession(workspaceFolder, host, sessionId);
  if (session.intake === null) return true;
  return writeSession(workspaceFolder, sessionId, { ...session, intake: { ...session.intake, toolCalls: session.intake.toolCalls + 1 } });
}
