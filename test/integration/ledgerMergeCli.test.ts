// `docket merge-ledger` as Git's merge driver, in real temporary repositories with the built CLI:
// two branches that each turned Docket on and off merge into the same bytes in both directions,
// a ledger `docket ledger verify` accepts and a workspace that is not blocked (the moved side
// through its merge record); every input the driver does not understand is a normal Git conflict
// with a coded message and the work-tree ledger left as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runGit, tempFolder } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");
const LEDGER = path.join(".docket", "ledger.jsonl");

function docket(cwd: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function ok(cwd: string, args: readonly string[]): string {
  const result = docket(cwd, args);
  assert.equal(result.status, 0, `docket ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

function git(cwd: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync("git", ["-C", cwd, ...args], { encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function commitAll(cwd: string, message: string): void {
  runGit(cwd, ["add", "--all"]);
  runGit(cwd, ["commit", "--quiet", "--no-verify", "-m", message]);
}

interface TwoBranches {
  /** The main work tree, on branch `a`. */
  readonly a: string;
  /** A second work tree (its own gitignored `.docket/` state), on branch `b`. */
  readonly b: string;
  dispose(): void;
}

/** A repository whose base commit holds a ledger made by `base`, with the driver configured by hand. */
function twoBranches(base: (cwd: string) => void): TwoBranches {
  const parent = tempFolder("docket-merge-git-");
  const a = path.join(parent, "a");
  const b = path.join(parent, "b");
  fs.mkdirSync(a);
  runGit(a, ["init", "--quiet", "-b", "a"]);
  runGit(a, ["config", "user.name", "Docket Test"]);
  runGit(a, ["config", "user.email", "docket-test@example.invalid"]);
  runGit(a, ["config", "commit.gpgsign", "false"]);
  runGit(a, ["config", "merge.docket-ledger.driver", `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} merge-ledger %O %A %B %P`]);
  runGit(a, ["config", "merge.docket-ledger.name", "Docket ledger merge"]);
  fs.writeFileSync(path.join(a, ".gitattributes"), ".docket/ledger.jsonl merge=docket-ledger\n");
  fs.writeFileSync(path.join(a, "README.md"), "base\n");
  base(a);
  commitAll(a, "base");
  runGit(a, ["worktree", "add", "--quiet", "-b", "b", b]);
  return { a, b, dispose: () => fs.rmSync(parent, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }) };
}

function onOff(cwd: string): void {
  ok(cwd, ["on"]);
  ok(cwd, ["off"]);
}

function ledgerOf(cwd: string): Buffer {
  return fs.readFileSync(path.join(cwd, LEDGER));
}

/** A Claude Code PreToolUse call for a shell command, through the hook bundle agents run. */
function preToolUseDenied(cwd: string): boolean {
  const input = JSON.stringify({ session_id: "s", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
  const result = spawnSync(process.execPath, [path.join(repoRoot(), "dist", "docket-hook.js"), "hook", "--host", "claude", "--workspace", cwd, "PreToolUse"], { cwd, input, encoding: "utf8" });
  return /"permissionDecision":"deny"/u.test(result.stdout);
}

function phase(cwd: string): string {
  return (JSON.parse(ok(cwd, ["status", "--json"])) as { phase: string }).phase;
}

test("two branches that each opened and closed scopes merge through the driver in both directions into the same verified ledger, and neither workspace is blocked", () => {
  const repo = twoBranches(onOff);
  try {
    onOff(repo.a);
    commitAll(repo.a, "a: a scope");
    onOff(repo.b);
    onOff(repo.b);
    commitAll(repo.b, "b: two scopes");
    runGit(repo.a, ["branch", "a-before"]);
    const before = { a: ledgerOf(repo.a), b: ledgerOf(repo.b) };

    const intoA = git(repo.a, ["merge", "--no-edit", "b"]);
    assert.equal(intoA.status, 0, intoA.stderr + intoA.stdout);
    const intoB = git(repo.b, ["merge", "--no-edit", "a-before"]);
    assert.equal(intoB.status, 0, intoB.stderr + intoB.stdout);

    const merged = ledgerOf(repo.a);
    assert.deepEqual(merged, ledgerOf(repo.b), "both merge directions give the same bytes");
    assert.equal(merged.toString("utf8").split("\n").filter((line) => line !== "").length, 2 + 2 + 4);
    // One side's lines are kept as they were; the other's follow, renumbered.
    const keptA = merged.subarray(0, before.a.length).equals(before.a);
    const keptB = merged.subarray(0, before.b.length).equals(before.b);
    assert.ok(keptA !== keptB, "exactly one side keeps its positions");
    const moved = keptA ? repo.b : repo.a;
    assert.equal(fs.existsSync(path.join(moved, ".docket", "ledger.jsonl.merged")), true, "the moved side has a merge record");

    for (const cwd of [repo.a, repo.b]) {
      const verify = docket(cwd, ["ledger", "verify"]);
      assert.equal(verify.status, 0, verify.stdout + verify.stderr);
      assert.match(verify.stdout, /^ok: 8 lines, 8 accepted entries/mu);
      assert.match(verify.stdout, /^head anchor: matched/mu);
      assert.equal(phase(cwd), "off", "the workspace is not blocked after the merge");
      assert.equal(preToolUseDenied(cwd), false, "the hooks do not see a blocked ledger");
      if (cwd === moved) {
        // The record is what vouches for the renumbered ledger: without it, the anchor's refusal.
        const record = path.join(cwd, ".docket", "ledger.jsonl.merged");
        const saved = fs.readFileSync(record);
        fs.rmSync(record);
        assert.equal(preToolUseDenied(cwd), true);
        assert.equal(docket(cwd, ["ledger", "verify"]).status, 1);
        fs.writeFileSync(record, saved);
      }
      // The next write anchors the merged ledger and drops the record.
      ok(cwd, ["on"]);
      assert.equal(fs.existsSync(path.join(cwd, ".docket", "ledger.jsonl.merged")), false);
      assert.equal(docket(cwd, ["ledger", "verify"]).status, 0);
    }
  } finally {
    repo.dispose();
  }
});

test("while other files of the merge are in conflict, verify accepts the ledger only as Docket's merge of HEAD and MERGE_HEAD", () => {
  const repo = twoBranches(onOff);
  try {
    onOff(repo.a);
    fs.writeFileSync(path.join(repo.a, "README.md"), "a\n");
    commitAll(repo.a, "a: a scope and a README");
    onOff(repo.b);
    fs.writeFileSync(path.join(repo.b, "README.md"), "b\n");
    commitAll(repo.b, "b: a scope and another README");
    runGit(repo.a, ["branch", "a-before"]);
    assert.notEqual(git(repo.a, ["merge", "--no-edit", "b"]).status, 0, "README.md conflicts");
    assert.notEqual(git(repo.b, ["merge", "--no-edit", "a-before"]).status, 0, "README.md conflicts");
    assert.deepEqual(ledgerOf(repo.a), ledgerOf(repo.b), "the ledger itself merged, the same both ways");
    for (const cwd of [repo.a, repo.b]) {
      const verify = docket(cwd, ["ledger", "verify", "--json"]);
      assert.equal(verify.status, 0, verify.stdout);
      assert.equal((JSON.parse(verify.stdout) as { git: { state: string } }).git.state, "matched");
    }
    // A ledger that is not that merge (a fresh one, anchored by hand) is still caught by Git's copy.
    fs.rmSync(path.join(repo.a, LEDGER));
    ok(repo.a, ["ledger", "anchor", "--accept"]);
    onOff(repo.a);
    const verify = docket(repo.a, ["ledger", "verify", "--json"]);
    assert.equal(verify.status, 1, verify.stdout);
    assert.equal((JSON.parse(verify.stdout) as { git: { state: string } }).git.state, "mismatched");
  } finally {
    repo.dispose();
  }
});

test("merge-ledger usage: wrong arity is exit 2", () => {
  const result = docket(process.cwd(), ["merge-ledger", "a", "b"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /^docket: docket\.usage: merge-ledger needs BASE OURS THEIRS/mu);
});

/** Merges b into a, expecting a conflict whose message names `code`, with a's ledger untouched. */
function assertConflict(repo: TwoBranches, code: string): void {
  const before = ledgerOf(repo.a);
  const merge = git(repo.a, ["merge", "--no-edit", "b"]);
  assert.notEqual(merge.status, 0, "Git reports a conflict");
  assert.match(merge.stdout + merge.stderr, /CONFLICT/u);
  assert.match(merge.stderr, new RegExp(`^docket: ${code.replace(/\./gu, "\\.")}: \\.docket/ledger\\.jsonl: `, "mu"));
  assert.deepEqual(ledgerOf(repo.a), before, "the work-tree ledger is exactly ours");
  assert.equal(fs.existsSync(path.join(repo.a, ".docket", "ledger.jsonl.merged")), false, "no merge record");
}

test("both branches closing the scope the base left open: a conflict naming docket.merge-same-scope", () => {
  const repo = twoBranches((cwd) => ok(cwd, ["on"]));
  try {
    ok(repo.a, ["off"]);
    commitAll(repo.a, "a: off");
    // The second work tree has no anchor of its own: it accepts the committed ledger first.
    ok(repo.b, ["ledger", "anchor", "--accept"]);
    ok(repo.b, ["off"]);
    commitAll(repo.b, "b: off");
    assertConflict(repo, "docket.merge-same-scope");
  } finally {
    repo.dispose();
  }
});

const badSides: Array<{ name: string; code: string; make: (b: string) => void }> = [
  {
    name: "a tampered side (one byte of an entry edited)",
    code: "docket.merge-tampered",
    make: (b) => {
      onOff(b);
      const file = path.join(b, LEDGER);
      const text = fs.readFileSync(file, "utf8");
      const at = text.lastIndexOf('"scopeSequence":1');
      fs.writeFileSync(file, `${text.slice(0, at)}"scopeSequence":2${text.slice(at + 17)}`);
    },
  },
  {
    name: "a truncated side (cut inside its last line)",
    code: "docket.merge-torn",
    make: (b) => {
      onOff(b);
      const file = path.join(b, LEDGER);
      fs.truncateSync(file, fs.statSync(file).size - 20);
    },
  },
  {
    name: "a side that rewrote the common prefix (a fresh ledger in its place)",
    code: "docket.merge-prefix-rewritten",
    make: (b) => {
      fs.rmSync(path.join(b, ".docket"), { recursive: true, force: true });
      onOff(b);
    },
  },
  {
    name: "a non-Docket file at the ledger path",
    code: "docket.merge-not-ledger",
    make: (b) => fs.writeFileSync(path.join(b, LEDGER), "# notes\nnot a ledger\n"),
  },
];

for (const { name, code, make } of badSides) {
  test(`${name}: a conflict naming ${code}, nothing written`, () => {
    const repo = twoBranches(onOff);
    try {
      onOff(repo.a);
      commitAll(repo.a, "a: a scope");
      make(repo.b);
      commitAll(repo.b, "b: bad ledger");
      assertConflict(repo, code);
    } finally {
      repo.dispose();
    }
  });
}

test("unrelated histories (both added a ledger, no common line): a conflict naming docket.merge-unrelated", () => {
  const repo = twoBranches(() => undefined);
  try {
    onOff(repo.a);
    commitAll(repo.a, "a: ledger");
    onOff(repo.b);
    commitAll(repo.b, "b: another ledger");
    assertConflict(repo, "docket.merge-unrelated");
  } finally {
    repo.dispose();
  }
});
