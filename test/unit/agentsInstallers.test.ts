// Installer planning as a pure function of the files' current text: idempotent, never touching
// what is not Docket's, refusing what it cannot edit safely, and reversible by disconnect.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ErrorCodes } from "../../server/protocol/messages";
import { DocketError } from "../../server/errors";
import { planConnect, planDisconnect, installedStatus, type InstallTarget } from "../../server/agents/installers";
import { hookCommand, isDocketHookCommand, type AgentHost } from "../../server/agents/hostConfig";
import { TOML_BEGIN, withDocketToml, withoutDocketToml } from "../../server/agents/codexToml";
import { unifiedDiff } from "../../server/agents/textDiff";

const folder = "/work space/it's \"here\"";
const runtime = "/opt/ext dir/dist/docket.js";

/** An in-memory workspace: relative path → text. */
class Files {
  readonly map = new Map<string, string>();
  constructor(initial: Record<string, string> = {}) {
    for (const [relative, text] of Object.entries(initial)) this.map.set(path.join(folder, relative), text);
  }
  read = (absolute: string): string | null => this.map.get(absolute) ?? null;
  get(relative: string): string | undefined {
    return this.map.get(path.join(folder, relative));
  }
  apply(plan: { files: readonly { path: string; after: string | null }[] }): void {
    for (const file of plan.files) {
      if (file.after === null) this.map.delete(file.path);
      else this.map.set(file.path, file.after);
    }
  }
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

function target(host: AgentHost, runtimePath = runtime): InstallTarget {
  return { host, workspaceFolder: folder, runtimePath };
}

function codeOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof DocketError, `expected a DocketError, got ${String(error)}`);
    return error.code;
  }
  assert.fail("expected a coded refusal");
}

const userSettings = `{
    "permissions": {"allow": ["Bash(ls)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]
    },
    "model": "opus"
}`;

for (const host of ["claude", "codex"] as const) {
  test(`${host}: connect into empty workspace, again is a no-op, disconnect restores nothing-there`, () => {
    const files = new Files();
    const first = planConnect(target(host), files.read);
    assert.equal(first.files.length, 2);
    assert.ok(first.files.every((file) => file.before === null && file.after !== null));
    assert.ok(first.notes.length > 0);
    files.apply(first);
    const again = planConnect(target(host), files.read);
    assert.deepEqual(again.files, [], "connecting twice changes nothing");
    assert.deepEqual(again.notes, []);
    const status = installedStatus(host, folder, files.read);
    assert.equal(status.installed, true);
    assert.equal(status.partial, false);
    files.apply(planDisconnect(target(host), files.read));
    assert.deepEqual(files.snapshot(), {}, "disconnect deletes the files connect created");
    assert.deepEqual(planDisconnect(target(host), files.read).files, []);
  });
}

test("claude: unrelated settings keep their order and values; disconnect gives the user's entries back", () => {
  const files = new Files({ ".claude/settings.json": userSettings, ".mcp.json": '{"mcpServers": {"other": {"command": "x"}}}\n' });
  const plan = planConnect(target("claude"), files.read);
  files.apply(plan);
  const settings = JSON.parse(files.get(".claude/settings.json") ?? "") as Record<string, unknown>;
  assert.deepEqual(Object.keys(settings), ["permissions", "hooks", "model"], "key order preserved");
  const hooks = settings["hooks"] as Record<string, unknown[]>;
  assert.deepEqual(Object.keys(hooks), ["PreToolUse", "Stop", "PostToolUse", "UserPromptSubmit", "SessionStart"]);
  assert.deepEqual(hooks["PreToolUse"]?.[0], { matcher: "Bash", hooks: [{ type: "command", command: "./lint.sh" }] });
  assert.deepEqual(hooks["PreToolUse"]?.[1], {
    hooks: [{ type: "command", command: hookCommand("claude", "PreToolUse", runtime, { workspace: folder, readOnlyTools: [] }), timeout: 60 }],
  });
  const mcp = JSON.parse(files.get(".mcp.json") ?? "") as { mcpServers: Record<string, unknown> };
  assert.deepEqual(Object.keys(mcp.mcpServers), ["other", "docket"]);
  assert.deepEqual(mcp.mcpServers["docket"], { command: "node", args: [runtime, "mcp", "--workspace", folder] });

  files.apply(planDisconnect(target("claude"), files.read));
  assert.deepEqual(JSON.parse(files.get(".claude/settings.json") ?? ""), JSON.parse(userSettings), "the user's settings come back intact");
  assert.deepEqual(JSON.parse(files.get(".mcp.json") ?? ""), { mcpServers: { other: { command: "x" } } });
});

