// Commits linked to landings (issue 17) as a person uses them: `docket connect git` through the
// built CLI in real temporary repositories, real `git commit` runs that execute the installed
// prepare-commit-msg hook, `docket link` notes, and commitsByLanding reading them back. Landings
// are real: on, judge, authorize, edit, land through WorkspaceLedger against the same repository.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { commitsByLanding } from "../../server/team/commitLinks";
import { runGit, tempFolder, tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const cli = fs.realpathSync(path.join(repoRoot(), "dist", "docket.js"));
const obligations = [{ obligationId: "obligation:a", statement: "The question is settled." }];

function docket(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function clock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

interface Landed {
  readonly ledger: WorkspaceLedger;
  readonly workScopeId: string;
  readonly landingId: string;
  readonly eventSha256: string;
}

/** On, a concluded judgment, an authorization, the edit, a landing: as an agent's cycle leaves it. */
async function land(workspace: string, edit: () => void): Promise<Landed> {
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath: path.join(workspace, ".docket", "ledger.jsonl"), trusted: true, clock: clock() });
  ledger.refresh();
  const on = await ledger.turnOn();
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "What changes?", obligations });
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing.", basis: ["Seen."] });
  await ledger.authorizeChange({ movement: "Change a.", stableLanding: "a is changed.", verificationTarget: "Types check." });
  edit();
  await ledger.recordLanding({ result: "Changed a.", verification: [] });
  const landing = ledger.landingsNow()[0];
  assert.ok(landing !== undefined && on.workScopeId !== null);
  return { ledger, workScopeId: on.workScopeId, landingId: landing.landingId, eventSha256: landing.eventSha256 };
}

function commit(root: string, message: string, paths: readonly string[], extra: readonly string[] = []): { status: number | null; stderr: string } {
  runGit(root, ["add", "--", ...paths]);
  const result = spawnSync("git", ["-C", root, "commit", "--quiet", "-m", message, ...extra], { encoding: "utf8" });
  return { status: result.status, stderr: result.stderr };
}

function message(root: string, rev = "HEAD"): string {
  return runGit(root, ["log", "-1", "--format=%B", rev]);
}

function docketTrailers(root: string, rev = "HEAD"): string[] {
  return runGit(root, ["log", "-1", "--format=%(trailers:key=Docket-Landing,key=Docket-Scope,unfold)", rev])
    .split("\n")
    .filter((line) => line !== "");
}

function localConfig(root: string): string {
  const result = spawnSync("git", ["-C", root, "config", "--local", "--list"], { encoding: "utf8" });
  return result.stdout;
}

function hookFile(root: string): string {
  return path.join(root, ".git", "hooks", "prepare-commit-msg");
}

function fixture(parentName = "docket links "): { repo: TempRepo; root: string; cleanup: () => void } {
  const parent = tempFolder(parentName);
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n", "src/c.ts": "export const c = 1;\n", ".gitignore": ".docket/\n" } });
  const root = path.join(parent, "my repo");
  fs.renameSync(repo.root, root);
  return {
    repo,
    root,
    cleanup: () => fs.rmSync(parent, { recursive: true, force: true, maxRetries: 30, retryDelay: 100 }),
  };
}

test("connect git --dry-run prints the three changes and writes nothing", () => {
  const { root, cleanup } = fixture();
  try {
    const configBefore = localConfig(root);
    const dry = docket(["connect", "git", "--dry-run"], root);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /^Would change \(dry run, nothing written\):/u);
    assert.match(dry.stdout, /\+\.docket\/ledger\.jsonl merge=docket-ledger/u);
    assert.match(dry.stdout, /create \.git\/hooks\/prepare-commit-msg \(executable\)/u);
    assert.match(dry.stdout, /\+'.*' '.*docket\.js' link --prepare-commit-msg --workspace '.*my repo' -- "\$@"/u);
    assert.match(dry.stdout, /git config --local merge\.docket-ledger\.name "Docket ledger merge"/u);
    assert.match(dry.stdout, /git config --local merge\.docket-ledger\.driver ".* merge-ledger %O %A %B %P"/u);
    assert.equal(fs.existsSync(path.join(root, ".gitattributes")), false);
    assert.equal(fs.existsSync(hookFile(root)), false);
    assert.equal(localConfig(root), configBefore);
    const json = JSON.parse(docket(["connect", "git", "--dry-run", "--json"], root).stdout) as { dryRun: boolean; files: unknown[]; config: unknown[]; planSha256: string };
    assert.equal(json.dryRun, true);
    assert.equal(json.files.length, 2);
    assert.equal(json.config.length, 2);
    assert.match(json.planSha256, /^[0-9a-f]{64}$/u);
  } finally {
    cleanup();
  }
});

