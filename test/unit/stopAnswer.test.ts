// The final answer at Stop (server/guard/stopAnswer.ts): the host's last_assistant_message first,
// else the last assistant message of the host's real transcript format (fixtures trimmed from
// transcripts Claude Code 2.1.332 and Codex 0.171.0 wrote in a stub-model session), else a coded
// "unavailable". Hostile transcripts (FIFO, links to devices, huge files, malformed or partial
// lines) are refused at once and never hang or throw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ANSWER_UNAVAILABLE, STOP_TRANSCRIPT_MAX_BYTES, stopAnswer, TRANSCRIPT_INVALID, TRANSCRIPT_UNREADABLE } from "../../server/guard/stopAnswer";
import { repoRoot } from "../support/repoRoot";
import { tempFolder } from "../support/gitRepo";

const TRANSCRIPTS = path.join(repoRoot(), "test", "fixtures", "transcripts");
const CLAUDE = path.join(TRANSCRIPTS, "claude-2.1.332.jsonl");
const CODEX = path.join(TRANSCRIPTS, "codex-0.171.0.jsonl");

function withFolder(run: (folder: string) => void): void {
  const folder = tempFolder("docket-stop-answer-");
  try {
    run(folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

function write(folder: string, name: string, lines: readonly unknown[], tail = "\n"): string {
  const file = path.join(folder, name);
  fs.writeFileSync(file, lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + tail);
  return file;
}

const claudeUser = (content: unknown) => ({ type: "user", isSidechain: false, message: { role: "user", content } });
const claudeAssistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "assistant",
  isSidechain: false,
  message: { id, type: "message", role: "assistant", content },
  ...extra,
});
const codexAssistant = (text: string) => ({ type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] } });
const codexTurn = { type: "event_msg", payload: { type: "task_started", turn_id: "t2" } };

test("the host's last_assistant_message comes first; an empty or blank one falls back to the transcript", () => {
  assert.deepEqual(stopAnswer({ lastAssistantMessage: "Done.", transcriptPath: CLAUDE, dialect: "claude" }), {
    kind: "text",
    text: "Done.",
    source: "last_assistant_message",
  });
  for (const blank of ["", "  \n"]) {
    assert.deepEqual(stopAnswer({ lastAssistantMessage: blank, transcriptPath: CLAUDE, dialect: "claude" }), { kind: "text", text: "Finished.", source: "transcript" });
  }
  const none = stopAnswer({ lastAssistantMessage: null, transcriptPath: null, dialect: "codex" });
  assert.equal(none.kind, "unavailable");
  assert.equal(none.kind === "unavailable" && none.code, ANSWER_UNAVAILABLE);
  assert.equal(STOP_TRANSCRIPT_MAX_BYTES, 8 * 1024 * 1024);
});

test("the real transcript formats: Claude Code's assistant text blocks, Codex's output_text", () => {
  assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: CLAUDE, dialect: "claude" }), { kind: "text", text: "Finished.", source: "transcript" });
  assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: CODEX, dialect: "codex" }), { kind: "text", text: "Finished.", source: "transcript" });
  // VS Code documents no transcript format: both shapes are recognised there.
  assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: CLAUDE, dialect: "vscode" }), { kind: "text", text: "Finished.", source: "transcript" });
  assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: CODEX, dialect: "vscode" }), { kind: "text", text: "Finished.", source: "transcript" });
  // One host's file read as the other's holds no answer (never a guess).
  const crossed = stopAnswer({ lastAssistantMessage: null, transcriptPath: CODEX, dialect: "claude" });
  assert.equal(crossed.kind === "unavailable" && crossed.code, ANSWER_UNAVAILABLE);
});

test("Claude: one message split over several lines is joined; sidechains, API errors and tool blocks are skipped", () => {
  withFolder((folder) => {
    const file = write(folder, "c.jsonl", [
      claudeUser("Fix the bug."),
      claudeAssistant("m1", [{ type: "text", text: "Looking." }, { type: "tool_use", id: "t", name: "Bash", input: {} }]),
      claudeUser([{ type: "tool_result", tool_use_id: "t", content: "ok" }]),
      claudeAssistant("m2", [{ type: "thinking", thinking: "hm" }]),
      claudeAssistant("m2", [{ type: "text", text: "Fixed it." }]),
      claudeAssistant("m2", [{ type: "text", text: "Tests pass." }]),
      claudeAssistant("side", [{ type: "text", text: "subagent words" }], { isSidechain: true }),
      claudeAssistant("err", [{ type: "text", text: "API Error: 500" }], { isApiErrorMessage: true }),
      { type: "last-prompt", lastPrompt: "Fix the bug." },
    ]);
    assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: file, dialect: "claude" }), { kind: "text", text: "Fixed it.\nTests pass.", source: "transcript" });
  });
});