test("connecting under a moved ledger says that the agent records to the default ledger", () => {
  const plain = planConnect({ ...target("claude"), ledgerPath: path.join(folder, ".docket", "ledger.jsonl") }, new Files().read);
  assert.ok(plain.notes.every((note) => !note.includes("docket.ledgerPath")));
  const moved = planConnect({ ...target("codex"), ledgerPath: "/elsewhere/ledger.jsonl" }, new Files().read);
  const note = moved.notes.find((entry) => entry.includes("docket.ledgerPath"));
  assert.ok(note?.includes(path.join(folder, ".docket", "ledger.jsonl")) && note.includes("/elsewhere/ledger.jsonl"), JSON.stringify(moved.notes));
  // The note is advice, not content: it does not change the plan's digest.
  assert.equal(moved.planSha256, planConnect(target("codex"), new Files().read).planSha256);
});

test("a file Docket need not change is left byte-for-byte (not re-serialized)", () => {
  const odd = '{"mcpServers":{"docket":{"command":"node","args":["/opt/ext dir/dist/docket.js","mcp","--workspace","/work space/it\'s \\"here\\""]}},"z":1}';
  const files = new Files({ ".mcp.json": odd });
  const plan = planConnect(target("claude"), files.read);
  assert.deepEqual(plan.files.map((file) => path.basename(file.path)), ["settings.json"], "only the hooks file changes");
});

test("a reconnect from a moved runtime replaces Docket's entries instead of adding more", () => {
  const files = new Files({ ".claude/settings.json": userSettings });
  files.apply(planConnect(target("claude", "/old/place/dist/docket.js"), files.read));
  files.apply(planConnect(target("claude"), files.read));
  const text = files.get(".claude/settings.json") ?? "";
  assert.equal(text.includes("/old/place"), false);
  const hooks = (JSON.parse(text) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
  const docketHandlers = Object.values(hooks).flat().flatMap((group) => group.hooks).filter((handler) => isDocketHookCommand(handler.command));
  assert.equal(docketHandlers.length, 5);
  assert.deepEqual(planConnect(target("claude"), files.read).files, []);
});

test("disconnect leaves files without Docket entries untouched (not re-serialized)", () => {
  const files = new Files({ ".claude/settings.json": userSettings, ".mcp.json": '{"mcpServers":{"x":{"command":"y"}}}' });
  assert.deepEqual(planDisconnect(target("claude"), files.read).files, []);
});

test("a reconnect keeps the hooks key in place even when only Docket's hooks were there", () => {
  const files = new Files({ ".claude/settings.json": '{"a": 1, "hooks": {}, "z": 2}' });
  files.apply(planConnect(target("claude", "/old/dist/docket.js"), files.read));
  files.apply(planConnect(target("claude"), files.read));
  assert.deepEqual(Object.keys(JSON.parse(files.get(".claude/settings.json") ?? "") as object), ["a", "hooks", "z"]);
  files.apply(planDisconnect(target("claude"), files.read));
  assert.deepEqual(JSON.parse(files.get(".claude/settings.json") ?? ""), { a: 1, z: 2 });
});

test("disconnect claude leaves a Docket hook of another host in the same file alone", () => {
  const vscodeHook = { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: 'node "/x/dist/docket-hook.js" hook --host vscode PreToolUse' }] }] } };
  const files = new Files({ ".claude/settings.json": JSON.stringify(vscodeHook) });
  files.apply(planConnect(target("claude"), files.read));
  files.apply(planDisconnect(target("claude"), files.read));
  assert.deepEqual(JSON.parse(files.get(".claude/settings.json") ?? ""), vscodeHook);
});

