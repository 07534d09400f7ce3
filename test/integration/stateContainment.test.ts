// Symbolic links a repository commits under `.docket/` never redirect Docket's writes: a linked
// `.docket`, a dangling ledger link, linked `hooks/`, `evidence/` and `baselines/` folders and a
// linked checkpoint each get a coded refusal (or are skipped, for best-effort files) and the
// link's target is left exactly as it was. Real CLI and hook processes, real files.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { DocketError } from "../../server/errors";
import { tempFolder, tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const root = repoRoot();
const CLI = path.join(root, "dist", "docket.js");
const HOOK = path.join(root, "dist", "docket-hook.js");

function docket(cwd: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function hook(cwd: string, event: string, input: Record<string, unknown>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [HOOK, "hook", "--host", "claude", event], {
    cwd,
    input: JSON.stringify({ session_id: "s", cwd, hook_event_name: event, ...input }),
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file below `folder` with its bytes, so "left exactly as it was" is one comparison. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (directory: string): void => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(folder, full)] = fs.readFileSync(full, "base64");
    }
  };
  walk(folder);
  return files;
}

test("a `.docket` that is a link to another folder: turning on is refused and nothing lands there", () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  const elsewhere = tempFolder("docket-elsewhere-");
  try {
    fs.writeFileSync(path.join(elsewhere, "keep.txt"), "keep\n");
    fs.symlinkSync(elsewhere, path.join(repo.root, ".docket"));
    const before = snapshot(elsewhere);
    const on = docket(repo.root, ["on"]);
    assert.equal(on.status, 3, on.stderr);
    assert.match(on.stderr, /docket\.unsafe-path: .*symbolic link/u);
    assert.deepEqual(snapshot(elsewhere), before);
    // Reading through it is refused as well: status says the ledger is unusable, not "off".
    const status = docket(repo.root, ["status", "--json"]);
    assert.equal((JSON.parse(status.stdout) as { phase: string }).phase, "blocked");
  } finally {
    repo.dispose();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("a dangling `.docket/ledger.jsonl` link never creates its target", () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  const elsewhere = tempFolder("docket-elsewhere-");
  try {
    fs.mkdirSync(path.join(repo.root, ".docket"));
    const target = path.join(elsewhere, "authorized_keys");
    fs.symlinkSync(target, path.join(repo.root, ".docket", "ledger.jsonl"));
    const on = docket(repo.root, ["on"]);
    assert.equal(on.status, 3, on.stderr);
    assert.match(on.stderr, /docket\.unsafe-path/u);
    assert.equal(fs.existsSync(target), false);
    // The hook treats a linked ledger as unusable: shell and edit tools stay denied.
    const denied = hook(repo.root, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" });
    assert.equal(denied.status, 0, denied.stderr);
    assert.match(denied.stdout, /"permissionDecision":"deny"/u);
    assert.equal(fs.existsSync(target), false);
  } finally {
    repo.dispose();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("linked `hooks/`, `evidence/` and checkpoint files under a real `.docket` receive nothing", () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  const elsewhere = tempFolder("docket-elsewhere-");
  try {
    assert.equal(docket(repo.root, ["on"]).status, 0);
    const docketFolder = path.join(repo.root, ".docket");
    for (const name of ["hooks", "evidence"]) {
      fs.rmSync(path.join(docketFolder, name), { recursive: true, force: true });
      fs.mkdirSync(path.join(elsewhere, name));
      fs.symlinkSync(path.join(elsewhere, name), path.join(docketFolder, name));
    }
    const checkpoint = path.join(docketFolder, "ledger.jsonl.checkpoint.json");
    fs.rmSync(checkpoint);
    fs.writeFileSync(path.join(elsewhere, "checkpoint.json"), "mine\n");
    fs.symlinkSync(path.join(elsewhere, "checkpoint.json"), checkpoint);
    const before = snapshot(elsewhere);
    const pre = hook(repo.root, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" });
    assert.match(pre.stdout, /"permissionDecision":"deny"/u, "still gated");
    const post = hook(repo.root, "PostToolUse", { tool_name: "Read", tool_input: { file_path: "a.txt" }, tool_response: "a", tool_use_id: "t2" });
    assert.equal(post.status, 0);
    assert.match(post.stderr, /not captured/u);
    assert.deepEqual(snapshot(elsewhere), before, "nothing was written through a link");
  } finally {
    repo.dispose();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("a linked `baselines/` folder: authorizing is refused with a coded error and its target is untouched", async () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  const elsewhere = tempFolder("docket-elsewhere-");
  try {
    const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true });
    ledger.refresh();
    fs.mkdirSync(path.join(repo.root, ".docket"), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(repo.root, ".docket", "baselines"));
    await ledger.turnOn();
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What?", obligations: [{ obligationId: "obligation:a", statement: "Settled." }] });
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing to decide.", basis: ["Already clear."] });
    await assert.rejects(
      ledger.authorizeChange({ movement: "Edit a.", stableLanding: "a is edited.", verificationTarget: "It reads well." }),
      (error: unknown) => error instanceof DocketError && (error.code === "docket.unsafe-path" || error.code === "docket.baseline-missing") && /symbolic link/u.test(error.message),
    );
    assert.deepEqual(fs.readdirSync(elsewhere), []);
  } finally {
    repo.dispose();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("a shipped stale lock whose breaker links to /dev/zero: writers and hooks finish in bounded memory", async () => {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  try {
    const docketFolder = path.join(repo.root, ".docket");
    const plant = (folder: string, lock: string): void => {
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, lock), "not an owner");
      fs.utimesSync(path.join(folder, lock), new Date(2020, 0, 1), new Date(2020, 0, 1));
      fs.symlinkSync("/dev/zero", path.join(folder, `${lock}.break`));
    };
    plant(docketFolder, "ledger.jsonl.lock");
    const bounded = (args: readonly string[], input?: string) =>
      spawnSync(process.execPath, ["--max-old-space-size=128", ...args], { cwd: repo.root, input, encoding: "utf8", timeout: 30_000 });
    const on = bounded([CLI, "on"]);
    assert.equal(on.signal, null, "not killed");
    assert.equal(on.status, 0, on.stderr);
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath: path.join(docketFolder, "ledger.jsonl"), trusted: true });
    ledger.refresh();
    assert.equal(ledger.status().phase, "deciding");
    plant(path.join(docketFolder, "evidence"), "append.lock");
    const input = JSON.stringify({ session_id: "s", cwd: repo.root, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a.ts" }, tool_use_id: "t" });
    const captured = bounded([HOOK, "hook", "--host", "claude", "PostToolUse"], input);
    assert.equal(captured.signal, null, "not killed");
    assert.equal(captured.status, 0, captured.stderr);
  } finally {
    repo.dispose();
  }
});
