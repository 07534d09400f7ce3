// `docket notebook validate`'s speed-ups must never change an answer: the plain-YAML reader and the
// schema pre-check agree with yaml and ajv wherever they answer, the code-unit comparison agrees
// with the collator, and the persistent validation cache gives byte-identical verdicts cold, warm,
// after edits, when garbled, and whatever a stranger put in it for bytes the records no longer have.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fullFormats } from "ajv-formats/dist/formats";
import fc from "fast-check";
import { compareCodeUnits } from "../../server/ledger/canonicalJson";
import { compareText } from "../../server/judgment/json";
import { decodeNotebookManifest, NotebookManifest } from "../../server/notebook/manifest";
import { certainManifest, parseManifestBytes } from "../../server/notebook/manifestFormat";
import { MAX_FRONTMATTER_DEPTH, MAX_FRONTMATTER_KEYS } from "../../server/notebook/markdownProfile";
import { setupNotebook, readNotebook } from "../../server/notebook/notebookStore";
import { validateNotebookCached } from "../../server/notebook/notebookValidation";
import { compareNotebookText } from "../../server/notebook/referenceOrder";
import { schemaDiagnostics } from "../../server/notebook/recordSchema";
import { certainlyMatchesRecordSchema, dateTime } from "../../server/notebook/recordSchemaCheck";
import { readSimpleFrontmatter } from "../../server/notebook/simpleFrontmatter";
import { recordSetDigest, validationCacheLocation } from "../../server/notebook/validationCache";
import { parseStrictYaml } from "../../server/yaml/strictDocument";
import { generateNotebookRecords, RECORD_FAULTS, writeNotebookRecords, type GeneratedRecord } from "../support/notebookGenerator";
import { repoRoot } from "../support/repoRoot";
import { yamlLineEdits } from "../support/yamlLineEdits";

const FIXTURES = path.join(repoRoot(), "test", "fixtures", "notebook");

function markdownFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(folder, entry.name);
    return entry.isDirectory() ? markdownFiles(at) : entry.name.endsWith(".md") ? [at] : [];
  });
}

/** The frontmatter text as markdownProfile cuts it (line endings normalised), or undefined. */
function frontmatterOf(text: string): string | undefined {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines[0] !== "---") return undefined;
  const closing = lines.indexOf("---", 1);
  return closing === -1 ? undefined : lines.slice(1, closing).join("\n");
}

/** What yamlLineEdits puts into each line: YAML's indicators, quotes, comments, numbers, odd spaces. */
const YAML_INSERTS = ["#", " #x", ": ", "'", '"', "\\", "- ", "[", "]", "{", "&a ", "*a", "!t ", "|", "~", "0x1", ".5", "null", " ", "\t", "\u3000", "한", ",", "?", "%"];

function mutations(frontmatter: string): string[] {
  return yamlLineEdits(frontmatter, YAML_INSERTS, 5);
}

function yamlValue(text: string): { ok: true; value: unknown } | { ok: false } {
  const parsed = parseStrictYaml(text, { schema: "core", merge: false, prettyErrors: false, logLevel: "error" }, { maxKeys: MAX_FRONTMATTER_KEYS, maxDepth: MAX_FRONTMATTER_DEPTH });
  if (!parsed.ok || parsed.document.errors.length > 0) return { ok: false };
  try {
    return { ok: true, value: parsed.document.toJS({ maxAliasCount: 0 }) };
  } catch {
    // An alias: markdownProfile reports it as invalid YAML.
    return { ok: false };
  }
}

function sampleFrontmatters(): string[] {
  const texts = markdownFiles(FIXTURES).map((file) => fs.readFileSync(file, "utf8"));
  texts.push(...generateNotebookRecords({ records: 10, faults: RECORD_FAULTS }).map((record) => Buffer.from(record.bytes).toString("utf8")));
  return texts.flatMap((text) => {
    const frontmatter = frontmatterOf(text);
    return frontmatter === undefined ? [] : [frontmatter];
  });
}

