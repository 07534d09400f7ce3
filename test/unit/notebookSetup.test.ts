// The Notebook on disk (observer.md §5.1): path rules, the strict manifest and its exact bytes,
// setup that creates only what is missing and never rewrites a byte, opening with layout and
// symlink checks, and health. Real temporary folders; record validation is the real record set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeNotebookManifest, parseManifestBytes, serializeManifest, type NotebookManifest } from "../../server/notebook/manifest";
import { resolveNotebookPath } from "../../server/notebook/notebookPath";
import { hasActiveTransaction, notebookStatus, openNotebook, planNotebookSetup, readNotebook, setupNotebook } from "../../server/notebook/notebookStore";
import { dispatchNotebookCommand, type NotebookCliIo } from "../../server/notebook/notebookCli";

const NOTEBOOK_ID = "notebook-0b7e3c52-9a1d-4f60-8c2e-5d4a3b2c1f00";
const SOURCE_ID = "source-1a2b3c4d-0000-4000-8000-00000000aa01";
const INQUIRY_ID = "inquiry-1a2b3c4d-0000-4000-8000-00000000aa02";
const MEMO_ID = "memo-1a2b3c4d-0000-4000-8000-00000000aa03";

function sandbox(): { readonly dir: string; dispose(): void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-notebook-")));
  return { dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function withSandbox(run: (dir: string) => void | Promise<void>): () => Promise<void> {
  return async () => {
    const box = sandbox();
    try {
      await run(box.dir);
    } finally {
      box.dispose();
    }
  };
}

function frontmatter(lines: readonly string[], h1: string, body: string): string {
  return ["---", ...lines, "---", `# ${h1}`, "", body, ""].join("\n");
}

const COMMON = (id: string, title: string): string[] => [
  "observer_schema: observer-record/v1",
  `id: ${id}`,
  `title: ${title}`,
  "lang: en",
  'created: "2026-03-01T09:00:00Z"',
  'modified: "2026-03-01T09:30:00Z"',
  "tags: []",
  "aliases: []",
];

const SOURCE_MD = frontmatter(
  [
    ...COMMON(SOURCE_ID, "Field notes on retries"),
    "observer_type: source",
    "observer_status: available",
    "sources: []",
    "lineage: []",
    "relations: []",
    "source_kind: external-material",
    "external:",
    "  uri: https://example.org/retries",
  ],
  "Field notes on retries",
  "Notes taken from a public write-up about retry storms.",
);

const INQUIRY_MD = frontmatter(
  [
    ...COMMON(INQUIRY_ID, "Do retries amplify outages"),
    "observer_type: inquiry",
    "observer_status: open",
    "sources:",
    `  - record: ${SOURCE_ID}`,
    "    role: context",
    "lineage: []",
    "relations: []",
    "inquiry:",
    "  origin: user",
    "  original: Do retries make outages worse?",
    "  current: Do retries make outages worse?",
  ],
  "Do retries amplify outages",
  "An open question raised while reading the notes.",
);

const MEMO_MD = frontmatter(
  [
    ...COMMON(MEMO_ID, "Backoff first"),
    "observer_type: memo",
    "observer_status: incubating",
    "sources: []",
    "lineage:",
    "  - type: derived_from",
    `    target: ${INQUIRY_ID}`,
    "relations: []",
  ],
  "Backoff first",
  "Working idea: jittered backoff before any retry budget.",
);

function manifestPath(root: string): string {
  return path.join(root, ".observer", "notebook.json");
}

function writeLayout(root: string, manifest: string | null): void {
  fs.mkdirSync(path.join(root, ".observer"), { recursive: true });
  fs.mkdirSync(path.join(root, "records"), { recursive: true });
  if (manifest !== null) fs.writeFileSync(manifestPath(root), manifest);
}

function manifestText(overrides: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ observer_notebook: "observer-notebook/v1", notebook_id: NOTEBOOK_ID, default_language: "en", ...overrides }, null, 2)}\n`;
}

/** Every file under dir with its bytes, for "nothing changed" assertions. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      const rel = path.relative(dir, full);
      if (entry.isDirectory()) {
        out[`${rel}/`] = "";
        walk(full);
      } else if (entry.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(full)}`;
      else out[rel] = fs.readFileSync(full).toString("base64");
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