test("connect git writes the three things, again is a no-op, disconnect removes exactly them", () => {
  const { root, cleanup } = fixture();
  try {
    const attributes = "*.png binary\r\n# keep me\n*.txt text";
    fs.writeFileSync(path.join(root, ".gitattributes"), `${attributes}\n`);
    const configBefore = localConfig(root);
    const connected = docket(["connect", "git"], root);
    assert.equal(connected.status, 0, connected.stderr);
    assert.equal(fs.readFileSync(path.join(root, ".gitattributes"), "utf8"), `${attributes}\n.docket/ledger.jsonl merge=docket-ledger\n`);
    assert.equal(runGit(root, ["config", "--local", "merge.docket-ledger.name"]).trim(), "Docket ledger merge");
    const driver = runGit(root, ["config", "--local", "merge.docket-ledger.driver"]).trim();
    assert.equal(driver, `'${process.execPath}' '${cli}' merge-ledger %O %A %B %P`);
    assert.equal(runGit(root, ["check-attr", "merge", "--", ".docket/ledger.jsonl"]).trim(), ".docket/ledger.jsonl: merge: docket-ledger");
    const hook = fs.statSync(hookFile(root));
    assert.equal(hook.mode & 0o111, 0o111, "the hook is executable");
    // The driver line runs through Git's shell: its quoted runtime answers.
    const version = spawnSync("sh", ["-c", driver.replace(" merge-ledger %O %A %B %P", " --version")], { encoding: "utf8" });
    assert.equal(version.stdout.trim(), "0.1.0");

    const again = docket(["connect", "git"], root);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /already connected/u);

    const disconnected = docket(["disconnect", "git"], root);
    assert.equal(disconnected.status, 0, disconnected.stderr);
    assert.equal(fs.readFileSync(path.join(root, ".gitattributes"), "utf8"), `${attributes}\n`, "the other lines survive byte for byte");
    assert.equal(fs.existsSync(hookFile(root)), false);
    assert.equal(localConfig(root), configBefore);
    assert.doesNotMatch(fs.readFileSync(path.join(root, ".git", "config"), "utf8"), /docket-ledger/u);
    assert.match(docket(["disconnect", "git"], root).stdout, /nothing to change/u);

    // A .gitattributes connect created is removed again.
    fs.rmSync(path.join(root, ".gitattributes"));
    assert.equal(docket(["connect", "git"], root).status, 0);
    assert.equal(docket(["disconnect", "git"], root).status, 0);
    assert.equal(fs.existsSync(path.join(root, ".gitattributes")), false);
  } finally {
    cleanup();
  }
});