test("the plain-YAML reader gives exactly yaml's value wherever it answers, and declines what yaml refuses", () => {
  let answered = 0;
  let declined = 0;
  for (const base of sampleFrontmatters()) {
    for (const text of [base, ...mutations(base)]) {
      const simple = readSimpleFrontmatter(text, MAX_FRONTMATTER_KEYS);
      if (simple === undefined) {
        declined += 1;
        continue;
      }
      answered += 1;
      const reference = yamlValue(text);
      assert.ok(reference.ok, `yaml refuses what the plain reader read:\n${text}`);
      assert.deepStrictEqual(simple, reference.value, text);
    }
  }
  // Both sides are exercised: most real records are read, many mutations declined.
  assert.ok(answered > 1_000 && declined > 1_000, `answered ${answered}, declined ${declined}`);
});

test("the schema pre-check says 'certainly valid' only where ajv reports nothing", () => {
  let certain = 0;
  let declined = 0;
  for (const base of sampleFrontmatters()) {
    for (const text of [base, ...mutations(base)]) {
      // The plain reader's value is yaml's (the test above); yaml only for every third text it
      // declines (yaml's parse is most of this test's time; the values it adds are few kinds).
      const simple = readSimpleFrontmatter(text, MAX_FRONTMATTER_KEYS);
      if (simple === undefined && (declined += 1) % 3 !== 0) continue;
      const parsed = simple !== undefined ? { ok: true as const, value: simple } : yamlValue(text);
      if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) continue;
      const frontmatter = parsed.value as Record<string, unknown>;
      if (!certainlyMatchesRecordSchema(frontmatter)) continue;
      certain += 1;
      assert.deepEqual(schemaDiagnostics("records/x.md", frontmatter), [], text);
    }
  }
  assert.ok(certain > 500, `only ${certain} certain answers`);
});

test("the pre-check's date-time answers as ajv-formats' date-time function, usual form or not", () => {
  const byAjv = (fullFormats["date-time"] as { validate: (value: string) => boolean }).validate;
  // Usual timestamps with every field pushed out of range, and strings of the characters that matter to the split.
  const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, "0"));
  const usual = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), two, two, fc.constantFrom("T", "t", " ", "\u00a0"), two, two, two, fc.constantFrom("", ".5", ".123456", "."), fc.constantFrom("Z", "z", "", "+09:00", "-23:59", "+2400", "+09", "+9:00", "Zt", "Z "))
    .map(([year, month, day, separator, hour, minute, second, fraction, zone]) => `${String(year).padStart(4, "0")}-${month}-${day}${separator}${hour}:${minute}:${second}${fraction}${zone}`);
  const scrambled = fc.string({ unit: fc.constantFrom(..."0123456789-:.+TtZz \t\u2028x") });
  let usualForm = 0;
  fc.assert(
    fc.property(fc.oneof(usual, scrambled), (text) => {
      if (/^[-0-9]{10}T/.test(text)) usualForm += 1;
      assert.equal(dateTime(text), byAjv(text), JSON.stringify(text));
    }),
    { numRuns: 20_000 },
  );
  for (const text of ["2026-02-29T00:00:00Z", "2024-02-29T23:59:60Z", "2024-02-29T23:59:60+01:00", "2026-03-02T09:00:00Z", "2026-13-02T09:00:00Z", "2026-03-02T24:00:00Z"]) {
    assert.equal(dateTime(text), byAjv(text), text);
  }
  assert.ok(usualForm > 2_000, `only ${usualForm} texts of the usual form`);
});

