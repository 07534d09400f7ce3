// The pure parts of the hook path: tool classification per host, input dialects (tolerant of new
// host fields, strict about the fields Docket uses), the rendered output against each host's
// documented schema, and the installers' command line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyTool, DOCKET_MCP_TOOLS, isExtensibleToolName, TOOL_TABLES } from "../../server/hooks/toolClassification";
import { scanToolPaths } from "../../server/hooks/toolPaths";
import { CODEX_BLOCK_BEGIN, CODEX_BLOCK_END } from "../../server/hooks/docketServer";
import { TOML_BEGIN, TOML_END } from "../../server/agents/codexToml";
import { DOCKET_TOOL_NAMES } from "../../server/mcp/tools";
import { detectDialect, HookInputError, parseHookInput, HOOK_EVENTS } from "../../server/hooks/hostInput";
import { renderDecision, MAX_HOOK_TEXT, type HookDecision } from "../../server/hooks/hostOutput";
import { HOST_OUTPUT_SCHEMAS } from "../../server/hooks/hostOutputSchemas";
import { hookCommand } from "../../server/hooks/hookCommand";
import { parseHookArgs, readBoundedStdin } from "../../server/hooks/hookCli";
import { PassThrough } from "node:stream";
import { computeToolPolicy } from "../../server/developer/toolPolicy";

test("tool classification: fail closed — shell, edit, known read-only, Docket's own and unknown, per host", () => {
  const cases: [Parameters<typeof classifyTool>[0], string, ReturnType<typeof classifyTool>][] = [
    ["claude", "Bash", "shell"],
    ["claude", "PowerShell", "shell"],
    ["claude", "mcp__ide__executeCode", "shell"],
    ["claude", "Edit", "edit"],
    ["claude", "Write", "edit"],
    ["claude", "MultiEdit", "edit"],
    ["claude", "NotebookEdit", "edit"],
    ["claude", "Read", "read"],
    ["claude", "Grep", "read"],
    ["claude", "Glob", "read"],
    ["claude", "WebFetch", "read"],
    ["claude", "mcp__docket__open_judgment", "docket"],
    ["claude", "mcp__docket__status", "docket"],
    ["claude", "mcp__docket__run_anything", "unknown"],
    ["claude", "mcp__github__create_issue", "unknown"],
    ["claude", "Skill", "unknown"],
    ["claude", "EnterWorktree", "unknown"],
    ["claude", "bash", "unknown"],
    ["claude", "", "unknown"],
    ["codex", "Bash", "shell"],
    ["codex", "shell", "shell"],
    ["codex", "exec_command", "shell"],
    ["codex", "apply_patch", "edit"],
    ["codex", "mcp__docket__status", "docket"],
    ["codex", "view_image", "read"],
    ["codex", "mcp__github__search_issues", "unknown"],
    ["codex", "spawn_agent", "unknown"],
    ["vscode", "runTerminalCommand", "shell"],
    ["vscode", "run_in_terminal", "shell"],
    ["vscode", "run_notebook_cell", "shell"],
    ["vscode", "run_vscode_command", "shell"],
    ["vscode", "runTests", "shell"],
    ["vscode", "install_python_packages", "shell"],
    ["vscode", "editFiles", "edit"],
    ["vscode", "createFile", "edit"],
    ["vscode", "replace_string_in_file", "edit"],
    ["vscode", "insert_edit_into_file", "edit"],
    ["vscode", "create_file", "edit"],
    ["vscode", "mcp_docket_conclude_judgment", "docket"],
    ["vscode", "readFile", "read"],
    ["vscode", "read_file", "read"],
    ["vscode", "copilot_readFile", "read"],
    ["vscode", "Bash", "unknown"],
    ["vscode", "mcp_github_create_issue", "unknown"],
  ];
  for (const [dialect, tool, expected] of cases) assert.equal(classifyTool(dialect, tool), expected, `${dialect} ${tool}`);
  for (const table of Object.values(TOOL_TABLES)) {
    for (const name of table.shell) assert.ok(!table.edit.has(name) && !table.read.has(name), `${name} is one class only`);
    for (const name of table.edit) assert.ok(!table.read.has(name), `${name} is one class only`);
  }
});

