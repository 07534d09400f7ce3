// The agent's final answer at a Stop hook: the text Docket compares with a recorded review
// (design: guard.md "At Stop"). The host's own `last_assistant_message` comes first; without one,
// the last assistant message of the host's transcript file. The answer is only ever the thing
// compared — reading it proves nothing, and an answer Docket cannot read is reported as
// unavailable with a code, never guessed and never a crash.
//
// Transcript formats (verified against Claude Code 2.1.332 and Codex 0.171.0 on 2026-12-01):
// - Claude Code `~/.claude/projects/<project>/<session>.jsonl`: one JSON object per line; the
//   assistant's lines are `{"type":"assistant","message":{"id","role":"assistant","content":[…]}}`
//   with `{"type":"text","text"}` blocks among `tool_use`/`thinking` blocks. One model message can
//   span several lines sharing `message.id`. Human prompts are `{"type":"user","message":{"content":
//   "…"}}` (a string, or blocks without `tool_result`); tool results are user lines with `tool_result`.
// - Codex `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl`: `{"type":"response_item","payload":
//   {"type":"message","role":"assistant","content":[{"type":"output_text","text"}]}}`; a turn
//   begins with `{"type":"event_msg","payload":{"type":"task_started",…}}`.
// - VS Code documents `transcript_path` but not its format ("not a stable hook API"), so both
//   shapes above are recognised there.
//
// The transcript lives in the host's home, outside any workspace, so workspace containment does
// not apply; the read is still bounded and safe: an absolute path without NUL, the last component
// opened without following a link (O_NOFOLLOW), opened non-blocking so a FIFO cannot hang the
// hook, only a regular file read, and at most the last `maxBytes` of it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type StopAnswerDialect = "claude" | "codex" | "vscode";

export type StopAnswer =
  | { kind: "text"; text: string; source: "last_assistant_message" | "transcript" }
  | { kind: "unavailable"; reason: string; code: string };

/** How much of a transcript's end is read by default: 8 MiB. */
export const STOP_TRANSCRIPT_MAX_BYTES = 8 * 1024 * 1024;

/** No answer could be found: no host message, no transcript, or no assistant text in it. */
export const ANSWER_UNAVAILABLE = "docket.answer-unavailable";
/** The transcript is not JSON Lines (a complete line that is not a JSON object). */
export const TRANSCRIPT_INVALID = "docket.transcript-invalid";
/** The transcript path is unusable (relative, NUL) or names something that is not a readable regular file. */
export const TRANSCRIPT_UNREADABLE = "docket.transcript-unreadable";

const O_NOFOLLOW: number = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK: number = fs.constants.O_NONBLOCK ?? 0;

function unavailable(code: string, reason: string): StopAnswer {
  return { kind: "unavailable", reason, code };
}

/** The transcript's path as Docket will open it, or why it will not. */
function transcriptFile(given: string): string | StopAnswer {
  if (given.includes("\0")) return unavailable(TRANSCRIPT_UNREADABLE, "the transcript path contains a NUL character");
  // Claude Code's documentation shows `~/.claude/projects/…` in its examples; the hook runs as the host's user.
  const expanded = given.startsWith("~/") ? path.join(os.homedir(), given.slice(2)) : given;
  if (!path.isAbsolute(expanded)) return unavailable(TRANSCRIPT_UNREADABLE, `the transcript path is not absolute: ${JSON.stringify(given.slice(0, 200))}`);
  return expanded;
}

interface TranscriptTail {
  /** Complete lines, oldest first (a line cut by the window's start is dropped). */
  readonly lines: readonly string[];
  /** The last line when it has no newline yet: the host may still be writing it. */
  readonly partial: string | null;
  /** Whether the window began inside the file (older lines were not read). */
  readonly truncated: boolean;
}

/** Reads at most the last `maxBytes` of a regular file without following a final link. */
function readTail(file: string, maxBytes: number): TranscriptTail | StopAnswer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return unavailable(TRANSCRIPT_UNREADABLE, "the transcript path is a symbolic link; Docket does not follow it");
    if (code === "ENOENT") return unavailable(TRANSCRIPT_UNREADABLE, "the transcript file does not exist");
    return unavailable(TRANSCRIPT_UNREADABLE, `the transcript could not be opened (${code ?? (error as Error).message})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return unavailable(TRANSCRIPT_UNREADABLE, "the transcript path is not a regular file");
    const length = Math.min(stat.size, maxBytes);
    const start = stat.size - length;
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, buffer, read, length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    let bytes = buffer.subarray(0, read);
    if (start > 0) {
      const newline = bytes.indexOf(0x0a);
      bytes = newline === -1 ? Buffer.alloc(0) : bytes.subarray(newline + 1);
    }
    const text = bytes.toString("utf8");
    const end = text.lastIndexOf("\n");
    const complete = end === -1 ? "" : text.slice(0, end);
    const rest = end === -1 ? text : text.slice(end + 1);
    return { lines: complete === "" ? [] : complete.split("\n"), partial: rest.trim() === "" ? null : rest, truncated: start > 0 };
  } catch (error) {
    return unavailable(TRANSCRIPT_UNREADABLE, `the transcript could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  } finally {
    fs.closeSync(fd);
  }
}

type Line = Record<string, unknown>;

function record(value: unknown): Line | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Line) : null;
}

/** What one transcript line is, for finding the last answer. */
type LineRole =
  | { readonly kind: "assistant"; readonly messageId: string | null; readonly texts: readonly string[] }
  /** A new human turn: anything older belongs to an earlier question. */
  | { readonly kind: "turn-start" }
  | { readonly kind: "other" };

