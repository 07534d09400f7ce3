// The gate as a host meets it: `docket connect claude|codex` writes the configuration, and every
// call below runs through those files — hooks selected by each host's own matcher rule, commands
// run with `sh -c` exactly as written (test/support/installedHooks.ts). Covered: every tool reaches
// the hook, unknown and code-running tools are gated, nested repositories and symlinked folders do
// not lift the gate, undecidable input is denied, a repository's own "docket" MCP server is not
// trusted, the user's read-only additions, the upgrade of older entries, and no denied call writes.
import { before, after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { tempRepo, runGit } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";
import { runInstalledPreToolUse, selectHookCommands, type HostKind } from "../support/installedHooks";
import { hookOutcome } from "../../server/hooks/hookCli";

const CLI = path.join(repoRoot(), "dist", "docket.js");
const HOSTS: readonly HostKind[] = ["claude", "codex", "vscode"];

function docket(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function connect(workspace: string, extra: readonly string[] = []): void {
  for (const host of ["claude", "codex"] as const) {
    const result = docket(["connect", host, "--workspace", workspace, ...extra], workspace);
    assert.equal(result.status, 0, result.stderr);
  }
}

async function turnOn(workspace: string): Promise<WorkspaceLedger> {
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  await ledger.turnOn();
  return ledger;
}

const scratch: (() => void)[] = [];
let gated = "";
let ledgerPath = "";

before(async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  scratch.push(() => repo.dispose());
  gated = repo.root;
  ledgerPath = path.join(gated, ".docket", "ledger.jsonl");
  await turnOn(gated);
  connect(gated);
});

after(() => {
  for (const dispose of scratch) dispose();
});

async function expectDenied(host: HostKind, workspace: string, toolName: string, toolInput: unknown, cwd: string, label: string): Promise<string> {
  const before = fs.readFileSync(ledgerPath);
  const verdict = await runInstalledPreToolUse(host, workspace, { toolName, toolInput, cwd });
  assert.equal(verdict.runs, false, `${label}: ${host} ${toolName} must not run (${JSON.stringify(verdict.results.map((result) => [result.status, result.stdout, result.stderr]))})`);
  assert.deepEqual(fs.readFileSync(ledgerPath), before, `${label}: a denied call leaves the ledger as it was`);
  return verdict.reasons.join(" | ");
}

async function expectRuns(host: HostKind, workspace: string, toolName: string, toolInput: unknown, cwd: string, label: string): Promise<void> {
  const verdict = await runInstalledPreToolUse(host, workspace, { toolName, toolInput, cwd });
  assert.equal(verdict.runs, true, `${label}: ${host} ${toolName} should run: ${verdict.reasons.join(" | ")}`);
}

test("connect installs PreToolUse for every tool, with the workspace's real path and a timeout", () => {
  const settings = JSON.parse(fs.readFileSync(path.join(gated, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]> };
  const pre = settings.hooks["PreToolUse"]?.[0];
  assert.equal(pre?.matcher, undefined, "no matcher: the host asks Docket about every tool");
  assert.match(pre?.hooks[0]?.command ?? "", new RegExp(`hook --host claude --workspace "${fs.realpathSync(gated).replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}" PreToolUse$`, "u"));
  assert.equal(pre?.hooks[0]?.timeout, 60);
  for (const host of HOSTS) {
    for (const tool of ["Bash", "mcp__ide__executeCode", "run_notebook_cell", "SomethingNew", "mcp__github__create_issue"]) {
      assert.equal(selectHookCommands(host, gated, "PreToolUse", tool).length, 1, `${host} selects Docket's hook for ${tool}`);
    }
  }
});

test("deciding: shell, edit, code-running and unknown tools are denied; known read-only and Docket's tools run", async () => {
  const file = path.join(gated, "src", "a.ts");
  const denied: [HostKind, string, unknown][] = [
    ["claude", "Bash", { command: "touch pwned" }],
    ["claude", "Write", { file_path: file, content: "x" }],
    ["claude", "mcp__ide__executeCode", { code: "open('pwned','w')" }],
    ["claude", "mcp__github__create_issue", { title: "x" }],
    ["claude", "Skill", { skill: "x" }],
    ["claude", "mcp__docket__not_a_docket_tool", {}],
    ["codex", "Bash", { command: "touch pwned" }],
    ["codex", "apply_patch", { command: "*** Begin Patch\n*** Add File: pwned\n+x\n*** End Patch\n" }],
    ["codex", "mcp__github__search_issues", { query: "x" }],
    ["vscode", "run_notebook_cell", { filePath: file, cellId: "1" }],
    ["vscode", "run_vscode_command", { commandId: "workbench.action.tasks.runTask" }],
    ["vscode", "runTests", {}],
    ["vscode", "install_python_packages", { packageList: ["x"] }],
    ["vscode", "editFiles", { files: [file] }],
  ];
  for (const [host, tool, input] of denied) await expectDenied(host, gated, tool, input, gated, "deciding");
  const reason = await expectDenied("claude", gated, "mcp__github__create_issue", {}, gated, "reason");
  assert.match(reason, /not know this tool to be read-only/u);
  assert.match(reason, /--read-only-tool mcp__github__create_issue/u);
  for (const [host, tool] of [
    ["claude", "Read"],
    ["claude", "Grep"],
    ["claude", "mcp__docket__status"],
    ["codex", "mcp__docket__open_judgment"],
    ["vscode", "read_file"],
    ["vscode", "readFile"],
  ] as const) {
    await expectRuns(host, gated, tool, { file_path: file }, gated, "deciding");
  }
});

test("nested repositories, an empty .git file and tool paths into the parent never lift the gate", async () => {
  const nested = path.join(gated, "x");
  fs.mkdirSync(nested);
  runGit(nested, ["init", "--quiet"]);
  const gitFile = path.join(gated, "y");
  fs.mkdirSync(gitFile);
  fs.writeFileSync(path.join(gitFile, ".git"), "");
  const gitFolder = path.join(gated, "z", "deep");
  fs.mkdirSync(path.join(gated, "z", ".git"), { recursive: true });
  fs.mkdirSync(gitFolder);
  try {
    for (const cwd of [nested, gitFile, gitFolder]) {
      for (const host of HOSTS) {
        const shell = host === "vscode" ? "run_in_terminal" : "Bash";
        await expectDenied(host, gated, shell, { command: "touch a" }, cwd, `cwd ${path.relative(gated, cwd)}`);
        await expectDenied(host, gated, host === "codex" ? "apply_patch" : "Write", host === "codex" ? { command: "*** Begin Patch\n*** Update File: ../src/a.ts\n*** End Patch\n" } : { file_path: "../src/a.ts", filePath: "../src/a.ts" }, cwd, "path into parent");
      }
    }
    // Even a hook command of an older version (no --workspace) walks every ancestor of the cwd.
    const hook = path.join(repoRoot(), "dist", "docket-hook.js");
    const input = JSON.stringify({ session_id: "s", cwd: nested, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    const old = spawnSync(process.execPath, [hook, "hook", "--host", "claude", "PreToolUse"], { cwd: nested, input, encoding: "utf8" });
    assert.match(old.stdout, /"permissionDecision":"deny"/u, old.stderr);
  } finally {
    for (const folder of ["x", "y", "z"]) fs.rmSync(path.join(gated, folder), { recursive: true, force: true });
  }
});

test("a symlinked folder leads to its target's workspace; a workspace with Docket off lets tools run", async () => {
  const offRepo = tempRepo({ files: { "b.ts": "b\n" } });
  scratch.push(() => offRepo.dispose());
  const off = offRepo.root;
  connect(off);
  for (const host of HOSTS) await expectRuns(host, off, host === "vscode" ? "run_in_terminal" : "Bash", { command: "ls" }, off, "Docket off");
  fs.symlinkSync(path.join(gated, "src"), path.join(off, "link"));
  for (const host of ["claude", "vscode"] as const) {
    await expectDenied(host, off, host === "vscode" ? "create_file" : "Write", { file_path: path.join(off, "link", "a.ts"), filePath: path.join(off, "link", "a.ts") }, off, "symlink into the gated workspace");
  }
  await expectDenied("codex", off, "apply_patch", { command: "*** Begin Patch\n*** Update File: link/a.ts\n*** End Patch\n" }, off, "symlink in a patch");
  // The agent's cwd through a symlink into the gated workspace.
  await expectDenied("claude", off, "Bash", { command: "ls" }, path.join(off, "link"), "cwd through a symlink");
});

test("input Docket cannot read is denied while Docket gates, and lets the tool run where Docket is off", async () => {
  const offRepo = tempRepo();
  scratch.push(() => offRepo.dispose());
  connect(offRepo.root);
  const oversized = (cwd: string): string => JSON.stringify({ session_id: "s", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "x".repeat(5 * 1024 * 1024) } });
  const inputs: [string, (cwd: string) => string | Buffer][] = [
    ["oversized", oversized],
    ["malformed", () => '{"tool_name": "Bash",'],
    ["not UTF-8", () => Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ["wrong shape", (cwd) => JSON.stringify({ session_id: "s", cwd, tool_input: {} })],
    ["empty", () => ""],
  ];
  for (const [label, rawStdin] of inputs) {
    for (const host of HOSTS) {
      const before = fs.readFileSync(ledgerPath);
      const verdict = await runInstalledPreToolUse(host, gated, { toolName: "Bash", toolInput: {}, cwd: gated, rawStdin: rawStdin(gated) });
      assert.equal(verdict.runs, false, `${label} ${host}`);
      assert.match(verdict.reasons.join(""), /docket\.(hook-input-invalid|usage|internal)/u, `${label}: the reason is coded`);
      assert.deepEqual(fs.readFileSync(ledgerPath), before);
      assert.equal(verdict.results.every((result) => result.status === 0), true, "a decision, never a non-blocking error");
      const offVerdict = await runInstalledPreToolUse(host, offRepo.root, { toolName: "Bash", toolInput: {}, cwd: offRepo.root, rawStdin: rawStdin(offRepo.root) });
      assert.equal(offVerdict.runs, true, `${label} ${host} with Docket off`);
    }
  }
  // The input's own cwd counts even when it cannot be parsed as the host's shape.
  const pointing = await runInstalledPreToolUse("claude", offRepo.root, { toolName: "Bash", toolInput: {}, cwd: offRepo.root, rawStdin: JSON.stringify({ cwd: gated, tool_input: {} }) });
  assert.equal(pointing.runs, false);
});

test("a repository's own \"docket\" MCP server does not pass as Docket", async () => {
  const repo = tempRepo();
  scratch.push(() => repo.dispose());
  await turnOn(repo.root);
  connect(repo.root);
  const mcpJson = path.join(repo.root, ".mcp.json");
  const genuine = fs.readFileSync(mcpJson, "utf8");
  await expectRuns("claude", repo.root, "mcp__docket__status", {}, repo.root, "genuine");
  fs.writeFileSync(mcpJson, JSON.stringify({ mcpServers: { docket: { command: "node", args: [path.join(repo.root, "tools", "docket.js"), "mcp"] } } }));
  const before = fs.readFileSync(path.join(repo.root, ".docket", "ledger.jsonl"));
  const verdict = await runInstalledPreToolUse("claude", repo.root, { toolName: "mcp__docket__status", toolInput: {}, cwd: repo.root });
  assert.equal(verdict.runs, false);
  assert.match(verdict.reasons.join(""), /does not run this Docket runtime/u);
  assert.deepEqual(fs.readFileSync(path.join(repo.root, ".docket", "ledger.jsonl")), before);
  fs.writeFileSync(mcpJson, genuine);
  const toml = path.join(repo.root, ".codex", "config.toml");
  fs.appendFileSync(toml, '\n[mcp_servers."docket"]\ncommand = "python3"\n');
  const codex = await runInstalledPreToolUse("codex", repo.root, { toolName: "mcp__docket__status", toolInput: {}, cwd: repo.root });
  assert.equal(codex.runs, false, "a second docket table in config.toml");
  // A config that is a link to a device without end, or larger than any config: denied at once,
  // never read until memory runs out.
  fs.rmSync(mcpJson);
  fs.symlinkSync("/dev/zero", mcpJson);
  const started = Date.now();
  const endless = await runInstalledPreToolUse("claude", repo.root, { toolName: "mcp__docket__status", toolInput: {}, cwd: repo.root });
  assert.equal(endless.runs, false);
  assert.match(endless.reasons.join(""), /not a regular file/u);
  assert.ok(Date.now() - started < 20_000, "answered without reading /dev/zero");
  fs.rmSync(mcpJson);
  fs.writeFileSync(mcpJson, `${genuine.trimEnd()}${" ".repeat(2 * 1024 * 1024)}\n`);
  const huge = await runInstalledPreToolUse("claude", repo.root, { toolName: "mcp__docket__status", toolInput: {}, cwd: repo.root });
  assert.equal(huge.runs, false);
  assert.match(huge.reasons.join(""), /more than the 1048576 Docket reads there/u);
});

test("the user's read-only tools run while gated; shell and edit names are refused at connect", async () => {
  const repo = tempRepo();
  scratch.push(() => repo.dispose());
  await turnOn(repo.root);
  connect(repo.root, ["--read-only-tool", "mcp__github__get_issue"]);
  assert.match(fs.readFileSync(path.join(repo.root, ".claude", "settings.json"), "utf8"), /--read-only-tool mcp__github__get_issue PreToolUse/u);
  await expectRuns("claude", repo.root, "mcp__github__get_issue", {}, repo.root, "added");
  await expectRuns("codex", repo.root, "mcp__github__get_issue", {}, repo.root, "added");
  const verdict = await runInstalledPreToolUse("claude", repo.root, { toolName: "mcp__github__create_issue", toolInput: {}, cwd: repo.root });
  assert.equal(verdict.runs, false);
  for (const name of ["Bash", "apply_patch", "run_in_terminal", "mcp__docket__anything", "two words"]) {
    const refused = docket(["connect", "claude", "--read-only-tool", name], repo.root);
    assert.equal(refused.status, 2, name);
    assert.match(refused.stderr, /docket\.usage/u);
  }
});

test("reconnecting upgrades entries of an older version, and status calls them outdated until then", () => {
  const repo = tempRepo();
  scratch.push(() => repo.dispose());
  const hook = path.join(path.dirname(CLI), "docket-hook.js");
  const old = {
    hooks: {
      PreToolUse: [{ matcher: "Bash|Edit|Write|MultiEdit|NotebookEdit", hooks: [{ type: "command", command: `node "${hook}" hook --host claude PreToolUse` }] }],
      PostToolUse: [{ hooks: [{ type: "command", command: `node "${hook}" hook --host claude PostToolUse` }] }],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: `node "${hook}" hook --host claude UserPromptSubmit` }] }],
      SessionStart: [{ hooks: [{ type: "command", command: `node "${hook}" hook --host claude SessionStart` }] }],
    },
  };
  fs.mkdirSync(path.join(repo.root, ".claude"));
  fs.writeFileSync(path.join(repo.root, ".claude", "settings.json"), JSON.stringify(old));
  fs.writeFileSync(path.join(repo.root, ".mcp.json"), JSON.stringify({ mcpServers: { docket: { command: "node", args: [CLI, "mcp", "--workspace", repo.root] } } }));
  assert.equal(selectHookCommands("claude", repo.root, "PreToolUse", "mcp__ide__executeCode").length, 0, "the old matcher never asked Docket");
  const status = JSON.parse(docket(["status", "--json"], repo.root).stdout) as { agents: { host: string; installed: boolean; partial: boolean }[] };
  assert.deepEqual(
    status.agents.filter((agent) => agent.host === "claude").map((agent) => [agent.installed, agent.partial]),
    [[false, true]],
  );
  assert.equal(docket(["connect", "claude"], repo.root).status, 0);
  const settings = fs.readFileSync(path.join(repo.root, ".claude", "settings.json"), "utf8");
  assert.doesNotMatch(settings, /"matcher"/u);
  assert.equal((settings.match(/docket-hook\.js/gu) ?? []).length, 5, "the old entries were replaced, not added to (and Stop added)");
  assert.equal(selectHookCommands("claude", repo.root, "PreToolUse", "mcp__ide__executeCode").length, 1);
  const upgraded = JSON.parse(docket(["status", "--json"], repo.root).stdout) as { agents: { host: string; installed: boolean }[] };
  assert.equal(upgraded.agents.find((agent) => agent.host === "claude")?.installed, true);
  // Disconnect recognises the new form and restores the workspace.
  assert.equal(docket(["disconnect", "claude"], repo.root).status, 0);
  assert.equal(fs.existsSync(path.join(repo.root, ".claude", "settings.json")), false);
});

