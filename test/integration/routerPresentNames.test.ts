// The Git listing skips `git ls-files --deleted` when every listed name is an entry of its
// folder's listing (server/router/snapshot/presentNames.ts). Differential: after each change to a
// real work tree, the listing equals Git's own answer (cached and untracked, minus what
// `--deleted` names), and `readListedFolders` says not all present whenever `--deleted` names anything.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { listGitFiles } from "../../server/router/snapshot/gitFiles";
import { readListedFolders } from "../../server/router/snapshot/presentNames";
import { runGit, tempRepo, type TempRepo } from "../support/gitRepo";

function gitNames(root: string, args: readonly string[]): string[] {
  const output = execFileSync("git", ["-C", root, "-c", "core.fsmonitor=false", ...args], { encoding: "utf8" });
  return output.split("\u0000").filter((name) => name !== "");
}

function expectedFiles(root: string): string[] {
  const deleted = new Set(gitNames(root, ["ls-files", "--deleted", "-z"]));
  const listed = gitNames(root, ["ls-files", "--cached", "--others", "--exclude-standard", "-z"]);
  return [...new Set(listed.filter((name) => !deleted.has(name) && !name.endsWith("/")))];
}

async function assertAsGit(repo: TempRepo, what: string): Promise<void> {
  const listing = await listGitFiles(repo.root, 1_000_000);
  assert.deepEqual(listing.files, expectedFiles(repo.root), what);
  const listed = gitNames(repo.root, ["ls-files", "--cached", "--others", "--exclude-standard", "-z"]).filter((name) => !name.endsWith("/"));
  if (gitNames(repo.root, ["ls-files", "--deleted", "-z"]).length > 0) assert.equal(readListedFolders(repo.root, listed).allPresent, false, what);
}

const BASE: Record<string, string> = {
  "a.txt": "a",
  "src/one.ts": "1",
  "src/two.ts": "2",
  "src/deep/three.ts": "3",
  "docs/readme.md": "r",
  "caf\u00e9/na\u00efve.txt": "unicode",
};

test("the listing equals Git's when tracked files, folders and links change under it", async () => {
  const repo = tempRepo({ files: BASE });
  try {
    await assertAsGit(repo, "nothing changed");
    repo.write("untracked/new.txt", "n");
    await assertAsGit(repo, "an untracked file in a new folder");
    fs.rmSync(path.join(repo.root, "src/two.ts"));
    await assertAsGit(repo, "a tracked file deleted");
    fs.rmSync(path.join(repo.root, "src/deep"), { recursive: true });
    await assertAsGit(repo, "a tracked folder deleted");
    fs.rmSync(path.join(repo.root, "docs"), { recursive: true });
    fs.writeFileSync(path.join(repo.root, "docs"), "now a file");
    await assertAsGit(repo, "a tracked file's folder replaced by a file (ENOTDIR)");
    repo.remove("docs");
    repo.write("docs/readme.md", "back");
    repo.write("src/two.ts", "back");
    repo.write("src/deep/three.ts", "back");
    await assertAsGit(repo, "everything back");
    fs.renameSync(path.join(repo.root, "src"), path.join(repo.root, "src-real"));
    fs.symlinkSync("src-real", path.join(repo.root, "src"));
    await assertAsGit(repo, "a tracked folder replaced by a link to it (Git follows leading links)");
    fs.rmSync(path.join(repo.root, "src"));
    fs.renameSync(path.join(repo.root, "src-real"), path.join(repo.root, "src"));
    fs.symlinkSync("nowhere", path.join(repo.root, "dangling"));
    runGit(repo.root, ["add", "dangling"]);
    await assertAsGit(repo, "a tracked dangling link (lstat finds it)");
    fs.rmSync(path.join(repo.root, "caf\u00e9/na\u00efve.txt"));
    fs.writeFileSync(path.join(repo.root, "caf\u00e9/nai\u0308ve.txt"), "decomposed");
    await assertAsGit(repo, "a tracked name present only in another Unicode normalization");
    fs.rmSync(path.join(repo.root, "a.txt"));
    fs.writeFileSync(path.join(repo.root, "A.TXT"), "case");
    await assertAsGit(repo, "a tracked name present only in another case");
  } finally {
    repo.dispose();
  }
});

test("a skip-worktree file missing from disk stays listed, as Git lists it", async () => {
  const repo = tempRepo({ files: BASE });
  try {
    runGit(repo.root, ["update-index", "--skip-worktree", "src/one.ts"]);
    fs.rmSync(path.join(repo.root, "src/one.ts"));
    await assertAsGit(repo, "skip-worktree and absent");
    assert.ok((await listGitFiles(repo.root, 1_000_000)).files.includes("src/one.ts"));
  } finally {
    repo.dispose();
  }
});

test("any set of tracked files deleted or kept gives Git's listing (property)", async () => {
  const names = ["a.txt", "b.txt", "src/x.ts", "src/y.ts", "src/deep/z.ts", "lib/w.js"];
  const repo = tempRepo({ files: Object.fromEntries(names.map((name) => [name, name])) });
  try {
    await fc.assert(
      fc.asyncProperty(fc.subarray(names), fc.boolean(), async (deleted, untracked) => {
        for (const name of names) repo.write(name, name);
        for (const name of deleted) fs.rmSync(path.join(repo.root, name));
        // An emptied folder removed too, as a checkout would.
        for (const folder of ["src/deep", "lib"]) {
          const absolute = path.join(repo.root, folder);
          if (fs.existsSync(absolute) && fs.readdirSync(absolute).length === 0) fs.rmdirSync(absolute);
        }
        if (untracked) repo.write("extra/u.txt", "u");
        else repo.remove("extra");
        await assertAsGit(repo, `deleted ${deleted.join(", ")}; untracked ${untracked}`);
      }),
      { numRuns: 30, seed: 16 },
    );
  } finally {
    repo.dispose();
  }
});
