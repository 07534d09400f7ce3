// The hosts' hook input, validated only in the fields Docket reads. Unlike Docket's own protocol
// (strict objects: Docket defines both ends), these payloads are defined by Claude Code, Codex and
// VS Code and grow new fields release by release (`prompt_id`, `effort`, `background_tasks`…).
// Rejecting unknown fields would turn every host upgrade into a broken gate, so the schemas are
// loose: extra fields pass through untouched, while every field Docket uses is type-checked.
// zod/mini (zod's tree-shakable API, same validation engine): a hook process starts on every tool
// call, and the full zod API alone costs a large share of a bare Node start.
import * as z from "zod/mini";
import type { HookDialect } from "./toolClassification";

export const HOOK_HOSTS = ["claude", "codex", "vscode"] as const;
export type HookHost = (typeof HOOK_HOSTS)[number];

export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

/** What Docket uses of any host's input, in one shape. */
export interface HookInput {
  readonly dialect: HookDialect;
  readonly sessionId: string | null;
  readonly cwd: string | null;
  readonly toolName: string | null;
  readonly toolUseId: string | null;
  readonly toolInput: unknown;
  readonly toolResponse: unknown;
  readonly prompt: string | null;
  /**
   * Stop only (null elsewhere): the host's own copy of the agent's final answer. Claude Code
   * (since 2.1.47) and Codex (nullable) send `last_assistant_message`; VS Code documents no such
   * field, so either spelling is read when present. An empty string stays an empty string.
   */
  readonly lastAssistantMessage: string | null;
  /**
   * Stop only (false elsewhere): the host says this stop follows an earlier Stop block. True when
   * either `stop_hook_active` or `stopHookActive` is the boolean true (peers' endless-block bug
   * came from reading only one spelling); any other value counts as false.
   */
  readonly stopHookActive: boolean;
  /** Stop only (null elsewhere): the host's transcript file (`transcript_path` / `transcriptPath`), as given. */
  readonly transcriptPath: string | null;
  /** Stop only (null elsewhere): Codex's `turn_id`. */
  readonly turnId: string | null;
}

/**
 * The zod schemas of the fields Docket reads, built on first use: a call whose fields are all of
 * the accepted types never needs them (`acceptedFields` below proves it), and building them is a
 * noticeable part of the hook's start. They stay the rule: anything the direct check does not
 * accept is parsed by them, and their issues are the refusal's text.
 */
function buildHostSchemas() {
  const optionalString = z.optional(z.string());
  /** Claude Code and Codex: snake_case common fields. */
  const SnakeCommon = z.looseObject({
    session_id: optionalString,
    cwd: optionalString,
    hook_event_name: optionalString,
  });
  /** VS Code agent hooks: camelCase common fields, snake_case tool fields. */
  const CamelCommon = z.looseObject({
    sessionId: optionalString,
    cwd: optionalString,
    hookEventName: optionalString,
  });
  const ToolFields = z.looseObject({
    tool_name: z.string().check(z.minLength(1)),
    tool_use_id: optionalString,
    tool_input: z.optional(z.unknown()),
    tool_response: z.optional(z.unknown()),
  });
  const PostToolFields = z.extend(ToolFields, { tool_use_id: z.string().check(z.minLength(1)) });
  // VS Code documents the same `prompt` field as Claude Code and Codex (hooks-reference.md,
  // "UserPromptSubmit input"); nothing else is read.
  const PromptFields = z.looseObject({ prompt: z.string() });
  return { SnakeCommon, CamelCommon, ToolFields, PostToolFields, PromptFields };
}

let hostSchemas: ReturnType<typeof buildHostSchemas> | null = null;

