// `docket notebook setup|validate|status` as people and scripts run them: the built CLI in a child
// process against real temporary folders. Exit codes: validate 0 valid / 1 invalid / 2 not a
// usable Notebook; status 0 healthy / 1 unhealthy or recovery required / 2 unusable; setup 0 done
// / 2 refused, with `docket: CODE: message` on stderr.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function docket(args: readonly string[], cwd: string, home = cwd): Run {
  // stdin is a pipe, not a terminal: setup must never wait for an answer nobody can give.
  const result = spawnSync(process.execPath, [cli, "notebook", ...args], { cwd, encoding: "utf8", input: "", env: { ...process.env, HOME: home, USERPROFILE: home } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-notebook-cli-")));
}

const SOURCE_ID = "source-5e0f2a11-3c4d-4e5f-9a6b-7c8d9e0f1a01";
const ZETTEL_ID = "zettel-5e0f2a11-3c4d-4e5f-9a6b-7c8d9e0f1a02";

function record(lines: readonly string[], heading: string, body: string): string {
  return ["---", ...lines, "---", "", `# ${heading}`, "", body, ""].join("\n");
}

const SOURCE = record(
  [
    "observer_schema: observer-record/v1",
    "observer_type: source",
    "observer_status: available",
    `id: ${SOURCE_ID}`,
    "title: Cache eviction benchmark",
    "lang: en",
    'created: "2026-05-02T08:00:00+09:00"',
    'modified: "2026-05-02T08:00:00+09:00"',
    "tags: [caching]",
    "aliases: []",
    "sources: []",
    "lineage: []",
    "relations: []",
    "source_kind: direct-observation",
    "observation:",
    '  observed_at: "2026-05-02T07:55:00+09:00"',
    "  observed_by: benchmark run",
    "  fact: LRU kept 91% hit rate at 2x working set.",
    "  conditions: 16 GiB heap, synthetic zipf load.",
    "  interpretation_boundary: One machine, one load shape.",
  ],
  "Cache eviction benchmark",
  "Measured directly on a local machine.",
);

const ZETTEL = record(
  [
    "observer_schema: observer-record/v1",
    "observer_type: zettel",
    "observer_status: mature",
    `id: ${ZETTEL_ID}`,
    "title: LRU holds up under skew",
    "lang: en",
    'created: "2026-05-03T08:00:00Z"',
    'modified: "2026-05-03T08:00:00Z"',
    "tags: []",
    "aliases: []",
    "sources:",
    `  - record: ${SOURCE_ID}`,
    "    role: supports",
    "lineage: []",
    "relations: []",
  ],
  "LRU holds up under skew",
  "Under skewed load plain LRU is hard to beat.",
);

test("setup: shows the absolute path, refuses without --yes in a script, creates with --yes, is byte-idempotent and keeps its language", () => {
  const dir = tempDir();
  try {
    const refused = docket(["setup", "./notes"], dir);
    assert.equal(refused.status, 2, refused.stderr);
    assert.ok(refused.stdout.startsWith(`Notebook folder: ${path.join(dir, "notes")} (relative to the current directory)\n`), refused.stdout);
    assert.match(refused.stderr, /^docket: notebook\.confirmation-required: .*--yes/u);
    assert.equal(fs.existsSync(path.join(dir, "notes")), false, "nothing created");

    const created = docket(["setup", "./notes", "--language", "ko", "--yes"], dir);
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /^Notebook folder: .*\nWill create: the folder itself, \.observer\/, records\/, \.observer\/notebook\.json \(language ko\)/u);
    const manifestPath = path.join(dir, "notes", ".observer", "notebook.json");
    const bytes = fs.readFileSync(manifestPath, "utf8");
    assert.match(bytes, /^\{\n {2}"observer_notebook": "observer-notebook\/v1",\n {2}"notebook_id": "notebook-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",\n {2}"default_language": "ko"\n\}\n$/u);
    assert.deepEqual(fs.readdirSync(path.join(dir, "notes", "records")), []);

    const again = docket(["setup", "notes"], dir);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /Already a Notebook \(notebook-[0-9a-f-]+, language ko\); nothing to create\./u);
    assert.equal(fs.readFileSync(manifestPath, "utf8"), bytes);

    const conflict = docket(["setup", path.join(dir, "notes"), "--language", "en", "--yes"], dir);
    assert.equal(conflict.status, 2);
    assert.match(conflict.stderr, /^docket: notebook\.language-conflict: /u);
    assert.equal(fs.readFileSync(manifestPath, "utf8"), bytes);

    const home = docket(["setup", "~/home-notes", "--yes"], dir, path.join(dir, "home"));
    assert.equal(home.status, 0, home.stderr);
    assert.ok(home.stdout.startsWith(`Notebook folder: ${path.join(dir, "home", "home-notes")} (relative to your home folder (~))\n`), home.stdout);

    const tildeUser = docket(["setup", "~root/notes", "--yes"], dir);
    assert.equal(tildeUser.status, 2);
    assert.match(tildeUser.stderr, /^docket: notebook\.path-unsupported: .*~user/u);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("validate --json: one line with the documented keys; exit 0 valid, 1 invalid, 2 not a usable Notebook", () => {
  const dir = tempDir();
  try {
    assert.equal(docket(["setup", "nb", "--yes"], dir).status, 0);
    const records = path.join(dir, "nb", "records");
    fs.writeFileSync(path.join(records, `${SOURCE_ID}.md`), SOURCE);
    fs.writeFileSync(path.join(records, "lru.md"), ZETTEL);

    const valid = docket(["validate", "nb", "--json"], dir);
    assert.equal(valid.status, 0, valid.stderr);
    assert.equal(valid.stdout, '{"valid":true,"graphEvaluated":true,"records":2,"diagnostics":[]}\n');
    const human = docket(["validate", "nb"], dir);
    assert.equal(human.status, 0);
    assert.match(human.stdout, /\nvalid: 2 records, whole graph checked\n$/u);

    // A zettel without a source is a whole-graph fault.
    fs.writeFileSync(path.join(records, "lru.md"), ZETTEL.replace(/sources:\n {2}- record: .*\n {4}role: supports\n/u, "sources: []\n"));
    const graph = docket(["validate", "nb", "--json"], dir);
    assert.equal(graph.status, 1, graph.stderr);
    const graphReport = JSON.parse(graph.stdout) as { valid: boolean; graphEvaluated: boolean; records: number; diagnostics: Record<string, string>[] };
    assert.equal(graph.stdout.indexOf("\n"), graph.stdout.length - 1, "one line");
    assert.deepEqual(Object.keys(graphReport), ["valid", "graphEvaluated", "records", "diagnostics"]);
    assert.deepEqual([graphReport.valid, graphReport.graphEvaluated, graphReport.records], [false, true, 2]);
    assert.deepEqual(
      graphReport.diagnostics.map((d) => [d["phase"], d["code"], d["path"], d["recordId"]]),
      [["graph", "graph.zettel.source-required", "records/lru.md", ZETTEL_ID]],
    );
    assert.deepEqual(Object.keys(graphReport.diagnostics[0] ?? {}).filter((key) => !["pointer", "relatedId"].includes(key)), ["phase", "code", "path", "recordId", "message"]);

    // A file that fails its own checks: the graph is not evaluated.
    fs.writeFileSync(path.join(records, "lru.md"), ZETTEL);
    fs.writeFileSync(path.join(records, "scratch.md"), "# Just a heading\n\nNo frontmatter.\n");
    const file = docket(["validate", "nb", "--json"], dir);
    assert.equal(file.status, 1);
    const fileReport = JSON.parse(file.stdout) as { graphEvaluated: boolean; records: number; diagnostics: { phase: string; code: string; path: string }[] };
    assert.equal(fileReport.graphEvaluated, false);
    assert.equal(fileReport.records, 3);
    assert.deepEqual(fileReport.diagnostics.map((d) => [d.phase, d.code, d.path]), [["markdown", "markdown.frontmatter.missing", "records/scratch.md"]]);
    fs.rmSync(path.join(records, "scratch.md"));

    // Unusable: a symlink out of the Notebook, a plain folder, a missing manifest, a missing folder.
    fs.writeFileSync(path.join(dir, "outside.md"), SOURCE);
    fs.symlinkSync(path.join(dir, "outside.md"), path.join(records, "linked.md"));
    const linked = docket(["validate", "nb", "--json"], dir);
    assert.equal(linked.status, 2);
    assert.equal(linked.stdout, "");
    assert.match(linked.stderr, /^docket: notebook\.layout-invalid: records\/linked\.md is a symbolic link/u);
    fs.rmSync(path.join(records, "linked.md"));

    fs.mkdirSync(path.join(dir, "plain"));
    assert.match(docket(["validate", "plain", "--json"], dir).stderr, /^docket: notebook\.layout-invalid: /u);
    fs.rmSync(path.join(dir, "nb", ".observer", "notebook.json"));
    const noManifest = docket(["validate", "nb", "--json"], dir);
    assert.equal(noManifest.status, 2);
    assert.match(noManifest.stderr, /^docket: notebook\.manifest-missing: /u);
    const missing = docket(["validate", "nowhere"], dir);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^docket: notebook\.path-missing: /u);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("status: id, language, counts per type and health; an interrupted publication says recovery is needed", () => {
  const dir = tempDir();
  try {
    assert.equal(docket(["setup", "nb", "--language", "en", "--yes"], dir).status, 0);
    const root = path.join(dir, "nb");
    fs.writeFileSync(path.join(root, "records", "source.md"), SOURCE);
    fs.writeFileSync(path.join(root, "records", "zettel.md"), ZETTEL);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, ".observer", "notebook.json"), "utf8")) as { notebook_id: string };

    const healthy = docket(["status", "nb", "--json"], dir);
    assert.equal(healthy.status, 0, healthy.stderr);
    assert.deepEqual(JSON.parse(healthy.stdout), {
      root,
      notebookId: manifest.notebook_id,
      language: "en",
      health: "healthy",
      records: 2,
      types: { source: 1, inquiry: 0, memo: 0, zettel: 1 },
      activeTransaction: false,
      issues: [],
    });
    const text = docket(["status", "nb"], dir);
    assert.equal(text.status, 0);
    assert.match(text.stdout, /records: 2 \(source 1, inquiry 0, memo 0, zettel 1\)\nhealth: healthy\n/u);

    fs.mkdirSync(path.join(root, ".observer", "transactions", "active"), { recursive: true });
    const blocked = docket(["status", "nb"], dir);
    assert.equal(blocked.status, 1);
    assert.match(blocked.stdout, /health: recovery-required\n/u);
    assert.match(blocked.stdout, /recovery needed/u);
    fs.rmSync(path.join(root, ".observer", "transactions"), { recursive: true });

    fs.writeFileSync(path.join(root, "records", "broken.md"), "---\ntitle: [unclosed\n---\n# Broken\n\nBody.\n");
    const before = fs.readFileSync(path.join(root, "records", "broken.md"));
    const unhealthy = docket(["status", "nb", "--json"], dir);
    assert.equal(unhealthy.status, 1);
    const status = JSON.parse(unhealthy.stdout) as { health: string; issues: { code: string; diagnostics?: number }[] };
    assert.equal(status.health, "unhealthy");
    assert.deepEqual(status.issues.map((issue) => [issue.code, issue.diagnostics]), [["notebook.records-invalid", 1]]);
    assert.deepEqual(fs.readFileSync(path.join(root, "records", "broken.md")), before, "status never writes");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("usage: no subcommand, an unknown one or a missing folder exit 2 with docket.usage", () => {
  const dir = tempDir();
  try {
    for (const args of [[], ["frobnicate"], ["validate"], ["status", "a", "b"], ["validate", "x", "--verbose"]]) {
      const run = docket(args, dir);
      assert.equal(run.status, 2, args.join(" "));
      assert.match(run.stderr, args.length === 0 ? /^Usage:\n {2}docket notebook validate/u : /^docket: docket\.usage: /u, args.join(" "));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