test("the user's read-only additions widen reading only: never a shell, edit or Docket name", () => {
  const extra = new Set(["mcp__github__get_issue", "Bash", "apply_patch", "runTerminalCommand", "mcp__docket__evil", "bad name"]);
  assert.equal(classifyTool("claude", "mcp__github__get_issue", extra), "read");
  assert.equal(classifyTool("codex", "mcp__github__get_issue", extra), "read");
  assert.equal(classifyTool("claude", "Bash", extra), "shell");
  assert.equal(classifyTool("codex", "apply_patch", extra), "edit");
  assert.equal(classifyTool("vscode", "runTerminalCommand", extra), "shell");
  assert.equal(classifyTool("claude", "mcp__docket__evil", extra), "unknown");
  assert.equal(classifyTool("claude", "bad name", extra), "unknown");
  for (const name of ["Bash", "Edit", "apply_patch", "run_in_terminal", "mcp__docket__status", "mcp_docket_x", "", "a b", "x".repeat(129)]) {
    assert.equal(isExtensibleToolName(name), false, name);
  }
  for (const name of ["mcp__github__get_issue", "my.tool:read", "Read"]) assert.equal(isExtensibleToolName(name), true, name);
});

test("Docket's own tool names are exactly the MCP server's tools", () => {
  assert.deepEqual([...DOCKET_MCP_TOOLS].sort(), [...DOCKET_TOOL_NAMES].sort());
});

test("tool paths: every path-like field and every patch header, bounded", () => {
  assert.deepEqual(scanToolPaths({ file_path: "/w/a.ts", content: "/not/a/path" }).paths, ["/w/a.ts"]);
  assert.deepEqual(scanToolPaths({ notebook_path: "n.ipynb", cwd: "/w/x" }).paths, ["n.ipynb", "/w/x"]);
  assert.deepEqual(scanToolPaths({ files: ["a", "b"], filePath: "c", nested: [{ workdir: "/d" }] }).paths, ["a", "b", "c", "/d"]);
  const patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-1\n+2\n*** Add File: ../outside/b.ts\n+x\n*** Move to: /abs/c.ts\n*** End Patch\n";
  assert.deepEqual(scanToolPaths({ command: patch }).paths, ["src/a.ts", "../outside/b.ts", "/abs/c.ts"]);
  assert.deepEqual(scanToolPaths(patch).paths, ["src/a.ts", "../outside/b.ts", "/abs/c.ts"]);
  assert.deepEqual(scanToolPaths(null).paths, []);
  const many = scanToolPaths({ paths: Array.from({ length: 5_000 }, (_, index) => `f${index}`) });
  assert.equal(many.overflow, true);
  let deep: unknown = { path: "/deep" };
  for (let index = 0; index < 10_000; index += 1) deep = { next: deep };
  assert.deepEqual(scanToolPaths(deep).paths, ["/deep"], "deep nesting does not overflow the stack");
});

test("Codex block markers the hook reads are the installer's", () => {
  assert.equal(CODEX_BLOCK_BEGIN, TOML_BEGIN);
  assert.equal(CODEX_BLOCK_END, TOML_END);
});

const claudePre = {
  session_id: "s",
  cwd: "/w",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_use_id: "toolu_1",
};