/** The schemas (exported for the differential test, which compares them with `acceptedFields`). */
export function hookInputSchemas(): ReturnType<typeof buildHostSchemas> {
  hostSchemas ??= buildHostSchemas();
  return hostSchemas;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function nonEmptyString(value: unknown): boolean {
  return typeof value === "string" && value.length >= 1;
}

/**
 * True only when the schemas above would accept `record` for `event` in `dialect` (same field
 * reads, same types, same lengths); false sends the record through the schemas, which then decide.
 * `test/unit/hookInputFastPath.test.ts` holds the two to the same answers and the same fields.
 */
export function acceptedFields(dialect: HookDialect, event: HookEvent, record: Record<string, unknown>): boolean {
  const common =
    dialect === "vscode"
      ? optionalString(record.sessionId) && optionalString(record.cwd) && optionalString(record.hookEventName)
      : optionalString(record.session_id) && optionalString(record.cwd) && optionalString(record.hook_event_name);
  if (!common) return false;
  if (event === "PreToolUse") return nonEmptyString(record.tool_name) && optionalString(record.tool_use_id);
  if (event === "PostToolUse") return nonEmptyString(record.tool_name) && nonEmptyString(record.tool_use_id);
  if (event === "UserPromptSubmit") return typeof record.prompt === "string";
  return true;
}

/**
 * Stop fields, all optional and nullable: a host that omits one (older Claude Code has no
 * `last_assistant_message`; VS Code documents only `stop_hook_active`) still gets a Stop decision.
 * A wrongly typed field is read as absent, never a refusal: the Stop answer must not fail on it.
 */
function stopFields(record: Record<string, unknown>): Pick<HookInput, "lastAssistantMessage" | "stopHookActive" | "transcriptPath" | "turnId"> {
  const text = (...keys: string[]): string | null => {
    for (const key of keys) {
      const value = record[key];
      if (typeof value === "string") return value;
    }
    return null;
  };
  return {
    lastAssistantMessage: text("last_assistant_message", "lastAssistantMessage"),
    stopHookActive: record.stop_hook_active === true || record.stopHookActive === true,
    transcriptPath: text("transcript_path", "transcriptPath"),
    turnId: text("turn_id"),
  };
}

const NO_STOP_FIELDS = { lastAssistantMessage: null, stopHookActive: false, transcriptPath: null, turnId: null } as const;

export class HookInputError extends Error {
  constructor(
    readonly problem: "malformed-json" | "too-large" | "wrong-shape",
    message: string,
  ) {
    super(message);
    this.name = "HookInputError";
  }
}

/**
 * VS Code reads `.claude/settings.json` hooks, so a hook installed for Claude may be called by
 * VS Code: its camelCase common fields give it away whatever `--host` says.
 */
export function detectDialect(host: HookHost, value: Record<string, unknown>): HookDialect {
  if (host === "codex") return "codex";
  if (host === "vscode") return "vscode";
  const camel = typeof value.hookEventName === "string" || typeof value.sessionId === "string";
  const snake = typeof value.hook_event_name === "string" || typeof value.session_id === "string";
  return camel && !snake ? "vscode" : "claude";
}

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`)
    .join("; ");
}

/**
 * A record `acceptedFields` did not accept, parsed by the schemas: throws their refusal. Should
 * they accept it after all (the direct check is stricter than they are), nothing is lost but
 * time: the record is then read as accepted, field by field as they read it.
 */
function refuseFields(dialect: HookDialect, event: HookEvent, record: Record<string, unknown>): void {
  const schemas = hookInputSchemas();
  const common = (dialect === "vscode" ? schemas.CamelCommon : schemas.SnakeCommon).safeParse(record);
  if (!common.success) throw new HookInputError("wrong-shape", describeIssues(common.error));
  if (event === "PreToolUse" || event === "PostToolUse") {
    const tool = (event === "PostToolUse" ? schemas.PostToolFields : schemas.ToolFields).safeParse(record);
    if (!tool.success) throw new HookInputError("wrong-shape", describeIssues(tool.error));
  } else if (event === "UserPromptSubmit") {
    const fields = schemas.PromptFields.safeParse(record);
    if (!fields.success) throw new HookInputError("wrong-shape", describeIssues(fields.error));
  }
}

/** Parses the stdin text of one hook call; throws HookInputError for anything unusable. */
export function parseHookInput(host: HookHost, event: HookEvent, text: string): HookInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new HookInputError("malformed-json", "the hook input is not JSON");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new HookInputError("wrong-shape", "the hook input is not a JSON object");
  const record = raw as Record<string, unknown>;
  const dialect = detectDialect(host, record);
  if (!acceptedFields(dialect, event, record)) refuseFields(dialect, event, record);
  const sessionId = dialect === "vscode" ? (record.sessionId as string | undefined) : (record.session_id as string | undefined);
  let toolName: string | null = null;
  let toolUseId: string | null = null;
  let toolInput: unknown = undefined;
  let toolResponse: unknown = undefined;
  let prompt: string | null = null;
  if (event === "PreToolUse" || event === "PostToolUse") {
    toolName = record.tool_name as string;
    toolUseId = (record.tool_use_id as string | undefined) ?? null;
    toolInput = record.tool_input;
    toolResponse = record.tool_response;
  } else if (event === "UserPromptSubmit") {
    prompt = record.prompt as string;
  }
  const stop = event === "Stop" ? stopFields(record) : NO_STOP_FIELDS;
  return { dialect, sessionId: sessionId ?? null, cwd: (record.cwd as string | undefined) ?? null, toolName, toolUseId, toolInput, toolResponse, prompt, ...stop };
}
