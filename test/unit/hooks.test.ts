// The pure parts of the hook path: tool classification per host, input dialects (tolerant of new
// host fields, strict about the fields Docket uses), the rendered output against each host's
// documented schema, and the installers' command line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyTool, TOOL_TABLES } from "../../server/hooks/toolClassification";
import { detectDialect, HookInputError, parseHookInput, HOOK_EVENTS } from "../../server/hooks/hostInput";
import { renderDecision, MAX_HOOK_TEXT } from "../../server/hooks/hostOutput";
import { HOST_OUTPUT_SCHEMAS } from "../../server/hooks/hostOutputSchemas";
import { hookCommand } from "../../server/hooks/hookCommand";
import { parseHookArgs, readBoundedStdin } from "../../server/hooks/hookCli";
import { PassThrough } from "node:stream";
import { computeToolPolicy } from "../../server/developer/toolPolicy";

test("tool classification: shell, edit, Docket's own tools and everything else, per host", () => {
  const cases: [Parameters<typeof classifyTool>[0], string, ReturnType<typeof classifyTool>][] = [
    ["claude", "Bash", "shell"],
    ["claude", "Edit", "edit"],
    ["claude", "Write", "edit"],
    ["claude", "MultiEdit", "edit"],
    ["claude", "NotebookEdit", "edit"],
    ["claude", "Read", "other"],
    ["claude", "Grep", "other"],
    ["claude", "mcp__docket__open_judgment", "docket"],
    ["claude", "mcp__github__create_issue", "other"],
    ["claude", "bash", "other"],
    ["codex", "Bash", "shell"],
    ["codex", "shell", "shell"],
    ["codex", "exec_command", "shell"],
    ["codex", "apply_patch", "edit"],
    ["codex", "mcp__docket__status", "docket"],
    ["codex", "view_image", "other"],
    ["vscode", "runTerminalCommand", "shell"],
    ["vscode", "run_in_terminal", "shell"],
    ["vscode", "editFiles", "edit"],
    ["vscode", "createFile", "edit"],
    ["vscode", "replace_string_in_file", "edit"],
    ["vscode", "insert_edit_into_file", "edit"],
    ["vscode", "create_file", "edit"],
    ["vscode", "mcp_docket_conclude_judgment", "docket"],
    ["vscode", "readFile", "other"],
    ["vscode", "Bash", "other"],
  ];
  for (const [dialect, tool, expected] of cases) assert.equal(classifyTool(dialect, tool), expected, `${dialect} ${tool}`);
  for (const table of Object.values(TOOL_TABLES)) {
    for (const name of table.shell) assert.ok(!table.edit.has(name), `${name} is one class only`);
  }
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
      for (const decision of [{ kind: "none" as const }, { kind: "deny" as const, reason: denied.reason }, { kind: "context" as const, text: "Phase: deciding." }]) {
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
  assert.deepEqual(parseHookArgs(["hook", "--host", "codex", "PreToolUse"]), { host: "codex", event: "PreToolUse" });
  assert.deepEqual(parseHookArgs(["--host=vscode", "Stop"]), { host: "vscode", event: "Stop" });
  assert.equal(typeof parseHookArgs(["--host", "cursor", "Stop"]), "string");
  assert.equal(typeof parseHookArgs(["--host", "claude"]), "string");
  assert.equal(typeof parseHookArgs(["--host", "claude", "--json", "Stop"]), "string");
  assert.equal(hookCommand("claude", "PreToolUse", "/opt/docket/dist/docket.js"), 'node "/opt/docket/dist/docket-hook.js" hook --host claude PreToolUse');
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