test("an answer from an earlier turn is never taken for this one", () => {
  withFolder((folder) => {
    const claude = write(folder, "c.jsonl", [claudeUser("One?"), claudeAssistant("m1", [{ type: "text", text: "Old answer." }]), claudeUser([{ type: "text", text: "Two?" }])]);
    const first = stopAnswer({ lastAssistantMessage: null, transcriptPath: claude, dialect: "claude" });
    assert.equal(first.kind === "unavailable" && first.code, ANSWER_UNAVAILABLE);
    const codex = write(folder, "x.jsonl", [codexAssistant("Old answer."), codexTurn]);
    const second = stopAnswer({ lastAssistantMessage: null, transcriptPath: codex, dialect: "codex" });
    assert.equal(second.kind === "unavailable" && second.code, ANSWER_UNAVAILABLE);
    // The last assistant message without text (a bare tool call) is no answer either.
    const bare = write(folder, "b.jsonl", [claudeUser("Go."), claudeAssistant("m1", [{ type: "text", text: "Earlier text." }]), claudeAssistant("m2", [{ type: "tool_use", id: "t", name: "Bash", input: {} }])]);
    const third = stopAnswer({ lastAssistantMessage: null, transcriptPath: bare, dialect: "claude" });
    assert.equal(third.kind === "unavailable" && third.code, ANSWER_UNAVAILABLE);
  });
});

test("malformed lines: not JSON Lines is docket.transcript-invalid; a partial last line is still being written", () => {
  withFolder((folder) => {
    const garbage = write(folder, "g.jsonl", [codexAssistant("Answer."), "this is not json"]);
    const invalid = stopAnswer({ lastAssistantMessage: null, transcriptPath: garbage, dialect: "codex" });
    assert.equal(invalid.kind === "unavailable" && invalid.code, TRANSCRIPT_INVALID);
    const array = write(folder, "a.jsonl", [[1, 2, 3]]);
    const notObject = stopAnswer({ lastAssistantMessage: null, transcriptPath: array, dialect: "codex" });
    assert.equal(notObject.kind === "unavailable" && notObject.code, TRANSCRIPT_INVALID);
    const binary = path.join(folder, "bin.jsonl");
    fs.writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x7b, 0x0a]));
    const bytes = stopAnswer({ lastAssistantMessage: null, transcriptPath: binary, dialect: "claude" });
    assert.equal(bytes.kind === "unavailable" && bytes.code, TRANSCRIPT_INVALID);
    // A cut-off last line (no newline, not JSON yet) is skipped: the complete lines still answer.
    const partial = write(folder, "p.jsonl", [codexAssistant("Complete answer.")], `\n{"type":"response_item","payload":{"type":"mess`);
    assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: partial, dialect: "codex" }), { kind: "text", text: "Complete answer.", source: "transcript" });
    // A complete last line without its newline is used.
    const unterminated = write(folder, "u.jsonl", [codexTurn, codexAssistant("Last.")], "");
    assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: unterminated, dialect: "codex" }), { kind: "text", text: "Last.", source: "transcript" });
    const blankLines = write(folder, "e.jsonl", ["", codexAssistant("With blanks."), "", "   "]);
    assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: blankLines, dialect: "codex" }), { kind: "text", text: "With blanks.", source: "transcript" });
    const empty = write(folder, "empty.jsonl", [], "");
    const nothing = stopAnswer({ lastAssistantMessage: null, transcriptPath: empty, dialect: "codex" });
    assert.equal(nothing.kind === "unavailable" && nothing.code, ANSWER_UNAVAILABLE);
  });
});