test("the code-unit shortcut of the Notebook order agrees with the en-US collation", () => {
  const alphabet = "-./0123456789abcdefghijklmnopqrstuvwxyz";
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const word = (): string => Array.from({ length: Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
  for (let index = 0; index < 50_000; index += 1) {
    const left = index % 2 === 0 ? word() : `records/memo-0000-${word()}`;
    const right = index % 2 === 0 ? word() : `records/memo-0000-${word()}`;
    const collated = Math.sign(compareText(left, right) || compareCodeUnits(left, right));
    assert.equal(Math.sign(compareNotebookText(left, right)), collated, JSON.stringify([left, right]));
  }
  // Outside the alphabet the collator still decides.
  assert.ok(compareNotebookText("Memo-c.md", "memo-b.md") > 0);
  assert.ok(compareNotebookText("a_b", "a-b") < 0);
});

test("the manifest's exact check accepts only what the zod schema accepts, with the same value", () => {
  const id = "notebook-0f8fad5b-d9cb-469f-a165-70867728950e";
  const texts = [
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id}","default_language":"en"}`,
    `{"default_language":"ko","notebook_id":"${id}","observer_notebook":"observer-notebook/v1"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id}","default_language":"fr"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id.toUpperCase()}","default_language":"en"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id.replace("-469f-", "-169f-")}","default_language":"en"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id}x","default_language":"en"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id}"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id}","default_language":"en","extra":1}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id}","__proto__":{},"default_language":"en"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":"${id}","default_language":"en","default_language":"ko"}`,
    `{"observer_notebook":"observer-notebook/v2","notebook_id":"${id}","default_language":"en"}`,
    `{"observer_notebook":1,"notebook_id":"${id}","default_language":"en"}`,
    `{"observer_notebook":"observer-notebook/v1","notebook_id":null,"default_language":"en"}`,
    `[]`,
    `null`,
    `"observer-notebook/v1"`,
  ];
  let accepted = 0;
  for (const text of texts) {
    const value: unknown = JSON.parse(text);
    const certain = certainManifest(value);
    const schema = NotebookManifest.safeParse(value);
    assert.equal(certain !== undefined, schema.success, text);
    if (certain !== undefined && schema.success) {
      accepted += 1;
      assert.deepEqual(certain, schema.data, text);
      assert.deepEqual(Object.keys(certain), Object.keys(schema.data), text);
    }
    // The bytes' reader answers exactly as the zod decoder does, refusals worded by it.
    assert.deepEqual(parseManifestBytes(Buffer.from(text), "/m"), decodeNotebookManifest(value, "/m"), text);
  }
  assert.equal(accepted, 3);
});

// ---- the persistent cache ----

interface Scratch {
  readonly root: string;
  readonly workspace: string;
  readonly done: () => void;
}

function scratchNotebook(records: readonly GeneratedRecord[]): Scratch {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "docket-validation-cache-"));
  const setup = setupNotebook(path.join(base, "notes"), "en");
  if (!setup.ok) throw new Error(setup.issue.message);
  writeNotebookRecords(setup.value.notebook.root, records);
  const workspace = path.join(base, "workspace");
  fs.mkdirSync(workspace);
  return { root: setup.value.notebook.root, workspace: fs.realpathSync(workspace), done: () => fs.rmSync(base, { recursive: true, force: true }) };
}

/** The verdict as validate prints it, from the uncached reader every other caller uses. */
function reference(root: string): unknown {
  const read = readNotebook(root);
  assert.ok(read.ok);
  const { valid, graphEvaluated, records, diagnostics } = read.value.validation;
  return JSON.stringify({ valid, graphEvaluated, records, diagnostics });
}

function cached(root: string, workspace: string | null): { verdict: string; cache: unknown } {
  const result = validateNotebookCached(root, workspace === null ? null : validationCacheLocation(workspace, root));
  assert.ok(result.ok);
  const { valid, graphEvaluated, records, diagnostics } = result.value.validation;
  return { verdict: JSON.stringify({ valid, graphEvaluated, records, diagnostics }), cache: result.value.cache };
}

const NOTEBOOKS: readonly { name: string; records: GeneratedRecord[] }[] = [
  { name: "valid", records: generateNotebookRecords({ records: 120, seed: 3 }) },
  { name: "every fault", records: generateNotebookRecords({ records: 120, seed: 4, faults: RECORD_FAULTS }) },
  { name: "graph faults only", records: generateNotebookRecords({ records: 120, seed: 5, faults: ["dangling", "self-edge", "duplicate-edge", "orphan-memo"] }) },
  { name: "duplicate ids", records: generateNotebookRecords({ records: 60, seed: 6, faults: ["duplicate-id", "duplicate-id"] }) },
];