test("a prepare-commit-msg hook, driver or hooks folder Docket did not write: coded refusal, nothing changed", () => {
  const { root, cleanup } = fixture();
  try {
    const foreign = "#!/bin/sh\necho mine\n";
    fs.writeFileSync(hookFile(root), foreign, { mode: 0o755 });
    for (const args of [["connect", "git"], ["connect", "git", "--dry-run"]]) {
      const refused = docket(args, root);
      assert.equal(refused.status, 3);
      assert.match(refused.stderr, /^docket: docket\.git-hook-conflict: .*prepare-commit-msg hook Docket did not write/u);
    }
    assert.equal(fs.readFileSync(hookFile(root), "utf8"), foreign);
    assert.equal(fs.existsSync(path.join(root, ".gitattributes")), false);
    assert.doesNotMatch(localConfig(root), /docket-ledger/u);
    // Disconnect leaves a foreign hook alone.
    assert.equal(docket(["disconnect", "git"], root).status, 0);
    assert.equal(fs.readFileSync(hookFile(root), "utf8"), foreign);
    fs.rmSync(hookFile(root));

    // A symbolic link in the hook's place is not Docket's either.
    fs.symlinkSync("/bin/true", hookFile(root));
    assert.equal(docket(["connect", "git"], root).status, 3);
    fs.rmSync(hookFile(root));

    // A .gitattributes that is a link to a file elsewhere: never written through.
    const target = path.join(path.dirname(root), "outside-attributes");
    fs.writeFileSync(target, "outside\n");
    fs.symlinkSync(target, path.join(root, ".gitattributes"));
    const linked = docket(["connect", "git"], root);
    assert.equal(linked.status, 3);
    assert.match(linked.stderr, /docket\.git-hook-conflict: .*symbolic link/u);
    assert.equal(fs.readFileSync(target, "utf8"), "outside\n");
    assert.equal(fs.existsSync(hookFile(root)), false);
    fs.rmSync(path.join(root, ".gitattributes"));

    runGit(root, ["config", "merge.docket-ledger.driver", "cat %A"]);
    const driver = docket(["connect", "git"], root);
    assert.equal(driver.status, 3);
    assert.match(driver.stderr, /docket\.git-hook-conflict/u);
    runGit(root, ["config", "--unset", "merge.docket-ledger.driver"]);

    const outside = tempFolder("docket hooks outside ");
    try {
      runGit(root, ["config", "core.hooksPath", outside]);
      const refused = docket(["connect", "git"], root);
      assert.equal(refused.status, 3);
      assert.match(refused.stderr, /docket\.git-hooks-outside/u);
      assert.deepEqual(fs.readdirSync(outside), []);
      // A hooks folder inside the repository is where Git runs hooks: Docket writes there.
      runGit(root, ["config", "core.hooksPath", ".githooks"]);
      assert.equal(docket(["connect", "git"], root).status, 0);
      assert.ok(fs.existsSync(path.join(root, ".githooks", "prepare-commit-msg")));
      assert.equal(docket(["disconnect", "git"], root).status, 0);
      assert.equal(fs.existsSync(path.join(root, ".githooks", "prepare-commit-msg")), false);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  } finally {
    cleanup();
  }
});

test("the hook adds exactly the landing's trailers to a commit that holds a landed path, none otherwise, never twice", async () => {
  // Shell metacharacters in the workspace's path: the hook is quoted, nothing is run.
  const { root, cleanup } = fixture("docket $(touch pwned) 'q; ");
  try {
    assert.equal(docket(["connect", "git"], root).status, 0);
    // One landing of two paths, committed in two commits: both carry it.
    const landed = await land(root, () => {
      fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 2;\n");
      fs.writeFileSync(path.join(root, "src", "b.ts"), "export const b = 2;\n");
    });
    const expected = [`Docket-Landing: ${landed.landingId} ${landed.eventSha256}`, `Docket-Scope: ${landed.workScopeId}`];
    assert.match(landed.landingId, /^landing:/u);

    fs.writeFileSync(path.join(root, "src", "c.ts"), "export const c = 2;\n");
    const unlanded = commit(root, "Only an unlanded path", ["src/c.ts"]);
    assert.equal(unlanded.status, 0, unlanded.stderr);
    assert.deepEqual(docketTrailers(root), []);
    assert.equal(message(root), "Only an unlanded path\n\n");

    const linked = commit(root, "Change a\n\nBody text.", ["src/a.ts"]);
    assert.equal(linked.status, 0, linked.stderr);
    assert.equal(linked.stderr, "");
    assert.deepEqual(docketTrailers(root), expected);
    assert.equal(message(root), `Change a\n\nBody text.\n\n${expected.join("\n")}\n\n`);

    // Amending (the message comes back with its trailers) and running the hook again add nothing.
    const amended = spawnSync("git", ["-C", root, "commit", "--quiet", "--amend", "--no-edit"], { encoding: "utf8" });
    assert.equal(amended.status, 0, amended.stderr);
    assert.deepEqual(docketTrailers(root), expected);
    runGit(root, ["add", "src/b.ts"]);
    const messageFile = path.join(root, ".git", "TEST_MSG");
    fs.writeFileSync(messageFile, "Again\n");
    for (let run = 0; run < 2; run += 1) {
      const hook = spawnSync(hookFile(root), [messageFile, "message"], { cwd: root, encoding: "utf8" });
      assert.equal(hook.status, 0, hook.stderr);
    }
    assert.equal(fs.readFileSync(messageFile, "utf8"), `Again\n\n${expected.join("\n")}\n`);

    // A message still to be written in the editor gets nothing: left unedited, Git must still abort.
    const editor = spawnSync("git", ["-C", root, "commit", "--quiet"], { encoding: "utf8", env: { ...process.env, GIT_EDITOR: "true" } });
    assert.notEqual(editor.status, 0, "an empty message still aborts");
    assert.match(editor.stderr, /docket: this commit holds landed paths; .*docket link HEAD/u);
    const template = path.join(root, ".git", "TEMPLATE");
    fs.writeFileSync(template, "Subject here\n");
    const untouched = spawnSync("git", ["-C", root, "commit", "--quiet", "-t", template], { encoding: "utf8", env: { ...process.env, GIT_EDITOR: "true" } });
    assert.notEqual(untouched.status, 0, "an unedited template still aborts");
    // An editor that writes a message: committed, and `docket link HEAD` notes it afterwards.
    const edited = spawnSync("git", ["-C", root, "commit", "--quiet"], { encoding: "utf8", env: { ...process.env, GIT_EDITOR: "sh -c 'printf \"Edited b\\n\" > \"$1\"' -" } });
    assert.equal(edited.status, 0, edited.stderr);
    assert.deepEqual(docketTrailers(root), []);
    const noted = docket(["link", "HEAD", "--json"], root);
    assert.equal((JSON.parse(noted.stdout) as { commits: Array<{ action: string }> }).commits[0]?.action, "noted", "b.ts is a path of the landing no commit carried yet");

    // A later hand edit of a path the landing recorded and a commit already carried: no claim.
    fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 3;\n");
    const handEdit = commit(root, "Hand edit of a", ["src/a.ts"]);
    assert.equal(handEdit.status, 0, handEdit.stderr);
    assert.equal(handEdit.stderr, "");
    assert.deepEqual(docketTrailers(root), []);
    assert.equal(fs.readdirSync(path.dirname(root)).includes("pwned"), false);
    assert.equal(fs.existsSync(path.join(root, "pwned")), false);

    // commitsByLanding reads what the commits say, newest first.
    const links = await commitsByLanding({ workspaceFolder: root, landingIds: [landed.landingId, "landing:none", "not an id"] });
    assert.deepEqual(links.get(landed.landingId)?.map((entry) => [entry.subject, entry.source]), [["Edited b", "note"], ["Change a", "trailer"]]);
    assert.deepEqual(links.get("landing:none"), []);
    assert.deepEqual(links.get("not an id"), []);

    // A landed path that looks like an option or holds shell syntax is only ever data.
    await landed.ledger.turnOff();
    const odd = "src/-n $(touch pwned);'x'.ts";
    const second = await land(root, () => fs.writeFileSync(path.join(root, ...odd.split("/")), "odd\n"));
    const oddCommit = commit(root, "Odd path", [odd]);
    assert.equal(oddCommit.status, 0, oddCommit.stderr);
    assert.deepEqual(docketTrailers(root), [`Docket-Landing: ${second.landingId} ${second.eventSha256}`, `Docket-Scope: ${second.workScopeId}`]);
    assert.equal(fs.existsSync(path.join(root, "pwned")), false);
    assert.equal(fs.existsSync(path.join(root, "src", "pwned")), false);
  } finally {
    cleanup();
  }
});

test("a workspace in a subfolder of the repository matches its own workspace-relative paths", async () => {
  const { root, cleanup } = fixture();
  try {
    const workspace = path.join(root, "pkg");
    fs.mkdirSync(path.join(workspace, "src"), { recursive: true });
    fs.writeFileSync(path.join(workspace, "src", "a.ts"), "export const a = 1;\n");
    runGit(root, ["add", "--", "pkg"]);
    runGit(root, ["commit", "--quiet", "-m", "pkg"]);
    // A relative core.hooksPath is relative to the top level, where Git runs hooks, not to the workspace.
    runGit(root, ["config", "core.hooksPath", ".githooks"]);
    assert.equal(docket(["connect", "git", "--workspace", workspace], workspace).status, 0);
    assert.equal(fs.readFileSync(path.join(workspace, ".gitattributes"), "utf8"), ".docket/ledger.jsonl merge=docket-ledger\n");
    assert.ok(fs.existsSync(path.join(root, ".githooks", "prepare-commit-msg")));
    assert.equal(fs.existsSync(path.join(workspace, ".githooks")), false);
    const landed = await land(workspace, () => fs.writeFileSync(path.join(workspace, "src", "a.ts"), "export const a = 2;\n"));
    // The root's src/a.ts is a different file than the workspace's src/a.ts.
    fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 9;\n");
    assert.equal(commit(root, "root a", ["src/a.ts"]).status, 0);
    assert.deepEqual(docketTrailers(root), []);
    assert.equal(commit(root, "pkg a", ["pkg/src/a.ts"]).status, 0);
    assert.deepEqual(docketTrailers(root), [`Docket-Landing: ${landed.landingId} ${landed.eventSha256}`, `Docket-Scope: ${landed.workScopeId}`]);
  } finally {
    cleanup();
  }
});

test("a broken ledger or Docket off never breaks a commit and adds no trailer", async () => {
  const { root, cleanup } = fixture();
  try {
    assert.equal(docket(["connect", "git"], root).status, 0);
    const landed = await land(root, () => fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 2;\n"));
    const ledgerPath = landed.ledger.store.ledgerPath;
    const good = fs.readFileSync(ledgerPath);
    fs.appendFileSync(ledgerPath, '{"forged":true}\n');
    const broken = commit(root, "With a broken ledger", ["src/a.ts"]);
    assert.equal(broken.status, 0);
    assert.deepEqual(docketTrailers(root), []);
    assert.match(broken.stderr, /^docket: /u);
    assert.equal(broken.stderr.trim().split("\n").length, 1, "one line of warning");

    // A ledger that is not a file at all.
    fs.rmSync(ledgerPath);
    fs.mkdirSync(ledgerPath);
    fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 3;\n");
    const unreadable = commit(root, "With no ledger file", ["src/a.ts"]);
    assert.equal(unreadable.status, 0);
    assert.deepEqual(docketTrailers(root), []);
    fs.rmSync(ledgerPath, { recursive: true });
    fs.writeFileSync(ledgerPath, good);

    // A runtime that is gone (an uninstalled extension): still a commit.
    const moved = `${cli}.gone`;
    const script = fs.readFileSync(hookFile(root), "utf8");
    fs.writeFileSync(hookFile(root), script.replace(`'${cli}'`, `'${moved}'`));
    fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 4;\n");
    assert.equal(commit(root, "With no runtime", ["src/a.ts"]).status, 0);
    assert.deepEqual(docketTrailers(root), []);
    fs.writeFileSync(hookFile(root), script);

    // Off: the scope is closed, the hook adds nothing.
    await landed.ledger.turnOff();
    fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 5;\n");
    const off = commit(root, "While off", ["src/a.ts"]);
    assert.equal(off.status, 0);
    assert.equal(off.stderr, "");
    assert.deepEqual(docketTrailers(root), []);
  } finally {
    cleanup();
  }
});

test("docket link notes existing commits once, never over another note; commitsByLanding reads notes and trailers newest first", async () => {
  const { root, cleanup } = fixture();
  try {
    const landed = await land(root, () => {
      fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 2;\n");
      fs.writeFileSync(path.join(root, "src", "b.ts"), "export const b = 2;\n");
    });
    const lines = [`Docket-Landing: ${landed.landingId} ${landed.eventSha256}`, `Docket-Scope: ${landed.workScopeId}`];
    // Made before Git was connected: no trailers.
    assert.equal(commit(root, "Change a", ["src/a.ts"]).status, 0);
    const first = runGit(root, ["rev-parse", "HEAD"]).trim();
    fs.writeFileSync(path.join(root, "src", "c.ts"), "export const c = 2;\n");
    assert.equal(commit(root, "Change c", ["src/c.ts"]).status, 0);

    const dry = docket(["link", "HEAD~2..HEAD", "--dry-run", "--json"], root);
    assert.equal(dry.status, 0, dry.stderr);
    assert.deepEqual(
      (JSON.parse(dry.stdout) as { commits: Array<{ subject: string; action: string }> }).commits.map((entry) => [entry.subject, entry.action]),
      [["Change a", "would-note"], ["Change c", "no-match"]],
    );
    assert.equal(spawnSync("git", ["-C", root, "notes", "--ref=docket", "list"], { encoding: "utf8" }).stdout, "");

    const linked = docket(["link", "HEAD~2..HEAD"], root);
    assert.equal(linked.status, 0, linked.stderr);
    assert.match(linked.stdout, /note added: Change a/u);
    assert.equal(runGit(root, ["notes", "--ref=docket", "show", first]), `${lines.join("\n")}\n`);
    const again = docket(["link", "HEAD~2..HEAD", "--json"], root);
    assert.deepEqual(
      (JSON.parse(again.stdout) as { commits: Array<{ action: string }> }).commits.map((entry) => entry.action),
      ["already-noted", "no-match"],
    );
    assert.equal(runGit(root, ["notes", "--ref=docket", "show", first]), `${lines.join("\n")}\n`);

    // A later commit of the same path is not passed off as the same landing.
    fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 3;\n");
    assert.equal(commit(root, "Hand edit of a", ["src/a.ts"]).status, 0);
    assert.equal((JSON.parse(docket(["link", "--json"], root).stdout) as { commits: Array<{ action: string }> }).commits[0]?.action, "no-match");

    // A different note is never overwritten.
    fs.writeFileSync(path.join(root, "src", "b.ts"), "export const b = 2;\n");
    assert.equal(commit(root, "Change b", ["src/b.ts"]).status, 0);
    runGit(root, ["notes", "--ref=docket", "add", "-m", "someone else's note", "HEAD"]);
    // b.ts is the landing's other path, carried by no commit yet: Docket would note it, but not over another note.
    const differs = JSON.parse(docket(["link", "--json"], root).stdout) as { commits: Array<{ action: string }> };
    assert.deepEqual(differs.commits.map((entry) => entry.action), ["note-differs"]);
    assert.equal(runGit(root, ["notes", "--ref=docket", "show", "HEAD"]), "someone else's note\n");

    // A forged trailer is reported as what the commit says (the audit checks it against the ledger);
    // a malformed one is not a link at all.
    fs.writeFileSync(path.join(root, "src", "c.ts"), "export const c = 3;\n");
    assert.equal(commit(root, `Forged\n\n${lines[0]}\nDocket-Landing: landing:x not-a-hash`, ["src/c.ts"]).status, 0);
    const links = await commitsByLanding({ workspaceFolder: root, landingIds: [landed.landingId, "landing:x"] });
    assert.deepEqual(links.get(landed.landingId)?.map((entry) => [entry.subject, entry.source]), [["Forged", "trailer"], ["Change a", "note"]]);
    assert.deepEqual(links.get("landing:x"), []);
  } finally {
    cleanup();
  }
});

test("docket link refuses revisions that look like options and passes metacharacters to Git as text", async () => {
  const { root, cleanup } = fixture();
  try {
    for (const bad of ["-n", "--output=/tmp/x"]) {
      const refused = docket(["link", "--", bad], root);
      assert.equal(refused.status, 3, refused.stderr);
      assert.match(refused.stderr, /docket\.git-revision-invalid/u);
    }
    assert.equal(docket(["link", "--output=/tmp/x"], root).status, 2);
    runGit(root, ["branch", "x;touch${IFS}pwned", "HEAD"]);
    const branch = docket(["link", "x;touch${IFS}pwned", "--json"], root);
    assert.equal(branch.status, 0, branch.stderr);
    assert.equal(fs.existsSync(path.join(root, "pwned")), false);
    assert.equal(docket(["link", "no-such-branch"], root).status, 3);
  } finally {
    cleanup();
  }
});

test("a repository cannot turn Docket's driver or hook on by itself: shipped files do nothing until connect", () => {
  const { root, cleanup } = fixture();
  try {
    // A hostile repository ships an attributes line, a hooks folder and a "driver" script.
    fs.writeFileSync(path.join(root, ".gitattributes"), "* merge=docket-ledger\n");
    fs.mkdirSync(path.join(root, ".githooks"));
    fs.writeFileSync(path.join(root, ".githooks", "prepare-commit-msg"), `#!/bin/sh\ntouch "${path.join(root, "hook-ran")}"\n`, { mode: 0o755 });
    runGit(root, ["add", "--all"]);
    runGit(root, ["commit", "--quiet", "-m", "hostile"]);
    // Without config, Git knows no docket-ledger driver and runs no shipped hook.
    runGit(root, ["checkout", "--quiet", "-b", "side"]);
    fs.writeFileSync(path.join(root, "src", "c.ts"), "side\n");
    runGit(root, ["commit", "--quiet", "-am", "side"]);
    runGit(root, ["checkout", "--quiet", "-"]);
    fs.writeFileSync(path.join(root, "src", "c.ts"), "main\n");
    runGit(root, ["commit", "--quiet", "-am", "main"]);
    const merge = spawnSync("git", ["-C", root, "merge", "--quiet", "side"], { encoding: "utf8" });
    assert.notEqual(merge.status, 0, "a normal conflict");
    assert.match(fs.readFileSync(path.join(root, "src", "c.ts"), "utf8"), /^<<<<<<< /mu);
    assert.equal(fs.existsSync(path.join(root, "hook-ran")), false);
    assert.doesNotMatch(localConfig(root), /docket-ledger/u);
    runGit(root, ["merge", "--abort"]);
    // Connect keeps the shipped line and adds Docket's own; a shipped hook Git would run is a conflict.
    runGit(root, ["config", "core.hooksPath", ".githooks"]);
    const refused = docket(["connect", "git"], root);
    assert.equal(refused.status, 3);
    assert.match(refused.stderr, /docket\.git-hook-conflict/u);
    assert.equal(fs.readFileSync(path.join(root, ".gitattributes"), "utf8"), "* merge=docket-ledger\n");
    // Without the shipped hook folder, connect adds its own line and names the shipped one.
    runGit(root, ["config", "--unset", "core.hooksPath"]);
    const connected = docket(["connect", "git", "--dry-run"], root);
    assert.equal(connected.status, 0, connected.stderr);
    assert.match(connected.stdout, /\.gitattributes also gives these paths to the docket-ledger merge driver, which Docket did not write: \* merge=docket-ledger\./u);
  } finally {
    cleanup();
  }
});

test("docket on mentions connect git once, only while Git is not connected", () => {
  const { root, cleanup } = fixture();
  try {
    const on = docket(["on"], root);
    assert.equal(on.status, 0, on.stderr);
    assert.match(on.stdout, /^hint: `docket connect git` links your commits/mu);
    assert.equal(docket(["off"], root).status, 0);
    assert.equal(docket(["connect", "git"], root).status, 0);
    const again = docket(["on"], root);
    assert.equal(again.status, 0);
    assert.doesNotMatch(again.stdout, /hint:/u);
    assert.doesNotMatch(docket(["on", "--json"], root).stdout + docket(["off", "--json"], root).stdout, /hint/u);
  } finally {
    cleanup();
  }
});

test("linked worktrees share the hook: a commit in another work tree gets no trailer and no warning", async () => {
  const { root, cleanup } = fixture();
  try {
    assert.equal(docket(["connect", "git"], root).status, 0);
    await land(root, () => fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 2;\n"));
    const other = path.join(path.dirname(root), "other tree");
    runGit(root, ["worktree", "add", "--quiet", "-b", "other", other]);
    fs.writeFileSync(path.join(other, "src", "a.ts"), "export const a = 7;\n");
    const elsewhere = commit(other, "In the other work tree", ["src/a.ts"]);
    assert.equal(elsewhere.status, 0);
    assert.equal(elsewhere.stderr, "");
    assert.deepEqual(docketTrailers(other), []);
    // Its own connect would replace the first workspace's hook: refused.
    const refused = docket(["connect", "git"], other);
    assert.equal(refused.status, 3);
    assert.match(refused.stderr, /docket\.git-hook-conflict: .*another workspace/u);
  } finally {
    cleanup();
  }
});

test("a commit made with --git-dir and --work-tree from elsewhere is linked from that repository", async () => {
  const { root, cleanup } = fixture();
  const elsewhere = tempFolder("docket elsewhere ");
  try {
    assert.equal(docket(["connect", "git"], root).status, 0);
    const landed = await land(root, () => fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 2;\n"));
    runGit(root, ["add", "src/a.ts"]);
    const result = spawnSync("git", [`--git-dir=${path.join(root, ".git")}`, `--work-tree=${root}`, "commit", "--quiet", "-m", "From elsewhere"], { cwd: elsewhere, encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.deepEqual(docketTrailers(root), [`Docket-Landing: ${landed.landingId} ${landed.eventSha256}`, `Docket-Scope: ${landed.workScopeId}`]);
  } finally {
    fs.rmSync(elsewhere, { recursive: true, force: true });
    cleanup();
  }
});

test("Git runs the ledger's merge driver only after connect: the attributes line alone does nothing", () => {
  const { root, cleanup } = fixture();
  try {
    const ledger = path.join(root, ".docket", "ledger.jsonl");
    fs.mkdirSync(path.dirname(ledger), { recursive: true });
    fs.writeFileSync(ledger, "base\n");
    fs.writeFileSync(path.join(root, ".gitattributes"), ".docket/ledger.jsonl merge=docket-ledger\n");
    runGit(root, ["add", "-f", ".docket/ledger.jsonl", ".gitattributes"]);
    runGit(root, ["commit", "--quiet", "-m", "ledger"]);
    const diverge = (): void => {
      runGit(root, ["checkout", "--quiet", "-B", "side"]);
      fs.appendFileSync(ledger, "side\n");
      runGit(root, ["commit", "--quiet", "-am", "side"]);
      runGit(root, ["checkout", "--quiet", "-"]);
      fs.appendFileSync(ledger, "main\n");
      runGit(root, ["commit", "--quiet", "-am", "main"]);
    };
    const mergeTrace = (): string => {
      const result = spawnSync("git", ["-C", root, "merge", "--no-edit", "--quiet", "side"], { encoding: "utf8", env: { ...process.env, GIT_TRACE: "1" } });
      spawnSync("git", ["-C", root, "merge", "--abort"], { encoding: "utf8" });
      return result.stderr;
    };
    const branch = runGit(root, ["rev-parse", "--abbrev-ref", "HEAD"]).trim();
    diverge();
    assert.doesNotMatch(mergeTrace(), /merge-ledger/u, "a shipped attributes line names a driver Git does not know");
    runGit(root, ["reset", "--quiet", "--hard", branch]);

    assert.equal(docket(["connect", "git"], root).status, 0);
    diverge();
    // Git runs the connected driver through its shell with the quoted runtime (the command itself is the merge helper's).
    const trace = mergeTrace();
    assert.ok(trace.split("\n").some((line) => line.includes("run_command:") && line.includes(cli) && line.includes(" merge-ledger .merge_file_")), trace);
  } finally {
    cleanup();
  }
});
