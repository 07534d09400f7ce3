// Writes that stay inside a folder Docket owns (server/workspace/containedFs.ts): links at any
// component are refused, a link at the final name is replaced (never written through), paths
// outside the root are refused, and only dead writers' temporary files are swept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  UnsafePathError,
  appendContained,
  assertContained,
  ensureContainedDirectory,
  openContained,
  readContained,
  removeStaleTemporaries,
  UnreadableFileError,
  writeFileAtomicContained,
} from "../../server/workspace/containedFs";
import { processAlive } from "../../server/ledger/lock";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { tempFolder } from "../support/gitRepo";

function setup(): { root: string; outside: string; dispose: () => void } {
  const root = tempFolder("docket-contained-");
  const outside = tempFolder("docket-outside-");
  return { root, outside, dispose: () => [root, outside].forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })) };
}

const unsafe = (error: unknown): boolean => error instanceof UnsafePathError;

test("a linked folder anywhere below the root is refused for every write, and its target gets nothing", () => {
  const { root, outside, dispose } = setup();
  try {
    fs.symlinkSync(outside, path.join(root, ".docket"));
    const file = path.join(root, ".docket", "state", "x.json");
    assert.throws(() => assertContained(root, file), unsafe);
    assert.throws(() => ensureContainedDirectory(root, path.dirname(file)), unsafe);
    assert.throws(() => writeFileAtomicContained(root, file, "x"), unsafe);
    assert.throws(() => appendContained(root, file, "x"), unsafe);
    assert.throws(() => readContained(root, file, 1024), unsafe);
    assert.deepEqual(fs.readdirSync(outside), []);
  } finally {
    dispose();
  }
});

test("a link at the final name: opening refuses it, an atomic write replaces the link itself", () => {
  const { root, outside, dispose } = setup();
  try {
    const target = path.join(outside, "authorized_keys");
    fs.writeFileSync(target, "ssh-ed25519 keep\n");
    const link = path.join(root, "ledger.jsonl");
    fs.symlinkSync(target, link);
    assert.throws(() => openContained(root, link, "a"), unsafe);
    assert.throws(() => appendContained(root, link, "x\n"), unsafe);
    assert.throws(() => readContained(root, link, 1024), unsafe);
    writeFileAtomicContained(root, link, "mine\n");
    assert.equal(fs.lstatSync(link).isSymbolicLink(), false);
    assert.equal(fs.readFileSync(link, "utf8"), "mine\n");
    assert.equal(fs.readFileSync(target, "utf8"), "ssh-ed25519 keep\n");
    // A dangling link is not created through either.
    const dangling = path.join(root, "dangling.jsonl");
    fs.symlinkSync(path.join(outside, "new-file"), dangling);
    assert.throws(() => appendContained(root, dangling, "x\n"), unsafe);
    assert.equal(fs.existsSync(path.join(outside, "new-file")), false);
  } finally {
    dispose();
  }
});

test("paths outside the root are refused; a file where a folder must be is ENOTDIR, not an attack", () => {
  const { root, outside, dispose } = setup();
  try {
    assert.throws(() => writeFileAtomicContained(root, path.join(outside, "x"), "x"), unsafe);
    assert.throws(() => writeFileAtomicContained(root, path.join(root, "..", "x"), "x"), unsafe);
    fs.writeFileSync(path.join(root, "file"), "x");
    assert.throws(() => ensureContainedDirectory(root, path.join(root, "file", "sub")), (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOTDIR");
    // A root that is itself a link is the user's own folder and is fine.
    const linkedRoot = path.join(outside, "workspace-link");
    fs.symlinkSync(root, linkedRoot);
    writeFileAtomicContained(linkedRoot, path.join(linkedRoot, ".docket", "ok.json"), "{}\n");
    assert.equal(fs.readFileSync(path.join(root, ".docket", "ok.json"), "utf8"), "{}\n");
  } finally {
    dispose();
  }
});

test("only temporary files of processes that are gone are swept", () => {
  const { root, dispose } = setup();
  try {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const deadPid = Number(dead.stdout);
    const names = [`.ledger.jsonl.anchor.${deadPid}.abc123.tmp`, `ledger.jsonl.checkpoint.json.${deadPid}.tmp`, `.x.${process.pid}.zz.tmp`, "ledger.jsonl", "notes.tmp"];
    for (const name of names) fs.writeFileSync(path.join(root, name), "x");
    assert.equal(removeStaleTemporaries(root, root, processAlive), 2);
    assert.deepEqual(fs.readdirSync(root).sort(), [`.x.${process.pid}.zz.tmp`, "ledger.jsonl", "notes.tmp"].sort());
  } finally {
    dispose();
  }
});

test("a writer's first write sweeps dead writers' temporaries from .docket, its hooks and baselines, never through a link", async () => {
  const { root, outside, dispose } = setup();
  try {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const stale = `.scope.json.${Number(dead.stdout)}.tmp`;
    const docket = path.join(root, ".docket");
    const folders = [docket, path.join(docket, "hooks"), path.join(docket, "baselines", "scope-a")];
    for (const folder of folders) {
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, stale), "x");
    }
    fs.writeFileSync(path.join(outside, stale), "x");
    fs.symlinkSync(outside, path.join(docket, "baselines", "scope-linked"));
    const ledger = new WorkspaceLedger({ workspaceFolder: root, ledgerPath: path.join(docket, "ledger.jsonl"), trusted: true });
    ledger.refresh();
    await ledger.turnOn();
    for (const folder of folders) assert.equal(fs.existsSync(path.join(folder, stale)), false, folder);
    assert.equal(fs.existsSync(path.join(outside, stale)), true, "nothing is removed through a linked folder");
  } finally {
    dispose();
  }
});

test("reads are bounded: a state file larger than its reader's bound, or a folder, is refused whole", () => {
  const { root, dispose } = setup();
  try {
    fs.writeFileSync(path.join(root, "state.json"), "x".repeat(2048));
    assert.equal(readContained(root, path.join(root, "state.json"), 2048)?.length, 2048);
    assert.throws(() => readContained(root, path.join(root, "state.json"), 2047), (error: unknown) => error instanceof UnreadableFileError && /2048 bytes, more than the 2047/u.test(error.message));
    fs.mkdirSync(path.join(root, "folder"));
    assert.throws(() => readContained(root, path.join(root, "folder"), 2048), /not a regular file|EISDIR/u);
  } finally {
    dispose();
  }
});
