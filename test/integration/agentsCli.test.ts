// `docket connect|disconnect claude|codex` as a person runs it: a real child process in a temp
// Git repository with a space in its path, real files, exit codes, byte-for-byte round trips.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempFolder, tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const cli = fs.realpathSync(path.join(repoRoot(), "dist", "docket.js"));

function docket(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file under `root` except .git, as relative path → text. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (directory: string): void => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === ".git") continue;
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(absolute);
      else out[path.relative(root, absolute)] = fs.readFileSync(absolute, "utf8");
    }
  };
  walk(root);
  return out;
}

function dirs(root: string): string[] {
  return fs.readdirSync(root).filter((name) => name !== ".git").sort();
}

// Docket re-serializes a JSON file it changes with 2-space indentation, so a file already in that
// form comes back byte for byte (any other layout comes back as equal JSON).
const claudeSettings = `${JSON.stringify({ permissions: { allow: ["Bash(npm test)"] }, hooks: { Stop: [{ hooks: [{ type: "command", command: "./stop.sh" }] }] } }, null, 2)}\n`;
const codexConfig = '# personal\nmodel = "o3"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n';

for (const host of ["claude", "codex"] as const) {
  test(`connect ${host} → files → connect again is a no-op → disconnect restores the original bytes`, () => {
    const parent = tempFolder("docket agents ");
    const repo = tempRepo();
    const root = path.join(parent, "my repo");
    fs.renameSync(repo.root, root);
    try {
      if (host === "claude") {
        fs.mkdirSync(path.join(root, ".claude"));
        fs.writeFileSync(path.join(root, ".claude", "settings.json"), claudeSettings);
      } else {
        fs.mkdirSync(path.join(root, ".codex"));
        fs.writeFileSync(path.join(root, ".codex", "config.toml"), codexConfig);
      }
      const original = tree(root);
      const originalDirs = dirs(root);
      const sub = path.join(root, "src");
      fs.mkdirSync(sub);

      const dry = docket(["connect", host, "--dry-run"], sub);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stdout, /dry run/u);
      assert.match(dry.stdout, /^\+\+\+ b\//mu);
      fs.rmdirSync(sub);
      assert.deepEqual(tree(root), original, "--dry-run writes nothing");

      const connected = docket(["connect", host, "--workspace", root], parent);
      assert.equal(connected.status, 0, connected.stderr);
      assert.match(connected.stdout, host === "claude" ? /Restart Claude Code/u : /\/hooks/u);
      const after = tree(root);
      if (host === "claude") {
        const settings = JSON.parse(after[".claude/settings.json"] ?? "") as { permissions: unknown; hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
        assert.deepEqual(settings.permissions, { allow: ["Bash(npm test)"] });
        assert.equal(settings.hooks["PreToolUse"]?.[0]?.hooks[0]?.command, `node "${path.join(path.dirname(cli), "docket-hook.js")}" hook --host claude --workspace "${fs.realpathSync(root)}" PreToolUse`);
        const mcp = JSON.parse(after[".mcp.json"] ?? "") as { mcpServers: Record<string, unknown> };
        assert.deepEqual(mcp.mcpServers["docket"], { command: "node", args: [cli, "mcp", "--workspace", root] });
      } else {
        assert.ok(after[".codex/config.toml"]?.startsWith(codexConfig));
        assert.ok(after[".codex/config.toml"]?.includes(`args = [${JSON.stringify(cli)}, "mcp", "--workspace", ${JSON.stringify(root)}]`));
        const hooks = JSON.parse(after[".codex/hooks.json"] ?? "") as { hooks: Record<string, unknown> };
        assert.deepEqual(Object.keys(hooks.hooks), ["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"]);
      }

      const again = docket(["connect", host, "--json"], root);
      assert.equal(again.status, 0, again.stderr);
      const json = JSON.parse(again.stdout) as { files: unknown[]; dryRun: boolean; runtimePath: string };
      assert.deepEqual(json.files, [], "second connect changes nothing");
      assert.equal(json.runtimePath, cli);
      assert.deepEqual(tree(root), after);

      const status = docket(["status", "--json"], root);
      const agents = (JSON.parse(status.stdout) as { agents: Array<{ host: string; installed: boolean }> }).agents;
      assert.equal(agents.find((agent) => agent.host === host)?.installed, true);

      const disconnected = docket(["disconnect", host], root);
      assert.equal(disconnected.status, 0, disconnected.stderr);
      assert.deepEqual(tree(root), original, "disconnect restores every file byte for byte");
      assert.deepEqual(dirs(root), originalDirs, "directories connect created are gone");
      const noop = docket(["disconnect", host], root);
      assert.equal(noop.status, 0);
      assert.match(noop.stdout, /nothing to change/u);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
      repo.dispose();
    }
  });
}

test("a malformed config is refused with exit 3 and a coded error; nothing is written", () => {
  const repo = tempRepo();
  try {
    repo.write(".claude/settings.json", "{ \"hooks\": [ }");
    const before = tree(repo.root);
    const result = docket(["connect", "claude"], repo.root);
    assert.equal(result.status, 3);
    assert.match(result.stderr, /docket\.agent-config-malformed/u);
    assert.deepEqual(tree(repo.root), before);

    // An inline mcp_servers table cannot take Docket's [mcp_servers.docket] (a multi-line string can, now that a TOML parser checks the edit).
    repo.write(".codex/config.toml", 'mcp_servers = { other = { command = "x" } }\n');
    const codex = docket(["connect", "codex"], repo.root);
    assert.equal(codex.status, 3);
    assert.match(codex.stderr, /docket\.agent-config-unsupported/u);
    assert.equal(fs.existsSync(path.join(repo.root, ".codex", "hooks.json")), false, "no file of the plan is written");
  } finally {
    repo.dispose();
  }
});

test("a host config that links to a device without end is refused at once; nothing is written", () => {
  const repo = tempRepo();
  try {
    fs.symlinkSync("/dev/zero", path.join(repo.root, ".mcp.json"));
    const started = Date.now();
    const result = spawnSync(process.execPath, ["--max-old-space-size=128", cli, "connect", "claude"], { cwd: repo.root, encoding: "utf8", timeout: 30_000 });
    assert.equal(result.signal, null, "not killed");
    assert.ok(Date.now() - started < 20_000);
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /docket\.agent-config-unwritable: Cannot read .*\.mcp\.json .*is not a regular file/u);
    assert.equal(fs.existsSync(path.join(repo.root, ".claude")), false, "no file of the plan is written");
  } finally {
    repo.dispose();
  }
});

test("usage errors: unknown host, missing host, unknown option", () => {
  const repo = tempRepo();
  try {
    for (const args of [["connect", "cursor"], ["connect"], ["disconnect", "claude", "--force"]]) {
      const result = docket(args, repo.root);
      assert.equal(result.status, 2, args.join(" "));
      assert.match(result.stderr, /docket\.usage/u);
    }
    assert.match(docket(["--help"], repo.root).stdout, /docket connect claude\|codex/u);
  } finally {
    repo.dispose();
  }
});