test("cached validation equals the uncached verdict: cold, warm, and after every kind of edit", () => {
  for (const notebook of NOTEBOOKS) {
    const scratch = scratchNotebook(notebook.records);
    try {
      const records = path.join(scratch.root, "records");
      const check = (step: string, expectedCache: Partial<{ parsed: number; unchanged: boolean; written: boolean }>): void => {
        const expected = reference(scratch.root);
        assert.equal(cached(scratch.root, null).verdict, expected, `${notebook.name}, ${step}, no cache`);
        const answer = cached(scratch.root, scratch.workspace);
        assert.equal(answer.verdict, expected, `${notebook.name}, ${step}, with cache`);
        for (const [key, value] of Object.entries(expectedCache)) assert.equal((answer.cache as Record<string, unknown>)[key], value, `${notebook.name}, ${step}: cache ${key}`);
      };
      check("cold", { parsed: new Set(notebook.records.map((record) => Buffer.from(record.bytes).toString("hex"))).size, written: true });
      check("warm", { unchanged: true, parsed: 0, written: false });
      const names = fs.readdirSync(records).sort();
      const first = path.join(records, names[0] as string);
      fs.appendFileSync(first, "\nOne more line.\n");
      check("one record edited", { parsed: 1, unchanged: false, written: true });
      fs.writeFileSync(first, fs.readFileSync(first, "utf8").replace(/^title: .*$/mu, "title: [broken"));
      check("one record broken", { parsed: 1 });
      fs.rmSync(first);
      check("one record removed", { parsed: 0, written: true });
      fs.renameSync(path.join(records, names[1] as string), path.join(records, `renamed-${names[1] as string}`));
      check("one record renamed", { parsed: 0, written: true });
      fs.copyFileSync(path.join(records, names[2] as string), path.join(records, `zz-copy-${names[2] as string}`));
      check("a copy with the same id", { parsed: 0 });
      check("unchanged again", { unchanged: true, written: false });
    } finally {
      scratch.done();
    }
  }
});

function cacheFile(scratch: Scratch): string {
  return validationCacheLocation(scratch.workspace, scratch.root).file;
}

test("a garbled, foreign or oversized cache is ignored and replaced; a forged entry never covers other bytes", () => {
  const scratch = scratchNotebook(generateNotebookRecords({ records: 30, seed: 8, faults: ["schema", "dangling"] }));
  try {
    const expected = reference(scratch.root);
    cached(scratch.root, scratch.workspace);
    const file = cacheFile(scratch);
    const good = fs.readFileSync(file, "utf8");
    const [header, entries] = good.split("\n") as [string, string];
    const variants: Record<string, string> = {
      empty: "",
      "not json": "{not json\n[]\n",
      "one line": `${header}\n`,
      "other format": `${header.replace("docket-notebook-validation-cache/v1", "docket-notebook-validation-cache/v9")}\n${entries}\n`,
      "other validator": `${header.replace(/"validator":"[0-9a-f]{64}"/u, `"validator":"${"0".repeat(64)}"`)}\n${entries}\n`,
      "other root": `${header.replace(/"root":"[^"]*"/u, '"root":"/elsewhere"')}\n${entries}\n`,
      "other records folder": `${header.replace(/"recordsFolder":"[^"]*"/u, '"recordsFolder":"1:2"')}\n${entries}\n`,
      "extra key": `${header.replace('{"format"', '{"extra":1,"format"')}\n${entries}\n`,
      "garbled entry": `${header.replace(/"set":"[0-9a-f]{64}"/u, `"set":"${"1".repeat(64)}"`)}\n${entries.replace('"p"', '"q"')}\n`,
      "bad verdict": `${header.replace('"valid":false', '"valid":"no"')}\n${entries}\n`,
    };
    for (const [name, text] of Object.entries(variants)) {
      fs.writeFileSync(file, text);
      const answer = cached(scratch.root, scratch.workspace);
      assert.equal(answer.verdict, expected, name);
      assert.equal((answer.cache as { unchanged: boolean }).unchanged, false, name);
      assert.equal(fs.readFileSync(file, "utf8"), good, `${name}: rewritten`);
    }

    // A stranger's "valid" verdict and entries for bytes the records do not have change nothing:
    // the set digest and every key are the SHA-256 of the bytes on disk now.
    const forged = good.replace(/"verdict":\{.*\}\}$/mu, '"verdict":{"valid":true,"graphEvaluated":true,"records":32,"diagnostics":[]}}');
    const invalidFile = path.join(scratch.root, "records", fs.readdirSync(path.join(scratch.root, "records")).sort()[5] as string);
    fs.writeFileSync(invalidFile, "not a record at all\n");
    fs.writeFileSync(file, forged.replace(/"set":"[0-9a-f]{64}"/u, `"set":"${"2".repeat(64)}"`));
    const after = reference(scratch.root);
    assert.notEqual(after, expected);
    assert.equal(cached(scratch.root, scratch.workspace).verdict, after);
  } finally {
    scratch.done();
  }
});