function issueCode<T>(result: { ok: true; value: T } | { ok: false; issue: { code: string } }): string {
  assert.equal(result.ok, false, "expected a coded failure");
  return result.ok ? "" : result.issue.code;
}

function value<T>(result: { ok: true; value: T } | { ok: false; issue: { code: string; message: string } }): T {
  if (!result.ok) assert.fail(`expected success, got ${result.issue.code}: ${result.issue.message}`);
  return result.value;
}

test("path input: /abs as is, ./x and x against cwd, ~ and ~/x against home, ~user and empty refused with a code", () => {
  const cwd = "/work/project";
  const home = "/home/ana";
  assert.deepEqual(resolveNotebookPath("/srv/notes", cwd, home), { ok: true, path: "/srv/notes", kind: "absolute" });
  assert.deepEqual(resolveNotebookPath("./notes/a", cwd, home), { ok: true, path: "/work/project/notes/a", kind: "cwd-relative" });
  assert.deepEqual(resolveNotebookPath("notes", cwd, home), { ok: true, path: "/work/project/notes", kind: "cwd-relative" });
  assert.deepEqual(resolveNotebookPath("../up", cwd, home), { ok: true, path: "/work/up", kind: "cwd-relative" });
  assert.deepEqual(resolveNotebookPath("~", cwd, home), { ok: true, path: "/home/ana", kind: "home-relative" });
  assert.deepEqual(resolveNotebookPath("~/notes", cwd, home), { ok: true, path: "/home/ana/notes", kind: "home-relative" });
  assert.deepEqual(resolveNotebookPath("  ~/padded  ", cwd, home), { ok: true, path: "/home/ana/padded", kind: "home-relative" });
  const tildeUser = resolveNotebookPath("~bob/notes", cwd, home);
  assert.equal(tildeUser.ok, false);
  if (!tildeUser.ok) {
    assert.equal(tildeUser.code, "notebook.path-unsupported");
    assert.match(tildeUser.message, /~user paths are not/u);
  }
  const empty = resolveNotebookPath("   ", cwd, home);
  assert.equal(empty.ok, false);
  if (!empty.ok) assert.equal(empty.code, "notebook.path-empty");
});

test("manifest: exact v1 keys decode; unsupported schema strings and every malformed shape get their codes", () => {
  const good = { observer_notebook: "observer-notebook/v1", notebook_id: NOTEBOOK_ID, default_language: "ko" };
  assert.deepEqual(value(decodeNotebookManifest(good, "m")), good);
  const cases: readonly (readonly [string, unknown, string])[] = [
    ["null", null, "notebook.manifest-invalid"],
    ["array", [], "notebook.manifest-invalid"],
    ["missing schema", { notebook_id: NOTEBOOK_ID, default_language: "en" }, "notebook.manifest-invalid"],
    ["non-string schema", { ...good, observer_notebook: 1 }, "notebook.manifest-invalid"],
    ["newer schema", { ...good, observer_notebook: "observer-notebook/v2" }, "notebook.manifest-unsupported"],
    ["bad id", { ...good, notebook_id: "notebook-invalid" }, "notebook.manifest-invalid"],
    ["uppercase id", { ...good, notebook_id: NOTEBOOK_ID.toUpperCase().replace("NOTEBOOK", "notebook") }, "notebook.manifest-invalid"],
    ["not v4", { ...good, notebook_id: "notebook-0b7e3c52-9a1d-1f60-8c2e-5d4a3b2c1f00" }, "notebook.manifest-invalid"],
    ["language", { ...good, default_language: "ja" }, "notebook.manifest-invalid"],
    ["extra key", { ...good, extra: true }, "notebook.manifest-invalid"],
  ];
  for (const [name, input, code] of cases) assert.equal(issueCode(decodeNotebookManifest(input, "m")), code, name);
  assert.equal(issueCode(parseManifestBytes(Buffer.from("{not json"), "m")), "notebook.manifest-invalid");
  assert.equal(issueCode(parseManifestBytes(Buffer.from([0x7b, 0xff, 0x7d]), "m")), "notebook.manifest-invalid");
});

test("manifest bytes: schema key order, two-space indentation, one final newline (the reference's bytes)", () => {
  const manifest: NotebookManifest = { default_language: "ko", notebook_id: NOTEBOOK_ID, observer_notebook: "observer-notebook/v1" };
  assert.equal(
    serializeManifest(manifest),
    `{\n  "observer_notebook": "observer-notebook/v1",\n  "notebook_id": "${NOTEBOOK_ID}",\n  "default_language": "ko"\n}\n`,
  );
});