test("input: host fields Docket does not use are tolerated; the fields it uses are checked", () => {
  const parsed = parseHookInput("claude", "PreToolUse", JSON.stringify({ ...claudePre, prompt_id: "p", effort: { level: "high" }, brandNew: [1, 2] }));
  assert.deepEqual(
    { dialect: parsed.dialect, sessionId: parsed.sessionId, cwd: parsed.cwd, toolName: parsed.toolName, toolUseId: parsed.toolUseId },
    { dialect: "claude", sessionId: "s", cwd: "/w", toolName: "Bash", toolUseId: "toolu_1" },
  );
  const problem = (text: string, event: (typeof HOOK_EVENTS)[number] = "PreToolUse"): string => {
    try {
      parseHookInput("claude", event, text);
    } catch (error) {
      assert.ok(error instanceof HookInputError);
      return error.problem;
    }
    return "accepted";
  };
  assert.equal(problem("{"), "malformed-json");
  assert.equal(problem("[]"), "wrong-shape");
  assert.equal(problem("null"), "wrong-shape");
  assert.equal(problem(JSON.stringify({ ...claudePre, tool_name: 7 })), "wrong-shape");
  assert.equal(problem(JSON.stringify({ ...claudePre, session_id: 7 })), "wrong-shape");
  assert.equal(problem(JSON.stringify({ ...claudePre, tool_use_id: undefined }), "PostToolUse"), "wrong-shape");
  assert.equal(problem(JSON.stringify({ session_id: "s" }), "UserPromptSubmit"), "wrong-shape");
  assert.equal(problem(JSON.stringify({ session_id: "s" }), "Stop"), "accepted");
});

test("input: VS Code's camelCase shape selects the VS Code dialect even through Claude's hooks", () => {
  assert.equal(detectDialect("claude", { sessionId: "v", hookEventName: "PreToolUse" }), "vscode");
  assert.equal(detectDialect("claude", { session_id: "c", hook_event_name: "PreToolUse" }), "claude");
  assert.equal(detectDialect("codex", { sessionId: "v" }), "codex");
  assert.equal(detectDialect("vscode", { session_id: "c" }), "vscode");
  const parsed = parseHookInput("claude", "PreToolUse", JSON.stringify({ sessionId: "v1", hookEventName: "PreToolUse", cwd: "/w", tool_name: "runTerminalCommand", tool_input: {} }));
  assert.equal(parsed.dialect, "vscode");
  assert.equal(parsed.sessionId, "v1");
  assert.equal(parsed.toolUseId, null);
});

test("input: Stop fields per dialect; absent, null and wrongly typed fields never refuse a Stop", () => {
  const claude = parseHookInput(
    "claude",
    "Stop",
    JSON.stringify({ session_id: "s", transcript_path: "/h/.claude/projects/p/s.jsonl", cwd: "/w", hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "Done.", background_tasks: [] }),
  );
  assert.deepEqual(
    { m: claude.lastAssistantMessage, a: claude.stopHookActive, t: claude.transcriptPath, turn: claude.turnId },
    { m: "Done.", a: true, t: "/h/.claude/projects/p/s.jsonl", turn: null },
  );
  const codexStop = {
    session_id: "019a",
    turn_id: "turn-7",
    transcript_path: null,
    cwd: "/w",
    hook_event_name: "Stop",
    model: "gpt-5.5",
    permission_mode: "default",
    stop_hook_active: false,
    last_assistant_message: null,
  };
  const codex = parseHookInput("codex", "Stop", JSON.stringify(codexStop));
  assert.deepEqual({ m: codex.lastAssistantMessage, a: codex.stopHookActive, t: codex.transcriptPath, turn: codex.turnId }, { m: null, a: false, t: null, turn: "turn-7" });
  // VS Code documents only stop_hook_active; camelCase spellings are read too (peers' loop bug).
  const vscode = parseHookInput("claude", "Stop", JSON.stringify({ sessionId: "v", hookEventName: "Stop", timestamp: "t", stopHookActive: true, lastAssistantMessage: "Hi", transcriptPath: "/t.json" }));
  assert.deepEqual({ d: vscode.dialect, m: vscode.lastAssistantMessage, a: vscode.stopHookActive, t: vscode.transcriptPath }, { d: "vscode", m: "Hi", a: true, t: "/t.json" });
  // Either spelling true is true, even when the other says false.
  assert.equal(parseHookInput("vscode", "Stop", JSON.stringify({ stop_hook_active: false, stopHookActive: true })).stopHookActive, true);
  assert.equal(parseHookInput("claude", "Stop", JSON.stringify({ session_id: "s", stop_hook_active: true, stopHookActive: false })).stopHookActive, true);
  for (const odd of ["true", 1, null, {}, [true]]) {
    const parsed = parseHookInput("codex", "Stop", JSON.stringify({ ...codexStop, stop_hook_active: odd, last_assistant_message: 5, transcript_path: { p: 1 }, turn_id: 9 }));
    assert.deepEqual({ m: parsed.lastAssistantMessage, a: parsed.stopHookActive, t: parsed.transcriptPath, turn: parsed.turnId }, { m: null, a: false, t: null, turn: null });
  }
  // Other events carry none of them.
  const pre = parseHookInput("claude", "PreToolUse", JSON.stringify({ ...claudePre, stop_hook_active: true, last_assistant_message: "x", transcript_path: "/t" }));
  assert.deepEqual({ m: pre.lastAssistantMessage, a: pre.stopHookActive, t: pre.transcriptPath, turn: pre.turnId }, { m: null, a: false, t: null, turn: null });
  // VS Code's UserPromptSubmit names the prompt `prompt`, like the others (hooks-reference.md).
  assert.equal(parseHookInput("vscode", "UserPromptSubmit", JSON.stringify({ sessionId: "v", hookEventName: "UserPromptSubmit", prompt: "Go." })).prompt, "Go.");
});