test("the cache is never written through a symbolic link, and validation still answers", () => {
  const scratch = scratchNotebook(generateNotebookRecords({ records: 10, seed: 9 }));
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "docket-validation-elsewhere-"));
  try {
    fs.symlinkSync(elsewhere, path.join(scratch.workspace, ".docket"));
    const answer = cached(scratch.root, scratch.workspace);
    assert.equal(answer.verdict, reference(scratch.root));
    assert.equal((answer.cache as { written: boolean }).written, false);
    assert.deepEqual(fs.readdirSync(elsewhere), []);
  } finally {
    scratch.done();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

// ---- the command, black box ----

const CLI = path.join(repoRoot(), "dist", "docket.js");

function validate(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, "notebook", "validate", ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("docket notebook validate prints the same report and exit code cold, warm, without cache and after an edit", { skip: !fs.existsSync(CLI) && "dist/docket.js is not built" }, () => {
  // Smaller notebooks than above: each case starts several processes; the differential tests above cover the rest.
  const notebooks = [
    { name: "valid", records: generateNotebookRecords({ records: 40, seed: 3 }) },
    { name: "every fault", records: generateNotebookRecords({ records: 40, seed: 4, faults: RECORD_FAULTS }) },
  ];
  for (const notebook of notebooks) {
    const scratch = scratchNotebook(notebook.records);
    try {
      // Cold in the text form, warm in both (the report's form does not depend on where its answers came from).
      for (const json of [[], ["--json"]]) {
        const uncached = validate([scratch.root, "--no-cache", ...json], scratch.workspace);
        assert.equal(uncached.status, notebook.name === "valid" ? 0 : 1);
        if (json.length === 0) {
          const cold = validate([scratch.root, "--workspace", scratch.workspace, ...json], scratch.workspace);
          assert.ok(fs.existsSync(cacheFile(scratch)), "the cold run wrote the cache");
          assert.deepEqual(cold, uncached, `${notebook.name} cold`);
        }
        const warm = validate([scratch.root, "--workspace", scratch.workspace, ...json], scratch.workspace);
        assert.deepEqual(warm, uncached, `${notebook.name} warm${json.join("")}`);
      }
      const first = path.join(scratch.root, "records", fs.readdirSync(path.join(scratch.root, "records")).sort()[0] as string);
      fs.writeFileSync(first, "---\nbroken: [\n---\n# T\n\nBody.\n");
      const uncached = validate([scratch.root, "--no-cache", "--json"], scratch.workspace);
      assert.equal(uncached.status, 1);
      assert.deepEqual(validate([scratch.root, "--workspace", scratch.workspace, "--json"], scratch.workspace), uncached);
      // Outside any workspace (no --workspace, no Git work tree around the current folder) nothing is cached.
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), "docket-no-workspace-"));
      try {
        assert.deepEqual(validate([scratch.root, "--json"], outside), uncached);
        assert.deepEqual(fs.readdirSync(outside), []);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
      assert.equal(validate([scratch.root, "--workspace", path.join(scratch.workspace, "missing")], scratch.workspace).status, 2);
    } finally {
      scratch.done();
    }
  }
});

test("the record-set digest is the SHA-256 of every file's path and hash lines, as one update per file gave it", () => {
  const file = fc.record({ path: fc.string({ unit: "binary", maxLength: 40 }).map((name) => `records/${name}.md`), sha256: fc.stringMatching(/^[0-9a-f]{64}$/) });
  fc.assert(
    fc.property(fc.array(file, { maxLength: 30 }), (files) => {
      const perFile = createHash("sha256");
      for (const entry of files) perFile.update(`${entry.path}\n${entry.sha256}\n`);
      assert.equal(recordSetDigest(files), perFile.digest("hex"));
    }),
    { numRuns: 500, seed: 16 },
  );
});