test("a Docket handler sharing a group with the user's handler: only Docket's is removed", () => {
  const shared = JSON.stringify({
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./mine.sh" }, { type: "command", command: 'node "/x/dist/docket.js" hook --host claude PreToolUse' }] }] },
  });
  const files = new Files({ ".claude/settings.json": shared });
  files.apply(planDisconnect(target("claude"), files.read));
  assert.deepEqual(JSON.parse(files.get(".claude/settings.json") ?? ""), { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./mine.sh" }] }] } });
});

test("malformed or unexpected JSON is refused with a coded error and nothing planned", () => {
  for (const text of ["{not json", "[]", '{"hooks": []}', '{"hooks": {"PreToolUse": {}}}', '{"hooks": {"PreToolUse": [{"hooks": "x"}]}}']) {
    const files = new Files({ ".claude/settings.json": text });
    assert.equal(codeOf(() => planConnect(target("claude"), files.read)), ErrorCodes.agentConfigMalformed, text);
    assert.equal(codeOf(() => planDisconnect(target("claude"), files.read)), ErrorCodes.agentConfigMalformed, text);
  }
  const mcp = new Files({ ".mcp.json": '{"mcpServers": 3}' });
  assert.equal(codeOf(() => planConnect(target("claude"), mcp.read)), ErrorCodes.agentConfigMalformed);
  const status = installedStatus("claude", folder, new Files({ ".claude/settings.json": "{" }).read);
  assert.equal(status.problem?.code, ErrorCodes.agentConfigMalformed);
});

test("someone else's MCP server named docket is a conflict, never overwritten", () => {
  const files = new Files({ ".mcp.json": '{"mcpServers": {"docket": {"command": "python", "args": ["server.py"]}}}' });
  assert.equal(codeOf(() => planConnect(target("claude"), files.read)), ErrorCodes.agentConfigConflict);
  assert.deepEqual(planDisconnect(target("claude"), files.read).files, [], "disconnect leaves a foreign entry alone");
});

test("codex config.toml: appended table round-trips; existing content untouched", () => {
  const original = '# my settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n';
  const files = new Files({ ".codex/config.toml": original });
  files.apply(planConnect(target("codex"), files.read));
  const text = files.get(".codex/config.toml") ?? "";
  assert.ok(text.startsWith(original), "the user's text is kept as a prefix");
  assert.ok(text.includes(`args = ["/opt/ext dir/dist/docket.js", "mcp", "--workspace", "/work space/it's \\"here\\""]`), text);
  assert.deepEqual(planConnect(target("codex"), files.read).files, []);
  files.apply(planDisconnect(target("codex"), files.read));
  assert.equal(files.get(".codex/config.toml"), original);
});

test("codex config.toml: a managed block in the middle is replaced in place", () => {
  const stale = withDocketToml('a = 1\n', "c", { command: "node", args: ["/old/docket.js", "mcp"] });
  const withLater = `${stale}\n[profiles.x]\nmodel = "y"\n`;
  const next = withDocketToml(withLater, "c", { command: "node", args: ["/new/docket.js", "mcp"] });
  assert.ok(next.includes("/new/docket.js") && !next.includes("/old/docket.js"));
  assert.ok(next.endsWith('[profiles.x]\nmodel = "y"\n'));
  assert.equal(withoutDocketToml(next, "c"), 'a = 1\n\n[profiles.x]\nmodel = "y"\n');
});

test("codex config.toml: structures a line edit cannot handle safely are refused", () => {
  const cases: Array<[string, string]> = [
    [`x = """\n${TOML_BEGIN}\n[mcp_servers.docket]\n# <<< docket\n"""\n`, ErrorCodes.agentConfigUnsupported],
    ["mcp_servers = { other = { command = \"x\" } }\n", ErrorCodes.agentConfigUnsupported],
    ['[mcp_servers]\ndocket = { command = "x" }\n', ErrorCodes.agentConfigConflict],
    ['[mcp_servers.docket]\ncommand = "python"\n', ErrorCodes.agentConfigConflict],
    [`${TOML_BEGIN}\n[mcp_servers.docket]\n`, ErrorCodes.agentConfigUnsupported],
  ];
  for (const [text, code] of cases) {
    const files = new Files({ ".codex/config.toml": text });
    assert.equal(codeOf(() => planConnect(target("codex"), files.read)), code, text);
  }
});

test("no matcher for either host (Stop included): every tool reaches the hook, which decides", () => {
  for (const host of ["claude", "codex"] as const) {
    const files = new Files();
    files.apply(planConnect(target(host), files.read));
    const file = host === "claude" ? ".claude/settings.json" : ".codex/hooks.json";
    const hooks = JSON.parse(files.get(file) ?? "") as { hooks: Record<string, Array<{ matcher?: string; hooks: { command: string; timeout: number }[] }>> };
    for (const event of ["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"]) {
      const group = hooks.hooks[event]?.[0];
      assert.equal(group?.matcher, undefined, `${host} ${event}`);
      assert.equal(group?.hooks[0]?.timeout, 60);
      assert.ok(group?.hooks[0]?.command.includes(` --host ${host} --workspace `), group?.hooks[0]?.command);
    }
  }
});

test("older entries (a PreToolUse matcher, no --workspace) are recognised, reported as outdated and replaced on reconnect", () => {
  const old = JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: "Bash|apply_patch", hooks: [{ type: "command", command: 'node "/old/dist/docket-hook.js" hook --host codex PreToolUse' }] }],
      PostToolUse: [{ hooks: [{ type: "command", command: 'node "/old/dist/docket-hook.js" hook --host codex PostToolUse' }] }],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: 'node "/old/dist/docket-hook.js" hook --host codex UserPromptSubmit' }] }],
      SessionStart: [{ hooks: [{ type: "command", command: 'node "/old/dist/docket-hook.js" hook --host codex SessionStart' }] }],
    },
  });
  const files = new Files({ ".codex/hooks.json": old });
  files.apply(planConnect(target("codex"), files.read));
  const text = files.get(".codex/hooks.json") ?? "";
  assert.doesNotMatch(text, /\/old\/|matcher/u);
  assert.equal((text.match(/docket-hook\.js/gu) ?? []).length, 5, "the four old events replaced, Stop added");
  assert.equal(installedStatus("codex", folder, files.read).installed, true);
  const stale = new Files({ ".codex/hooks.json": old, ".codex/config.toml": files.get(".codex/config.toml") ?? "" });
  const status = installedStatus("codex", folder, stale.read);
  assert.deepEqual([status.installed, status.partial], [false, true], "old entries leave the gate weaker: not fully connected");
  files.apply(planDisconnect(target("codex"), files.read));
  assert.deepEqual(files.snapshot(), {});
  const mixed = new Files({ ".codex/hooks.json": old });
  mixed.apply(planDisconnect(target("codex"), mixed.read));
  assert.deepEqual(mixed.snapshot(), {}, "disconnect removes old-form entries too");
});