test("output: every rendered decision matches the host's documented schema; Codex never gets allow or ask", () => {
  const denied = computeToolPolicy({
    blocked: false,
    scopeActive: true,
    authorizationActive: false,
    openFrame: true,
    concludedFrameExists: false,
    reroutePending: false,
    verificationPending: false,
  });
  assert.ok(denied.reason !== null);
  for (const dialect of ["claude", "codex", "vscode"] as const) {
    for (const event of HOOK_EVENTS) {
      const decisions: HookDecision[] = [
        { kind: "none" },
        { kind: "deny", reason: denied.reason },
        { kind: "context", text: "Phase: deciding." },
        { kind: "notice", text: "Docket: 2 obligations remain." },
        { kind: "notice", text: " " },
        { kind: "block", reason: "Record the review first.", notice: null },
        { kind: "block", reason: "Record the review first.", notice: "Docket asked the agent to continue once." },
        { kind: "block", reason: " ", notice: "Only a notice." },
        { kind: "block", reason: "", notice: null },
        { kind: "block", reason: "r".repeat(20_000), notice: "n".repeat(20_000) },
      ];
      for (const decision of decisions) {
        const rendered = renderDecision(dialect, event, decision);
        assert.equal(rendered.exitCode, 0);
        const json: unknown = JSON.parse(rendered.stdout);
        const checked = HOST_OUTPUT_SCHEMAS[dialect][event].safeParse(json);
        assert.ok(checked.success, `${dialect} ${event} ${decision.kind}: ${rendered.stdout}`);
        assert.ok(!rendered.stdout.includes('"allow"') && !rendered.stdout.includes('"ask"'));
      }
    }
  }
  const deny = JSON.parse(renderDecision("codex", "PreToolUse", { kind: "deny", reason: denied.reason }).stdout) as { hookSpecificOutput: Record<string, string> };
  assert.deepEqual(Object.keys(deny.hookSpecificOutput).sort(), ["hookEventName", "permissionDecision", "permissionDecisionReason"]);
  assert.match(deny.hookSpecificOutput.permissionDecisionReason ?? "", /Next legal operation: open_context_sources\./u);
  // An empty reason would make Codex ignore the deny: Docket never emits one.
  const blank = JSON.parse(renderDecision("codex", "PreToolUse", { kind: "deny", reason: "  " }).stdout) as { hookSpecificOutput: Record<string, string> };
  assert.notEqual((blank.hookSpecificOutput.permissionDecisionReason ?? "").trim(), "");
  const long = JSON.parse(renderDecision("claude", "UserPromptSubmit", { kind: "context", text: "x".repeat(20_000) }).stdout) as { hookSpecificOutput: { additionalContext: string } };
  assert.equal(long.hookSpecificOutput.additionalContext.length, MAX_HOOK_TEXT);
});