const OTHER: LineRole = { kind: "other" };

function textBlocks(content: unknown, types: readonly string[]): string[] {
  if (typeof content === "string") return types.includes("text") ? [content] : [];
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const block of content) {
    const entry = record(block);
    if (entry !== null && typeof entry.type === "string" && types.includes(entry.type) && typeof entry.text === "string") texts.push(entry.text);
  }
  return texts;
}

function claudeLine(line: Line): LineRole {
  // Sidechain lines are a subagent's conversation, not the answer to the user.
  if (line.isSidechain === true) return OTHER;
  const message = record(line.message);
  if (line.type === "assistant" && message !== null) {
    if (line.isApiErrorMessage === true) return OTHER;
    return { kind: "assistant", messageId: typeof message.id === "string" ? message.id : null, texts: textBlocks(message.content, ["text"]) };
  }
  if (line.type === "user" && message !== null && line.isMeta !== true) {
    const content = message.content;
    if (typeof content === "string") return { kind: "turn-start" };
    if (Array.isArray(content) && !content.some((block) => record(block)?.type === "tool_result") && textBlocks(content, ["text"]).length > 0) {
      return { kind: "turn-start" };
    }
  }
  return OTHER;
}

function codexLine(line: Line): LineRole {
  const payload = record(line.payload);
  if (payload === null) return OTHER;
  if (line.type === "response_item" && payload.type === "message" && payload.role === "assistant") {
    return { kind: "assistant", messageId: typeof payload.id === "string" ? payload.id : null, texts: textBlocks(payload.content, ["output_text"]) };
  }
  if (line.type === "event_msg" && (payload.type === "task_started" || payload.type === "user_message")) return { kind: "turn-start" };
  return OTHER;
}

function classify(dialect: StopAnswerDialect, line: Line): LineRole {
  if (dialect === "claude") return claudeLine(line);
  if (dialect === "codex") return codexLine(line);
  const claude = claudeLine(line);
  return claude.kind !== "other" ? claude : codexLine(line);
}

function parseLine(text: string): Line | null {
  try {
    return record(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * The text of the last assistant message in a transcript's lines, read from the end. Lines of one
 * message (same id, Claude writes one per content block) are joined in file order; a message with
 * no text, or a turn that began with no assistant message since, has no answer.
 */
function lastAnswer(dialect: StopAnswerDialect, tail: TranscriptTail): StopAnswer {
  const lines = [...tail.lines];
  // A last line without its newline is still being written: used if it parses, skipped if not.
  if (tail.partial !== null && parseLine(tail.partial) !== null) lines.push(tail.partial);
  let found: { messageId: string | null; texts: string[] } | null = null;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const text = lines[index] as string;
    if (text.trim() === "") continue;
    const line = parseLine(text);
    if (line === null) return unavailable(TRANSCRIPT_INVALID, `the transcript is not JSON Lines: a line ${lines.length - index} from its end is not a JSON object`);
    const role = classify(dialect, line);
    if (found === null) {
      if (role.kind === "turn-start") return unavailable(ANSWER_UNAVAILABLE, "the transcript holds no assistant message after the last prompt");
      if (role.kind === "assistant") {
        found = { messageId: role.messageId, texts: [...role.texts] };
        if (role.messageId === null) break;
      }
      continue;
    }
    // Earlier lines of the same message (Claude writes thinking, text and tool blocks separately).
    if (role.kind === "assistant" && role.messageId === found.messageId) found.texts.unshift(...role.texts);
    else if (role.kind !== "other") break;
  }
  if (found === null) {
    const where = tail.truncated ? "in the part of the transcript Docket reads" : "in the transcript";
    return unavailable(ANSWER_UNAVAILABLE, `there is no assistant message ${where}`);
  }
  const answer = found.texts.join("\n");
  if (answer.trim() === "") return unavailable(ANSWER_UNAVAILABLE, "the last assistant message in the transcript has no text");
  return { kind: "text", text: answer, source: "transcript" };
}

/**
 * The agent's final answer at Stop: a non-empty `last_assistant_message` from the host, else the
 * last assistant message of the host's transcript (JSON Lines, its last `maxBytes` only), else
 * unavailable with a code (`docket.answer-unavailable`, `docket.transcript-invalid`,
 * `docket.transcript-unreadable`). Never throws for anything a host or file system can present.
 */
export function stopAnswer(
  input: { lastAssistantMessage: string | null; transcriptPath: string | null; dialect: StopAnswerDialect },
  options?: { maxBytes?: number },
): StopAnswer {
  if (input.lastAssistantMessage !== null && input.lastAssistantMessage.trim() !== "") {
    return { kind: "text", text: input.lastAssistantMessage, source: "last_assistant_message" };
  }
  const given = input.transcriptPath;
  if (given === null || given.trim() === "") {
    return unavailable(ANSWER_UNAVAILABLE, "the host sent no final answer (last_assistant_message) and no transcript path");
  }
  const requested = options?.maxBytes;
  const maxBytes = requested !== undefined && Number.isSafeInteger(requested) && requested > 0 ? requested : STOP_TRANSCRIPT_MAX_BYTES;
  try {
    const file = transcriptFile(given);
    if (typeof file !== "string") return file;
    const tail = readTail(file, maxBytes);
    if ("kind" in tail) return tail;
    return lastAnswer(input.dialect, tail);
  } catch (error) {
    return unavailable(TRANSCRIPT_UNREADABLE, `the transcript could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
