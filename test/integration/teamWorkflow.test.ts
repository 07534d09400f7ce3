// Issue 17 end to end, as two developers and CI would run it: one origin with a committed ledger,
// two clones each connected to Git (`docket connect git`), each landing a change through Docket on
// its own branch and committing it with the prepare-commit-msg hook, one branch merging the other
// through the ledger merge driver, and the CI workflow's commands (docs/examples/docket-audit.yml)
// on a fresh clone of the merged branch. Real Git, the built CLI, Docket's MCP server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { runGit, tempFolder, tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";
import { callToolOk, connectMcp, DOCKET_CLI } from "../support/mcpClient";

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function docket(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Run {
  const run = spawnSync(process.execPath, [DOCKET_CLI, ...args], { cwd, encoding: "utf8", env });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function ok(run: Run, what: string): string {
  assert.equal(run.status, 0, `${what}: ${run.stderr}`);
  return run.stdout;
}

/** One whole cycle through Docket's MCP tools: judge, authorize, edit `file`, land, settle the reroute (the scope stays open). */
async function landThroughDocket(workspace: string, file: string, content: string): Promise<string> {
  ok(docket(workspace, ["on"]), "docket on");
  const client = await connectMcp(workspace, { name: "team-workflow" });
  try {
    await callToolOk(client, "open_judgment", {
      purpose: "work-decision",
      routeDefinitionId: "route:meaning-settlement",
      question: `What should ${file} say?`,
      obligations: [{ obligationId: "obligation:wording", statement: "The wording is decided." }],
    });
    await callToolOk(client, "conclude_judgment", {
      disposition: "judgment",
      outcome: { kind: "contextual-judgment", rationale: "The team agreed.", artifact: `Write ${JSON.stringify(content.trim())}.`, stopEvidence: ["Agreed in review."] },
    });
    await callToolOk(client, "authorize_change", { movement: `Edit ${file}.`, stableLanding: `${file} holds the agreed text.`, verificationTarget: `${file} holds the agreed text.` });
    fs.writeFileSync(path.join(workspace, file), content);
    await callToolOk(client, "record_landing", { result: `${file} changed.`, verification: [`cat ${file}`] });
    await callToolOk(client, "open_judgment", {
      purpose: "reroute-decision",
      routeDefinitionId: "route:meaning-settlement",
      question: "Does the landing change the plan?",
      obligations: [{ obligationId: "obligation:plan", statement: "The plan still holds." }],
    });
    await callToolOk(client, "conclude_judgment", { disposition: "not-applicable", reason: "The plan is unchanged.", basis: ["Only the planned file changed."] });
  } finally {
    await client.close();
  }
  const status = JSON.parse(ok(docket(workspace, ["status", "--json"]), "docket status")) as { workScopeId: string };
  return status.workScopeId;
}

/** Commits everything while the scope is open (the hook links the open scope's landings), then closes the scope and commits the ledger's closing lines. */
function commitAndClose(clone: string, message: string): void {
  runGit(clone, ["add", "--all"]);
  runGit(clone, ["commit", "--quiet", "-m", message]);
  ok(docket(clone, ["off"]), "docket off");
  runGit(clone, ["add", "--all"]);
  runGit(clone, ["commit", "--quiet", "-m", "Close the Docket scope"]);
}

function cloneConnected(origin: string, parent: string, name: string): string {
  const clone = path.join(parent, name);
  runGit(parent, ["clone", "--quiet", origin, clone]);
  runGit(clone, ["config", "user.name", `Developer ${name}`]);
  runGit(clone, ["config", "user.email", `${name}@example.invalid`]);
  runGit(clone, ["config", "commit.gpgsign", "false"]);
  ok(docket(clone, ["connect", "git"]), `docket connect git in ${name}`);
  return clone;
}

test("two developers land through Docket, the hook links their commits, the driver merges their ledgers, and CI's verify and audit pass", { timeout: 240_000 }, async () => {
  const origin = tempRepo({ files: { "README.md": "# Greeter\n", "src/greeting.ts": "export const greeting = \"Hello\";\n", "src/farewell.ts": "export const farewell = \"Bye\";\n" } });
  const parent = tempFolder("docket-team-");
  try {
    const main = runGit(origin.root, ["rev-parse", "--abbrev-ref", "HEAD"]).trim();
    // The shared prefix: the project already committed a ledger with one closed scope, and the
    // .gitattributes line that hands it to the driver.
    ok(docket(origin.root, ["on"]), "docket on in origin");
    ok(docket(origin.root, ["off"]), "docket off in origin");
    fs.writeFileSync(path.join(origin.root, ".gitattributes"), ".docket/ledger.jsonl merge=docket-ledger\n");
    origin.commitAll("Share the Docket ledger");

    const alice = cloneConnected(origin.root, parent, "alice");
    const bob = cloneConnected(origin.root, parent, "bob");
    runGit(alice, ["switch", "--quiet", "-c", "greeting"]);
    runGit(bob, ["switch", "--quiet", "-c", "farewell"]);

    const aliceScope = await landThroughDocket(alice, "src/greeting.ts", "export const greeting = \"Hello, world\";\n");
    commitAndClose(alice, "Greet the world");
    const bobScope = await landThroughDocket(bob, "src/farewell.ts", "export const farewell = \"Goodbye\";\n");
    commitAndClose(bob, "Say goodbye");
    assert.notEqual(aliceScope, bobScope, "scope ids differ across clones opened after the same prefix");
    // The hook named each commit's landing (a landing's trailer, then the scope's).
    assert.match(runGit(alice, ["log", "-1", "--format=%B", "HEAD~1"]), new RegExp(`\\nDocket-Landing: landing:[0-9a-f]{24} [0-9a-f]{64}\\nDocket-Scope: ${aliceScope}\\n`, "u"));
    assert.match(runGit(bob, ["log", "-1", "--format=%B", "HEAD~1"]), new RegExp(`\\nDocket-Landing: landing:[0-9a-f]{24} [0-9a-f]{64}\\nDocket-Scope: ${bobScope}\\n`, "u"));
    runGit(bob, ["push", "--quiet", "origin", "farewell"]);

    // Alice brings Bob's branch into hers: both appended to the ledger, so Git runs the driver.
    runGit(alice, ["fetch", "--quiet", "origin"]);
    const merge = spawnSync("git", ["-C", alice, "merge", "--no-edit", "origin/farewell"], { encoding: "utf8" });
    assert.equal(merge.status, 0, merge.stderr + merge.stdout);
    assert.match(ok(docket(alice, ["ledger", "verify"]), "verify after the merge"), /^ok: /u);
    assert.match(ok(docket(alice, ["status"]), "status after the merge"), /^phase: off$/mu);
    // The other merge direction gives the same ledger bytes.
    runGit(bob, ["fetch", "--quiet", "origin"]);
    runGit(alice, ["push", "--quiet", "origin", "greeting"]);
    runGit(bob, ["fetch", "--quiet", "origin"]);
    const mirror = path.join(parent, "mirror");
    runGit(parent, ["clone", "--quiet", "--branch", "farewell", origin.root, mirror]);
    runGit(mirror, ["config", "user.name", "Mirror"]);
    runGit(mirror, ["config", "user.email", "mirror@example.invalid"]);
    ok(docket(mirror, ["connect", "git"]), "docket connect git in the mirror");
    const aliceBranchTip = runGit(alice, ["rev-parse", "HEAD^1"]).trim();
    const mirrored = spawnSync("git", ["-C", mirror, "merge", "--no-edit", aliceBranchTip], { encoding: "utf8" });
    assert.equal(mirrored.status, 0, mirrored.stderr + mirrored.stdout);
    assert.equal(fs.readFileSync(path.join(mirror, ".docket", "ledger.jsonl"), "utf8"), fs.readFileSync(path.join(alice, ".docket", "ledger.jsonl"), "utf8"));

    // CI on the pull request of Alice's merged branch: the workflow's own steps, in a fresh clone.
    const ci = path.join(parent, "ci");
    runGit(parent, ["clone", "--quiet", "--no-local", "--branch", "greeting", origin.root, ci]);
    const bin = path.join(parent, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "docket"), `#!/bin/sh\nexec "${process.execPath}" "${DOCKET_CLI}" "$@"\n`, { mode: 0o755 });
    const workflow = parse(fs.readFileSync(path.join(repoRoot(), "docs", "examples", "docket-audit.yml"), "utf8")) as { jobs: { audit: { steps: { name?: string; run?: string }[] } } };
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`, GITHUB_STEP_SUMMARY: path.join(parent, "summary.md"), BASE_REF: main };
    const step = (name: string): Run => {
      const script = workflow.jobs.audit.steps.find((candidate) => candidate.name === name)?.run;
      assert.ok(script !== undefined, name);
      const run = spawnSync("bash", ["-e", "-c", script], { cwd: ci, env, encoding: "utf8" });
      return { status: run.status, stdout: run.stdout, stderr: run.stderr };
    };
    assert.match(ok(step("Verify the ledger"), "the workflow's verify"), /git: matches the ledger committed at/u);
    // Both changes were landed through Docket; their verification judgments are still owed.
    const audited = step("Audit the pull request");
    assert.equal(audited.status, 1, audited.stderr);
    assert.doesNotMatch(audited.stderr, /violation: landed/u);
    assert.match(audited.stderr, /violation: verified: verification-pending/u);
    const landedOnly = docket(ci, ["audit", `origin/${main}..HEAD`, "--require", "landed,claimed", "--json"], env);
    assert.equal(landedOnly.status, 0, landedOnly.stderr);
    const report = JSON.parse(landedOnly.stdout) as { commits: { subject: string; paths: { path: string; class: string }[] }[] };
    const classes = report.commits.flatMap((commit) => commit.paths.map((entry) => `${commit.subject}: ${entry.path}=${entry.class}`));
    assert.ok(classes.includes("Greet the world: src/greeting.ts=landed"), classes.join("\n"));
    assert.ok(classes.includes("Say goodbye: src/farewell.ts=landed"), classes.join("\n"));
    assert.ok(!classes.some((entry) => entry.endsWith("=unlanded")), classes.join("\n"));
  } finally {
    origin.dispose();
    fs.rmSync(parent, { recursive: true, force: true, maxRetries: 30, retryDelay: 100 });
  }
});