test("output: Stop notices and blocks in each host's exact dialect; nothing else is said at Stop", () => {
  const out = (dialect: "claude" | "codex" | "vscode", event: (typeof HOOK_EVENTS)[number], decision: HookDecision): unknown => JSON.parse(renderDecision(dialect, event, decision).stdout);
  const block = { kind: "block", reason: "Record the review first.", notice: "Docket: the answer has no review." } as const;
  for (const dialect of ["claude", "codex", "vscode"] as const) {
    assert.deepEqual(out(dialect, "Stop", { kind: "notice", text: "Docket: 2 obligations remain." }), { systemMessage: "Docket: 2 obligations remain." });
    assert.deepEqual(out(dialect, "Stop", { kind: "none" }), {});
    assert.deepEqual(out(dialect, "Stop", { kind: "context", text: "x" }), {});
    assert.deepEqual(out(dialect, "Stop", { kind: "notice", text: "  " }), {});
    // An empty reason never blocks: its notice (if any) is all that is said.
    assert.deepEqual(out(dialect, "Stop", { ...block, reason: " \n" }), { systemMessage: block.notice });
    assert.deepEqual(out(dialect, "Stop", { kind: "block", reason: "", notice: null }), {});
    // A notice or block on any other event says nothing.
    for (const event of HOOK_EVENTS.filter((name) => name !== "Stop")) {
      assert.deepEqual(out(dialect, event, { kind: "notice", text: "n" }), {});
      assert.deepEqual(out(dialect, event, block), {});
    }
  }
  assert.deepEqual(out("claude", "Stop", { ...block, notice: null }), { decision: "block", reason: block.reason });
  assert.deepEqual(out("claude", "Stop", block), { systemMessage: block.notice, decision: "block", reason: block.reason });
  assert.deepEqual(out("codex", "Stop", { ...block, notice: null }), { decision: "block", reason: block.reason });
  assert.deepEqual(out("codex", "Stop", block), { systemMessage: block.notice, decision: "block", reason: block.reason });
  assert.deepEqual(out("vscode", "Stop", { ...block, notice: null }), { hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason: block.reason } });
  assert.deepEqual(out("vscode", "Stop", block), { systemMessage: block.notice, hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason: block.reason } });
  const long = out("codex", "Stop", { kind: "block", reason: "r".repeat(20_000), notice: "n".repeat(20_000) }) as { reason: string; systemMessage: string };
  assert.equal(long.reason.length, MAX_HOOK_TEXT);
  assert.equal(long.systemMessage.length, MAX_HOOK_TEXT);
  // The schemas refuse a block the hosts would drop.
  assert.equal(HOST_OUTPUT_SCHEMAS.claude.Stop.safeParse({ decision: "block" }).success, false);
  assert.equal(HOST_OUTPUT_SCHEMAS.codex.Stop.safeParse({ decision: "block", reason: " " }).success, false);
  assert.equal(HOST_OUTPUT_SCHEMAS.codex.Stop.safeParse({ decision: "block" }).success, false);
  assert.equal(HOST_OUTPUT_SCHEMAS.codex.Stop.safeParse({ systemMessage: "x", hookSpecificOutput: {} }).success, false);
  assert.equal(HOST_OUTPUT_SCHEMAS.vscode.Stop.safeParse({ decision: "block", reason: "x" }).success, false, "VS Code documents the Stop block inside hookSpecificOutput");
  assert.equal(HOST_OUTPUT_SCHEMAS.vscode.Stop.safeParse({ hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason: "" } }).success, false);
});

test("output schemas reject what the hosts reject", () => {
  const codexPre = HOST_OUTPUT_SCHEMAS.codex.PreToolUse;
  assert.equal(codexPre.safeParse({}).success, true);
  assert.equal(codexPre.safeParse({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }).success, false);
  assert.equal(codexPre.safeParse({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls" } } }).success, true);
  assert.equal(codexPre.safeParse({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "x" } }).success, false);
  assert.equal(codexPre.safeParse({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "" } }).success, false);
  assert.equal(codexPre.safeParse({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "x", extra: 1 } }).success, false);
  assert.equal(codexPre.safeParse({ continue: false }).success, false);
  assert.equal(codexPre.safeParse({ permissionDecision: "deny" }).success, false, "a top-level permissionDecision is a common mistake");
  assert.equal(HOST_OUTPUT_SCHEMAS.claude.PreToolUse.safeParse({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "block" } }).success, false);
});