test("a connection made before Stop was installed is partial until reconnected, which adds only Stop", () => {
  for (const host of ["claude", "codex"] as const) {
    const files = new Files();
    files.apply(planConnect(target(host), files.read));
    const file = host === "claude" ? ".claude/settings.json" : ".codex/hooks.json";
    const full = JSON.parse(files.get(file) ?? "") as { hooks: Record<string, unknown> };
    const { Stop: stop, ...withoutStop } = full.hooks;
    assert.ok(stop !== undefined, `${host} installs Stop`);
    const older = new Files();
    for (const [absolute, text] of files.map) older.map.set(absolute, text);
    older.map.set(path.join(folder, file), `${JSON.stringify({ ...full, hooks: withoutStop }, null, 2)}\n`);
    const status = installedStatus(host, folder, older.read);
    assert.deepEqual([status.installed, status.partial], [false, true], host);
    older.apply(planConnect(target(host), older.read));
    assert.deepEqual(JSON.parse(older.get(file) ?? ""), full, `${host}: reconnecting adds the Stop hook`);
    assert.equal(installedStatus(host, folder, older.read).installed, true);
  }
});

test("read-only tools: written into every hook command, sorted; shell, edit and Docket names refused", () => {
  const files = new Files();
  const plan = planConnect({ ...target("claude"), readOnlyTools: ["mcp__z__read", "mcp__a__get", "mcp__z__read"] }, files.read);
  files.apply(plan);
  const settings = files.get(".claude/settings.json") ?? "";
  assert.match(settings, /--read-only-tool mcp__a__get --read-only-tool mcp__z__read PreToolUse/u);
  assert.notEqual(plan.planSha256, planConnect(target("claude"), new Files().read).planSha256, "the additions are part of the plan");
  assert.deepEqual(planConnect({ ...target("claude"), readOnlyTools: ["mcp__z__read", "mcp__a__get"] }, files.read).files, [], "order does not matter");
  assert.notEqual(planConnect(target("claude"), files.read).files.length, 0, "dropping them changes the hooks");
  for (const name of ["Bash", "Write", "apply_patch", "runTerminalCommand", "mcp__docket__status", "a b", ""]) {
    assert.equal(codeOf(() => planConnect({ ...target("claude"), readOnlyTools: [name] }, new Files().read)), ErrorCodes.invalidParams, name);
  }
});