test("authorized: every tool runs", async () => {
  const repo = tempRepo({ files: { "a.ts": "a\n" } });
  scratch.push(() => repo.dispose());
  const ledger = await turnOn(repo.root);
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Rename a?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "A plain rename.", basis: ["The user asked for it."] });
  await ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
  connect(repo.root);
  for (const [host, tool] of [
    ["claude", "Bash"],
    ["claude", "mcp__github__create_issue"],
    ["codex", "apply_patch"],
    ["vscode", "run_notebook_cell"],
  ] as const) {
    await expectRuns(host, repo.root, tool, { command: "ls" }, repo.root, "authorized");
  }
});

test("a state not read within the decision budget is denied where Docket gates, and irrelevant where it is off", async () => {
  const input = (cwd: string): string => JSON.stringify({ session_id: "s", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
  const late = await hookOutcome(["hook", "--host", "claude", "--workspace", gated, "PreToolUse"], input(gated), gated, { budgetMs: 0 });
  assert.equal(late.exitCode, 0);
  assert.match(late.stdout, /"permissionDecision":"deny".*could not read its state in time/u);
  const offRepo = tempRepo();
  scratch.push(() => offRepo.dispose());
  const off = await hookOutcome(["hook", "--host", "claude", "--workspace", offRepo.root, "PreToolUse"], input(offRepo.root), offRepo.root, { budgetMs: 0 });
  assert.equal(off.stdout, "{}\n");
  // Known read-only tools need no state at all.
  const read = await hookOutcome(["hook", "--host", "claude", "--workspace", gated, "PreToolUse"], JSON.stringify({ session_id: "s", cwd: gated, tool_name: "Read", tool_input: {} }), gated, { budgetMs: 0 });
  assert.equal(read.stdout, "{}\n");
});