test("command line: arguments and the installers' command", () => {
  assert.deepEqual(parseHookArgs(["hook", "--host", "codex", "PreToolUse"]), { host: "codex", event: "PreToolUse", workspace: null, readOnlyTools: [] });
  assert.deepEqual(parseHookArgs(["--host=vscode", "Stop"]), { host: "vscode", event: "Stop", workspace: null, readOnlyTools: [] });
  assert.deepEqual(parseHookArgs(["hook", "--host", "claude", "--workspace", "/a b/w", "--read-only-tool", "mcp__x__get", "--read-only-tool=T", "PreToolUse"]), {
    host: "claude",
    event: "PreToolUse",
    workspace: "/a b/w",
    readOnlyTools: ["mcp__x__get", "T"],
  });
  assert.equal(typeof parseHookArgs(["--host", "cursor", "Stop"]), "string");
  assert.equal(typeof parseHookArgs(["--host", "claude"]), "string");
  assert.equal(typeof parseHookArgs(["--host", "claude", "--json", "Stop"]), "string");
  assert.equal(typeof parseHookArgs(["--host", "claude", "--workspace", "relative", "Stop"]), "string");
  assert.equal(typeof parseHookArgs(["--host", "claude", "--read-only-tool", "Bash", "Stop"]), "string", "a shell tool can never be declared read-only");
  assert.equal(hookCommand("claude", "PreToolUse", "/opt/docket/dist/docket.js"), 'node "/opt/docket/dist/docket-hook.js" hook --host claude PreToolUse');
  assert.equal(
    hookCommand("claude", "PreToolUse", "/opt/docket/dist/docket.js", { workspace: "/w s/it's", readOnlyTools: ["mcp__x__get"] }),
    'node "/opt/docket/dist/docket-hook.js" hook --host claude --workspace "/w s/it\'s" --read-only-tool mcp__x__get PreToolUse',
  );
  assert.equal(hookCommand("codex", "Stop", "/opt/d/dist/docket.js", { workspace: "/a$b" }), 'node "/opt/d/dist/docket-hook.js" hook --host codex --workspace \'/a$b\' Stop');
  assert.throws(() => hookCommand("claude", "Stop", "/opt/d/dist/docket.js", { workspace: "/a\nb" }));
  assert.throws(() => hookCommand("claude", "Stop", "/opt/d/dist/docket.js", { workspace: "rel" }));
  assert.equal(hookCommand("codex", "Stop", "/opt/my docket/dist/docket-hook.js"), 'node "/opt/my docket/dist/docket-hook.js" hook --host codex Stop');
  assert.equal(hookCommand("claude", "Stop", "/opt/a$b/dist/docket.js"), "node '/opt/a$b/dist/docket-hook.js' hook --host claude Stop");
  assert.throws(() => hookCommand("claude", "Stop", "dist/docket.js"));
});

test("stream stdin: read to the end, refused past the limit, abandoned when never closed", async () => {
  const whole = new PassThrough();
  const reading = readBoundedStdin(whole, 100, 5_000);
  whole.write('{"a":');
  whole.end("1}");
  assert.equal(await reading, '{"a":1}');

  const big = new PassThrough();
  const refusing = readBoundedStdin(big, 10, 5_000);
  big.write("x".repeat(11));
  const refused = await refusing;
  assert.ok(refused instanceof HookInputError && refused.problem === "too-large");
  big.destroy();

  const open = new PassThrough();
  const waited = await readBoundedStdin(open, 10, 50);
  assert.ok(waited instanceof HookInputError && waited.problem === "malformed-json");
  open.destroy();

  const binary = new PassThrough();
  const decoding = readBoundedStdin(binary, 10, 5_000);
  binary.end(Buffer.from([0xff, 0xfe]));
  const undecodable = await decoding;
  assert.ok(undecodable instanceof HookInputError && /UTF-8/u.test(undecodable.message));
});