test("manifest bytes with a UTF-8 byte order mark are not a manifest, as in the reference", () => {
  const bytes = Buffer.from(serializeManifest({ observer_notebook: "observer-notebook/v1", notebook_id: NOTEBOOK_ID, default_language: "en" }), "utf8");
  assert.equal(parseManifestBytes(bytes, "/n/.observer/notebook.json").ok, true);
  const withBom = parseManifestBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), "/n/.observer/notebook.json");
  assert.equal(withBom.ok ? null : withBom.issue.code, "notebook.manifest-invalid");
});

test(
  "setup creates the folder, .observer/, records/ and the manifest; a second setup is byte-idempotent; another language is refused",
  withSandbox((dir) => {
    const root = path.join(dir, "deep", "notebook");
    const plan = value(planNotebookSetup(root, "ko"));
    assert.deepEqual(plan.create, [".", ".observer", "records", ".observer/notebook.json"]);
    assert.equal(fs.existsSync(path.join(dir, "deep")), false, "planning writes nothing");

    const first = value(setupNotebook(root, "ko"));
    assert.deepEqual(first.created, [".", ".observer", "records", ".observer/notebook.json"]);
    assert.equal(first.notebook.root, fs.realpathSync(root));
    assert.equal(first.notebook.manifest.default_language, "ko");
    assert.match(first.notebook.manifest.notebook_id, /^notebook-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u);
    const bytes = fs.readFileSync(manifestPath(root), "utf8");
    assert.equal(bytes, serializeManifest(first.notebook.manifest));
    assert.deepEqual(fs.readdirSync(path.join(root, ".observer")), ["notebook.json"], "no temporary file left behind");
    assert.deepEqual(fs.readdirSync(path.join(root, "records")), []);
    assert.deepEqual(first.notebook.inventory, []);

    const before = tree(root);
    const again = value(setupNotebook(root, "ko"));
    assert.deepEqual(again.created, []);
    assert.equal(again.notebook.manifest.notebook_id, first.notebook.manifest.notebook_id);
    assert.deepEqual(value(planNotebookSetup(root, "ko")).create, []);
    assert.deepEqual(tree(root), before);

    const conflict = setupNotebook(root, "en");
    assert.equal(issueCode(conflict), "notebook.language-conflict");
    assert.equal(issueCode(planNotebookSetup(root, "en")), "notebook.language-conflict");
    assert.deepEqual(tree(root), before);
  }),
);

test(
  "setup adopts an existing folder with valid records and unrelated files without rewriting any byte",
  withSandbox((dir) => {
    const root = path.join(dir, "existing");
    fs.mkdirSync(path.join(root, "records"), { recursive: true });
    fs.writeFileSync(path.join(root, "README.md"), "# My notes\n\nLeave me alone.\n");
    fs.writeFileSync(path.join(root, "records", "source.md"), SOURCE_MD);
    const before = tree(root);
    const outcome = value(setupNotebook(root, "en"));
    assert.deepEqual(outcome.created, [".observer", ".observer/notebook.json"]);
    const after = tree(root);
    for (const [file, bytes] of Object.entries(before)) assert.equal(after[file], bytes, file);
    assert.deepEqual(
      outcome.notebook.inventory.map((entry) => entry.path),
      ["records/source.md"],
    );
  }),
);

test(
  "setup refuses, writing nothing, when the folder is a file, its records are invalid or its layout is symlinked",
  withSandbox((dir) => {
    const file = path.join(dir, "file");
    fs.writeFileSync(file, "not a folder");
    assert.equal(issueCode(setupNotebook(file, "en")), "notebook.path-not-directory");
    assert.equal(issueCode(setupNotebook(path.join(file, "below"), "en")), "notebook.path-not-directory");
    assert.equal(issueCode(setupNotebook("relative/notebook", "en")), "notebook.path-unsupported");

    const invalid = path.join(dir, "invalid");
    fs.mkdirSync(path.join(invalid, "records"), { recursive: true });
    fs.writeFileSync(path.join(invalid, "records", "broken.md"), "# No frontmatter\n\nBody.\n");
    const before = tree(invalid);
    const refused = setupNotebook(invalid, "en");
    assert.equal(issueCode(refused), "notebook.records-invalid");
    if (!refused.ok) assert.ok((refused.issue.diagnostics ?? []).some((d) => d.code === "markdown.frontmatter.missing"));
    assert.deepEqual(tree(invalid), before, "nothing written");

    const linked = path.join(dir, "linked");
    const outside = path.join(dir, "outside-records");
    fs.mkdirSync(linked);
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(linked, "records"));
    const linkedBefore = tree(linked);
    assert.equal(issueCode(setupNotebook(linked, "en")), "notebook.layout-invalid");
    assert.deepEqual(tree(linked), linkedBefore);
  }),
);