test("the hook command carries the workspace: a real path given by the adapter", () => {
  const files = new Files();
  files.apply(planConnect({ ...target("claude"), hookWorkspace: "/real/place" }, files.read));
  assert.match(files.get(".claude/settings.json") ?? "", /--workspace \\"\/real\/place\\"/u);
});

test("hook commands run the hook bundle next to the runtime, quoted for the shell; a relative runtime is refused", () => {
  assert.equal(hookCommand("claude", "Stop", "/a b/dist/docket.js"), 'node "/a b/dist/docket-hook.js" hook --host claude Stop');
  assert.match(hookCommand("codex", "PreToolUse", "/opt/dist/docket.js"), /^node ["']?\/opt\/dist\/docket-hook\.js["']? hook --host codex PreToolUse$/u);
  for (const odd of ['/a"b $x/dist/docket.js', "/it's `here`/dist/docket.js"]) {
    assert.ok(isDocketHookCommand(hookCommand("claude", "PreToolUse", odd)), odd);
    const files = new Files();
    files.apply(planConnect(target("claude", odd), files.read));
    assert.deepEqual(planConnect(target("claude", odd), files.read).files, [], "idempotent with an odd path");
    files.apply(planDisconnect(target("claude", odd), files.read));
    assert.deepEqual(files.snapshot(), {});
  }
  assert.ok(isDocketHookCommand(hookCommand("codex", "PreToolUse", "/it's here/dist/docket.js")));
  assert.ok(isDocketHookCommand('node "C:\\Program Files\\x\\dist\\docket-hook.js" hook --host claude PreToolUse'));
  assert.ok(isDocketHookCommand('node "/x/dist/docket.js" hook --host claude PreToolUse'), "entries of the full CLI bundle are recognised too");
  assert.ok(isDocketHookCommand('node "/x/dist/docket-hook.js" hook --host claude --workspace "/w s" --read-only-tool a PreToolUse', "claude"), "the current form");
  assert.ok(isDocketHookCommand("node '/x/dist/docket-hook.js' hook --host codex --workspace '/a$b' PreToolUse", "codex"));
  assert.equal(isDocketHookCommand("node hook.js --host claude"), false);
  assert.equal(isDocketHookCommand('node "/x/dist/docket-hook.js" hook --host vscode PreToolUse', "claude"), false, "another host's hook is not claude's");
  assert.equal(codeOf(() => planConnect(target("claude", "relative/dist/docket.js"), new Files().read)), ErrorCodes.agentRuntimeMissing);
});

test("plan digests are deterministic and change with the files", () => {
  const a = planConnect(target("claude"), new Files().read);
  const b = planConnect(target("claude"), new Files().read);
  assert.equal(a.planSha256, b.planSha256);
  const c = planConnect(target("claude"), new Files({ ".mcp.json": "{}" }).read);
  assert.notEqual(a.planSha256, c.planSha256);
});

test("unified diff of a small change", () => {
  assert.equal(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "x", "y"), "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c");
  assert.equal(unifiedDiff("", "n\n", "/dev/null", "y"), "--- /dev/null\n+++ y\n@@ -0,0 +1,1 @@\n+n");
});
