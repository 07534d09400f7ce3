// Router determinism across processes (issue 5 acceptance): the same task against the same
// workspace gives byte-identical canonical JSON from separate `node` processes — with different
// locales and time zones, from Git and from a plain walk, and from workspaces whose files were
// created in opposite orders (so directory listing order differs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";
import { tempFolder, tempRepo } from "../support/gitRepo";

const FILES: readonly [string, string][] = [
  ["AGENTS.md", "# Rules\nRun the tests before saying done.\n"],
  ["package.json", JSON.stringify({ name: "shop", version: "1.0.0", scripts: { test: "node --test", build: "tsc" } })],
  ["src/payments/webhook.ts", 'import { store } from "../cache/store";\nexport function retry(): number { return store.size; }\n'],
  ["src/cache/store.ts", "export const store = new Map<string, number>();\n"],
  ["src/app.ts", 'import { retry } from "./payments/webhook";\nretry();\n'],
  ["test/webhook.test.ts", 'import { retry } from "../src/payments/webhook";\nretry();\n'],
  ["docs/notes.md", "notes\n"],
  ["Zeta.md", "z\n"],
  ["alpha/Beta.ts", "export {};\n"],
];

const TASK = "fix the failing retry in webhook.ts and don't touch the cache";

// Runs in a fresh `node` process: snapshot (Git or walk) → catalogue (bundled + workspace skills)
// → plan, printed as canonical JSON. Only the compiled modules are used, never the CLI.
const CHILD = `
const path = require("node:path");
const [out, packageRoot, root, task] = process.argv.slice(1);
const load = (file) => require(path.join(out, file));
const { buildSnapshot } = load("server/router/snapshot/buildSnapshot.js");
const { loadCatalogue } = load("server/router/catalogueFiles.js");
const { plan } = load("server/router/plan.js");
const { canonicalize } = load("server/ledger/canonicalJson.js");
buildSnapshot(root)
  .then((snapshot) => process.stdout.write(canonicalize(plan(task, snapshot, loadCatalogue(root, packageRoot), { mode: null, reports: [], ranChecks: [] }))))
  .catch((error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });
`;

function planInChild(root: string, env: Readonly<Record<string, string>> = {}): string {
  const result = spawnSync(process.execPath, ["-e", CHILD, path.join(repoRoot(), "out"), repoRoot(), root, TASK], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.ok(result.stdout.startsWith("{"), result.stdout.slice(0, 200));
  return result.stdout;
}

function writeAll(root: string, files: readonly [string, string][]): void {
  for (const [relative, content] of files) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

test("the same task and Git workspace give byte-identical plans across processes, locales and creation orders", () => {
  const forward = tempRepo();
  const backward = tempRepo();
  try {
    writeAll(forward.root, FILES);
    forward.commitAll("fixture");
    writeAll(backward.root, [...FILES].reverse());
    backward.commitAll("fixture");

    const first = planInChild(forward.root);
    const parsed = JSON.parse(first) as { planSha256: string; intent: { entities: { value: string }[] } };
    assert.match(parsed.planSha256, /^[a-f0-9]{64}$/u);
    assert.ok(parsed.intent.entities.some((entity) => entity.value === "src/payments/webhook.ts"));
    assert.equal(planInChild(forward.root), first, "second process");
    assert.equal(planInChild(forward.root, { LC_ALL: "tr_TR.UTF-8", LANG: "tr_TR.UTF-8", TZ: "Pacific/Chatham" }), first, "other locale and time zone");
    assert.equal(planInChild(backward.root), first, "files created in the opposite order");
  } finally {
    forward.dispose();
    backward.dispose();
  }
});

test("without Git, the .gitignore-honouring walk is just as deterministic whatever the creation order", () => {
  const forward = tempFolder("docket-router-walk-");
  const backward = tempFolder("docket-router-walk-");
  try {
    writeAll(forward, [...FILES, [".gitignore", "ignored/\n"], ["ignored/big.ts", "export {};\n"]]);
    writeAll(backward, [[".gitignore", "ignored/\n"], ["ignored/big.ts", "export {};\n"], ...[...FILES].reverse()]);
    const first = planInChild(forward);
    assert.equal(planInChild(forward), first, "second process");
    assert.equal(planInChild(backward), first, "files created in the opposite order");
    assert.ok(!first.includes("ignored/big.ts"), "ignored files stay out of the plan");
  } finally {
    fs.rmSync(forward, { recursive: true, force: true });
    fs.rmSync(backward, { recursive: true, force: true });
  }
});