test(
  "a symlinked Notebook root is canonicalised with realpath",
  withSandbox((dir) => {
    const real = path.join(dir, "real");
    value(setupNotebook(real, "en"));
    const alias = path.join(dir, "alias");
    fs.symlinkSync(real, alias);
    assert.equal(value(openNotebook(alias)).root, real);
    assert.equal(value(planNotebookSetup(path.join(alias, "child"), "en")).root, path.join(real, "child"));
  }),
);

test(
  "open: missing, corrupt, unsupported and strict manifests, and every layout fault, get their codes",
  withSandbox((dir) => {
    assert.equal(issueCode(openNotebook(path.join(dir, "missing"))), "notebook.path-missing");
    assert.equal(issueCode(openNotebook("notebook")), "notebook.path-unsupported");
    const plain = path.join(dir, "plain");
    fs.mkdirSync(plain);
    assert.equal(issueCode(openNotebook(plain)), "notebook.layout-invalid");

    const root = path.join(dir, "nb");
    writeLayout(root, null);
    assert.equal(issueCode(openNotebook(root)), "notebook.manifest-missing");
    fs.writeFileSync(manifestPath(root), "{not-json");
    assert.equal(issueCode(openNotebook(root)), "notebook.manifest-invalid");
    fs.writeFileSync(manifestPath(root), manifestText({ observer_notebook: "observer-notebook/v2" }));
    assert.equal(issueCode(openNotebook(root)), "notebook.manifest-unsupported");
    fs.writeFileSync(manifestPath(root), manifestText({ extra: 1 }));
    assert.equal(issueCode(openNotebook(root)), "notebook.manifest-invalid");
    fs.writeFileSync(manifestPath(root), manifestText());
    assert.equal(value(openNotebook(root)).manifest.notebook_id, NOTEBOOK_ID);

    // A manifest that is a link (even to a valid manifest) is not the Notebook's own file.
    const elsewhere = path.join(dir, "elsewhere.json");
    fs.writeFileSync(elsewhere, manifestText());
    fs.rmSync(manifestPath(root));
    fs.symlinkSync(elsewhere, manifestPath(root));
    assert.equal(issueCode(openNotebook(root)), "notebook.manifest-invalid");
    fs.rmSync(manifestPath(root));
    fs.writeFileSync(manifestPath(root), manifestText());

    const records = path.join(root, "records");
    const faults: readonly (readonly [string, () => void, () => void])[] = [
      ["sub-folder", () => fs.mkdirSync(path.join(records, "sub")), () => fs.rmdirSync(path.join(records, "sub"))],
      ["non-Markdown file", () => fs.writeFileSync(path.join(records, "notes.txt"), "x"), () => fs.rmSync(path.join(records, "notes.txt"))],
      [
        "record symlinked out of the Notebook",
        () => {
          fs.writeFileSync(path.join(dir, "outside.md"), SOURCE_MD);
          fs.symlinkSync(path.join(dir, "outside.md"), path.join(records, "source.md"));
        },
        () => fs.rmSync(path.join(records, "source.md")),
      ],
    ];
    for (const [name, make, undo] of faults) {
      make();
      const result = openNotebook(root);
      assert.equal(issueCode(result), "notebook.layout-invalid", name);
      assert.equal(issueCode(readNotebook(root)), "notebook.layout-invalid", name);
      undo();
    }

    const moved = path.join(dir, "moved-records");
    fs.renameSync(records, moved);
    fs.symlinkSync(moved, records);
    assert.equal(issueCode(openNotebook(root)), "notebook.layout-invalid", "records/ symlink");
    fs.rmSync(records);
    fs.renameSync(moved, records);

    const observer = path.join(root, ".observer");
    const movedObserver = path.join(dir, "moved-observer");
    fs.renameSync(observer, movedObserver);
    fs.symlinkSync(movedObserver, observer);
    assert.equal(issueCode(openNotebook(root)), "notebook.layout-invalid", ".observer symlink");
  }),
);

