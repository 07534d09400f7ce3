// The demo workspace `npm start` opens (scripts/demo/create-workspace.sh): its one commit holds the demo project
// and nothing Docket writes, and it stays clean while Docket runs in it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";
import { runGit, tempFolder } from "../support/gitRepo";

const root = repoRoot();
const createScript = path.join(root, "scripts", "demo", "create-workspace.sh");
const cli = path.join(root, "dist", "docket.js");

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** HOME is a fresh folder, so no global git or Docket configuration of the machine takes part. */
function isolatedEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home, GIT_CONFIG_NOSYSTEM: "1" };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function createWorkspace(workspace: string, home: string): Run {
  const result = spawnSync("bash", [createScript, workspace], { encoding: "utf8", env: isolatedEnv(home) });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function docket(workspace: string, home: string, args: readonly string[]): Run {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: workspace, encoding: "utf8", input: "", env: isolatedEnv(home) });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function gitStatus(workspace: string): string {
  return runGit(workspace, ["status", "--porcelain", "--untracked-files=all"]);
}

function withTempFolders(body: (workspace: string, home: string) => void): void {
  const scratch = tempFolder("docket-demo-workspace-");
  try {
    body(path.join(scratch, "demo"), path.join(scratch, "home"));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

test("the demo workspace commits only the demo project; the Notebook proposal waits uncommitted", () => {
  withTempFolders((workspace, home) => {
    fs.mkdirSync(home);
    const created = createWorkspace(workspace, home);
    assert.equal(created.status, 0, created.stderr);
    assert.equal(created.stderr, "", "no warning while creating it");

    assert.deepEqual(runGit(workspace, ["ls-files"]).trim().split("\n"), [
      ".gitignore",
      ".vscode/settings.json",
      "README.md",
      "notes/.observer/notebook.json",
      "src/greet.ts",
    ]);
    assert.equal(runGit(workspace, ["rev-list", "--count", "HEAD"]).trim(), "1");
    assert.equal(gitStatus(workspace), "");

    const proposals = docket(workspace, home, ["notebook", "proposals", "--workspace", workspace, "--json"]);
    assert.equal(proposals.status, 0, proposals.stderr);
    const { proposals: pending } = JSON.parse(proposals.stdout) as {
      proposals: { proposalId: string; valid: boolean; stale: boolean; records: { recordId: string; operation: string }[] }[];
    };
    assert.equal(pending.length, 1);
    const [proposal] = pending;
    assert.ok(proposal !== undefined && proposal.valid && !proposal.stale, "the proposal can be saved");
    assert.deepEqual(proposal.records.map((record) => [record.operation, record.recordId]), [["create", "source-5d0c3a52-8f1e-4c2b-9a7d-3e6f0b1c2d4e"]]);
    const proposalFile = `.docket/notebook/proposals/${proposal.proposalId}.json`;
    assert.ok(fs.existsSync(path.join(workspace, proposalFile)));
    assert.equal(runGit(workspace, ["check-ignore", proposalFile]).trim(), proposalFile, "git ignores the proposal");
  });
});

test("turning Docket on and off in the demo workspace leaves git status clean", () => {
  withTempFolders((workspace, home) => {
    fs.mkdirSync(home);
    const created = createWorkspace(workspace, home);
    assert.equal(created.status, 0, created.stderr);

    const on = docket(workspace, home, ["on"]);
    assert.equal(on.status, 0, on.stderr);
    assert.ok(fs.statSync(path.join(workspace, ".docket", "ledger.jsonl")).size > 0, "Docket wrote its ledger");
    assert.equal(gitStatus(workspace), "", "clean while Docket is on");

    const off = docket(workspace, home, ["off"]);
    assert.equal(off.status, 0, off.stderr);
    assert.equal(gitStatus(workspace), "", "clean after Docket is turned off");

    // The user's own edit is the only thing git reports.
    fs.appendFileSync(path.join(workspace, "src", "greet.ts"), "// edited\n");
    assert.equal(gitStatus(workspace), " M src/greet.ts\n");
  });
});

test("the demo workspace is only created in a new folder: an existing one is refused and left as it was", () => {
  withTempFolders((workspace, home) => {
    fs.mkdirSync(home);
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "mine.txt"), "keep\n");
    const refused = createWorkspace(workspace, home);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /already exists/u);
    assert.deepEqual(fs.readdirSync(workspace), ["mine.txt"]);
    assert.equal(fs.readFileSync(path.join(workspace, "mine.txt"), "utf8"), "keep\n");
  });
});