test("a huge transcript: only its last maxBytes are read, the first cut line dropped", () => {
  withFolder((folder) => {
    const file = path.join(folder, "huge.jsonl");
    const filler = `${JSON.stringify({ type: "event_msg", payload: { type: "token_count", pad: "x".repeat(1000) } })}\n`;
    const fd = fs.openSync(file, "w");
    try {
      // Garbage the window never reaches, then 64 KiB of valid lines and the answer.
      fs.writeSync(fd, "not json at all\n".repeat(1024));
      fs.writeSync(fd, `${JSON.stringify(codexAssistant("Early."))}\n`);
      for (let index = 0; index < 64; index += 1) fs.writeSync(fd, filler);
      fs.writeSync(fd, `${JSON.stringify(codexAssistant("The end."))}\n`);
    } finally {
      fs.closeSync(fd);
    }
    assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: file, dialect: "codex" }, { maxBytes: 32 * 1024 }), { kind: "text", text: "The end.", source: "transcript" });
    // An answer older than the window is not found (and the garbage before it is never read).
    fs.appendFileSync(file, filler.repeat(64));
    const old = stopAnswer({ lastAssistantMessage: null, transcriptPath: file, dialect: "codex" }, { maxBytes: 32 * 1024 });
    assert.equal(old.kind === "unavailable" && old.code, ANSWER_UNAVAILABLE);
    assert.match(old.kind === "unavailable" ? old.reason : "", /part of the transcript/u);
    // One line longer than the window: no complete line to read.
    const long = path.join(folder, "long.jsonl");
    fs.writeFileSync(long, `${JSON.stringify(codexAssistant("y".repeat(100_000)))}\n`);
    const cut = stopAnswer({ lastAssistantMessage: null, transcriptPath: long, dialect: "codex" }, { maxBytes: 4096 });
    assert.equal(cut.kind === "unavailable" && cut.code, ANSWER_UNAVAILABLE);
    // A sparse 9 GiB file is read only at its end, quickly.
    const sparse = path.join(folder, "sparse.jsonl");
    const sfd = fs.openSync(sparse, "w");
    try {
      fs.ftruncateSync(sfd, 9 * 1024 * 1024 * 1024);
      fs.writeSync(sfd, `\n${JSON.stringify(codexAssistant("Far away."))}\n`, 9 * 1024 * 1024 * 1024);
    } finally {
      fs.closeSync(sfd);
    }
    const started = Date.now();
    assert.deepEqual(stopAnswer({ lastAssistantMessage: null, transcriptPath: sparse, dialect: "codex" }), { kind: "text", text: "Far away.", source: "transcript" });
    assert.ok(Date.now() - started < 5_000);
    // A nonsensical bound falls back to the default instead of reading nothing or everything.
    assert.equal(stopAnswer({ lastAssistantMessage: null, transcriptPath: CODEX, dialect: "codex" }, { maxBytes: -1 }).kind, "text");
  });
});

test("hostile paths: relative, NUL, a link, a link to /dev/zero, /dev/zero itself, a FIFO, a folder, a missing file", () => {
  withFolder((folder) => {
    const unreadable = (transcriptPath: string): string => {
      const result = stopAnswer({ lastAssistantMessage: null, transcriptPath, dialect: "claude" });
      assert.equal(result.kind, "unavailable", transcriptPath);
      return result.kind === "unavailable" ? result.code : "";
    };
    assert.equal(unreadable("transcript.jsonl"), TRANSCRIPT_UNREADABLE);
    assert.equal(unreadable("../x/transcript.jsonl"), TRANSCRIPT_UNREADABLE);
    assert.equal(unreadable(`${CLAUDE}\0.txt`), TRANSCRIPT_UNREADABLE);
    const link = path.join(folder, "link.jsonl");
    fs.symlinkSync(CLAUDE, link);
    assert.equal(unreadable(link), TRANSCRIPT_UNREADABLE, "a final link is never followed, even to a real transcript");
    const zero = path.join(folder, "zero.jsonl");
    fs.symlinkSync("/dev/zero", zero);
    assert.equal(unreadable(zero), TRANSCRIPT_UNREADABLE);
    assert.equal(unreadable("/dev/zero"), TRANSCRIPT_UNREADABLE);
    assert.equal(unreadable(folder), TRANSCRIPT_UNREADABLE);
    assert.equal(unreadable(path.join(folder, "missing.jsonl")), TRANSCRIPT_UNREADABLE);
    // A folder link in the middle of the path is the user's own layout (e.g. a linked ~/.claude): followed.
    const linkedFolder = path.join(folder, "linked");
    fs.symlinkSync(TRANSCRIPTS, linkedFolder);
    assert.equal(stopAnswer({ lastAssistantMessage: null, transcriptPath: path.join(linkedFolder, "claude-2.1.332.jsonl"), dialect: "claude" }).kind, "text");
    const fifo = path.join(folder, "fifo.jsonl");
    const made = spawnSync("mkfifo", [fifo]);
    if (made.status === 0) {
      const started = Date.now();
      assert.equal(unreadable(fifo), TRANSCRIPT_UNREADABLE, "a FIFO with no writer is refused, not waited on");
      const fifoLink = path.join(folder, "fifo-link.jsonl");
      fs.symlinkSync(fifo, fifoLink);
      assert.equal(unreadable(fifoLink), TRANSCRIPT_UNREADABLE);
      assert.ok(Date.now() - started < 2_000);
    }
  });
});

test("an unreadable transcript file is unavailable, not a crash", { skip: process.getuid?.() === 0 ? "root reads every file" : false }, () => {
  withFolder((folder) => {
    const file = write(folder, "locked.jsonl", [codexAssistant("Secret.")]);
    fs.chmodSync(file, 0o000);
    const result = stopAnswer({ lastAssistantMessage: null, transcriptPath: file, dialect: "codex" });
    assert.equal(result.kind === "unavailable" && result.code, TRANSCRIPT_UNREADABLE);
  });
});