test(
  "open: the inventory is every record, sorted by path, with its relative path, record id, bytes and sha256",
  withSandbox((dir) => {
    const root = path.join(dir, "nb");
    writeLayout(root, manifestText());
    fs.writeFileSync(path.join(root, "records", "b-inquiry.md"), INQUIRY_MD);
    fs.writeFileSync(path.join(root, "records", `${MEMO_ID}.md`), MEMO_MD);
    fs.writeFileSync(path.join(root, "records", "a-source.md"), SOURCE_MD.replace(/\n/gu, "\r\n"));
    const notebook = value(openNotebook(root));
    assert.deepEqual(
      notebook.inventory.map((entry) => [entry.path, entry.recordId]),
      [
        ["records/a-source.md", SOURCE_ID],
        ["records/b-inquiry.md", INQUIRY_ID],
        [`records/${MEMO_ID}.md`, MEMO_ID],
      ],
    );
    for (const entry of notebook.inventory) {
      const onDisk = fs.readFileSync(path.join(root, entry.path));
      assert.deepEqual(Buffer.from(entry.bytes), onDisk);
      assert.equal(entry.sha256, createHash("sha256").update(onDisk).digest("hex"));
    }
    const status = value(notebookStatus(root));
    assert.equal(status.health, "healthy");
    assert.equal(status.records, 3);
    assert.deepEqual(status.types, { source: 1, inquiry: 1, memo: 1, zettel: 0 });
    assert.deepEqual(status.issues, []);
  }),
);

test(
  "invalid records: open fails with notebook.records-invalid and diagnostics; status is unhealthy and writes nothing",
  withSandbox((dir) => {
    const root = path.join(dir, "nb");
    writeLayout(root, manifestText());
    fs.writeFileSync(path.join(root, "records", "source.md"), SOURCE_MD);
    fs.writeFileSync(path.join(root, "records", "invalid.md"), "# Missing frontmatter\n");
    const before = tree(root);
    const opened = openNotebook(root);
    assert.equal(issueCode(opened), "notebook.records-invalid");
    if (!opened.ok) assert.deepEqual(opened.issue.diagnostics?.map((d) => [d.path, d.code]), [["records/invalid.md", "markdown.frontmatter.missing"]]);
    const read = value(readNotebook(root));
    assert.equal(read.validation.valid, false);
    assert.equal(read.validation.graphEvaluated, false);
    const status = value(notebookStatus(root));
    assert.equal(status.health, "unhealthy");
    assert.deepEqual(status.issues.map((issue) => [issue.code, issue.diagnostics?.length]), [["notebook.records-invalid", 1]]);
    assert.deepEqual(tree(root), before);
  }),
);

test(
  "status: an active publication directory means recovery is required",
  withSandbox((dir) => {
    const root = value(setupNotebook(path.join(dir, "nb"), "en")).notebook.root;
    assert.equal(hasActiveTransaction(root), false);
    fs.mkdirSync(path.join(root, ".observer", "transactions", "active"), { recursive: true });
    assert.equal(hasActiveTransaction(root), true);
    const status = value(notebookStatus(root));
    assert.equal(status.health, "recovery-required");
    assert.equal(status.activeTransaction, true);
    assert.deepEqual(status.issues.map((issue) => issue.code), ["publication-transaction.active"]);
  }),
);

function captureIo(cwd: string, extra: Partial<NotebookCliIo> = {}): { io: NotebookCliIo; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: { stdout: (text) => (out += text), stderr: (text) => (err += text), cwd, home: cwd, interactive: false, ...extra },
    out: () => out,
    err: () => err,
  };
}

test(
  "CLI setup: prints the absolute path first; refuses without --yes when nobody can confirm; asks when someone can",
  withSandbox(async (dir) => {
    const refused = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["setup", "notes"], refused.io), 2);
    assert.match(refused.out(), new RegExp(`^Notebook folder: ${path.join(dir, "notes").replace(/[/\\.]/gu, "\\$&")} \\(relative to the current directory\\)\n`, "u"));
    assert.match(refused.err(), /^docket: notebook\.confirmation-required: /u);
    assert.equal(fs.existsSync(path.join(dir, "notes")), false);

    const declined = captureIo(dir, { interactive: true, confirm: async () => false });
    assert.equal(await dispatchNotebookCommand(["setup", "notes"], declined.io), 2);
    assert.equal(fs.existsSync(path.join(dir, "notes")), false);

    const asked: string[] = [];
    const accepted = captureIo(dir, {
      interactive: true,
      confirm: async (question) => {
        asked.push(question);
        return true;
      },
    });
    assert.equal(await dispatchNotebookCommand(["setup", "~/notes", "--language", "ko"], accepted.io), 0);
    assert.deepEqual(asked, [`Create a Notebook at ${path.join(dir, "notes")}?`]);
    assert.equal(value(openNotebook(path.join(dir, "notes"))).manifest.default_language, "ko");

    // Already set up: nothing to confirm, nothing written; no --language keeps the Notebook's own.
    const again = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["setup", "notes"], again.io), 0);
    assert.match(again.out(), /Already a Notebook \(notebook-[0-9a-f-]+, language ko\)/u);

    const conflict = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["setup", "notes", "--language", "en", "--yes"], conflict.io), 2);
    assert.match(conflict.err(), /^docket: notebook\.language-conflict: /u);

    const tilde = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["setup", "~someone/notes", "--yes"], tilde.io), 2);
    assert.match(tilde.err(), /^docket: notebook\.path-unsupported: /u);

    const badLanguage = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["setup", "x", "--language", "fr", "--yes"], badLanguage.io), 2);
    assert.match(badLanguage.err(), /^docket: docket\.usage: --language must be en or ko/u);
  }),
);

test(
  "CLI validate --json: the documented keys in order; exit 0 valid, 1 invalid, 2 not a Notebook",
  withSandbox(async (dir) => {
    const root = path.join(dir, "nb");
    writeLayout(root, manifestText());
    fs.writeFileSync(path.join(root, "records", "source.md"), SOURCE_MD);
    const ok = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["validate", root, "--json"], ok.io), 0);
    assert.equal(ok.out(), '{"valid":true,"graphEvaluated":true,"records":1,"diagnostics":[]}\n');

    fs.writeFileSync(path.join(root, "records", "memo.md"), MEMO_MD);
    const bad = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["validate", "nb", "--json"], bad.io), 1);
    const report = JSON.parse(bad.out()) as { valid: boolean; graphEvaluated: boolean; diagnostics: Record<string, string>[] };
    assert.deepEqual(Object.keys(report), ["valid", "graphEvaluated", "records", "diagnostics"]);
    assert.equal(report.valid, false);
    assert.equal(report.graphEvaluated, true);
    assert.ok(report.diagnostics.length > 0);
    const order = ["phase", "code", "path", "pointer", "recordId", "relatedId", "message"];
    for (const diagnostic of report.diagnostics) {
      const keys = Object.keys(diagnostic);
      assert.deepEqual(keys, order.filter((key) => keys.includes(key)));
      assert.equal(diagnostic["path"], "records/memo.md");
    }

    const human = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["validate", root], human.io), 1);
    assert.match(human.out(), /^Notebook .* \(notebook-[0-9a-f-]+, en\)\ninvalid: \d+ diagnostics, \d+ record files/u);

    const unusable = captureIo(dir);
    assert.equal(await dispatchNotebookCommand(["validate", dir, "--json"], unusable.io), 2);
    assert.equal(unusable.out(), "");
    assert.match(unusable.err(), /^docket: notebook\.layout-invalid: /u);
  }),
);

test(
  "status: a temporary file left in records/ by an interrupted publication says recovery is needed",
  withSandbox((dir) => {
    const root = value(setupNotebook(path.join(dir, "nb"), "en")).notebook.root;
    fs.writeFileSync(path.join(root, "records", ".x.md.0000.tmp"), "partial");
    const plain = notebookStatus(root);
    assert.equal(issueCode(plain), "notebook.layout-invalid");
    if (!plain.ok) assert.doesNotMatch(plain.issue.message, /recovery needed/u);
    fs.mkdirSync(path.join(root, ".observer", "transactions", "active"), { recursive: true });
    const interrupted = notebookStatus(root);
    assert.equal(issueCode(interrupted), "notebook.layout-invalid");
    if (!interrupted.ok) assert.match(interrupted.issue.message, /recovery needed/u);
  }),
);
