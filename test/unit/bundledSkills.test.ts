// The bundled skills ship as files, so these checks read the real folders: every listed skill has a
// well-formed SKILL.md, and every judgment.json follows the authoring format of judgment.md §3.1–§3.2
// with references that exist inside the skill folder. The `yaml` package is not a dependency, so
// frontmatter goes through the strict splitter in server/developer/bundledSkills.ts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import {
  BUNDLED_SKILLS_WITH_POLICY,
  BUNDLED_SKILL_NAMES,
  JUDGMENT_POLICY_FILE_NAME,
  SkillFrontmatterError,
  isBundledSkillName,
  judgmentPolicyPath,
  parseSkillFrontmatter,
  skillCapabilityId,
  skillFilePath,
} from "../../server/developer/bundledSkills";
import { repoRoot } from "../support/repoRoot";


const root = repoRoot();
const skillsRoot = path.join(root, "skills");

test("the ten Developer capabilities are listed once, in capability-id order", () => {
  assert.deepEqual(
    [...BUNDLED_SKILL_NAMES].sort(),
    ["abstraction-review", "adversarial-eval", "doctor", "model", "naming-judgment", "schedule", "signal", "sketch", "specify", "verify"],
  );
  const ids = BUNDLED_SKILL_NAMES.map((name) => skillCapabilityId(name));
  assert.deepEqual(ids, [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  assert.equal(new Set(ids).size, 10);
  assert.equal(skillCapabilityId("naming-judgment"), "skill:naming-judgment");
  assert.ok(isBundledSkillName("verify"));
  assert.ok(!isBundledSkillName("review"));
});

test("skills/ holds exactly the listed folders", () => {
  const folders = fs
    .readdirSync(skillsRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  // Besides the ten Developer skills, the five Router review-board reviewers (never frame owners).
  const reviewers = ["architect", "code-reviewer", "performance-specialist", "security-auditor", "test-engineer"];
  assert.deepEqual(folders, [...BUNDLED_SKILL_NAMES, ...reviewers].sort());
});

for (const name of BUNDLED_SKILL_NAMES) {
  test(`skill ${name}: SKILL.md frontmatter and body`, () => {
    const file = path.join(root, skillFilePath(name));
    assert.ok(fs.statSync(file).isFile(), `${file} is missing`);
    const skill = parseSkillFrontmatter(fs.readFileSync(file, "utf8"));
    assert.equal(skill.name, name);
    assert.equal(skill.name, path.basename(path.dirname(file)));
    assert.ok(skill.description.trim().length > 0);
    assert.ok(skill.description.length <= 1024, `${name} description has ${skill.description.length} chars`);
    assert.equal(skill.description, skill.description.trim());
    assert.deepEqual([...skill.fields.keys()].sort(), ["description", "name"]);
    // The method sections every bundled skill promises (see the brief in the skills' own headings).
    for (const heading of ["## The question it settles", "## Steps", "## What counts as evidence", "## What to return", "## When it does not apply"]) {
      assert.ok(skill.body.includes(`\n${heading}\n`), `${name} lacks "${heading}"`);
    }
  });
}

// Statement rules of judgment.md §3.1–§3.2: 1–64 unique items, each 1–2000 chars with a non-space,
// no surrounding whitespace, no two equal after lower-casing and collapsing whitespace.
function assertStatements(value: unknown, where: string): void {
  assert.ok(Array.isArray(value), `${where} must be an array`);
  const items = value as unknown[];
  assert.ok(items.length >= 1 && items.length <= 64, `${where} must have 1–64 items`);
  const keys = new Set<string>();
  for (const [index, item] of items.entries()) {
    assert.equal(typeof item, "string", `${where}[${index}] must be a string`);
    const text = item as string;
    assert.ok(text.length >= 1 && text.length <= 2000 && /\S/u.test(text), `${where}[${index}] length`);
    assert.equal(text, text.trim(), `${where}[${index}] has surrounding whitespace`);
    const key = text.toLowerCase().replace(/\s+/gu, " ");
    assert.ok(!keys.has(key), `${where}[${index}] duplicates another statement`);
    keys.add(key);
  }
}

function assertReferencePath(value: unknown, where: string, skillDir: string): void {
  assert.equal(typeof value, "string", `${where} must be a string`);
  const ref = value as string;
  assert.ok(ref.length >= 1 && ref.length <= 1024, `${where} length`);
  assert.equal(ref, ref.trim());
  assert.ok(!ref.includes("\\") && !ref.includes("\0") && !path.posix.isAbsolute(ref), `${where} must be relative POSIX`);
  assert.ok(ref.split("/").every((segment) => segment !== "" && segment !== "." && segment !== ".."), `${where} has bad segments`);
  assert.equal(path.posix.normalize(ref), ref);
  const target = path.join(skillDir, ...ref.split("/"));
  assert.ok(fs.lstatSync(target).isFile(), `${where} does not name a regular file`);
  const relative = path.relative(fs.realpathSync(skillDir), fs.realpathSync(target));
  assert.ok(relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative), `${where} escapes the skill folder`);
}

test("judgment.json exists exactly for the skills that declare a policy", () => {
  for (const name of BUNDLED_SKILL_NAMES) {
    const exists = fs.existsSync(path.join(skillsRoot, name, JUDGMENT_POLICY_FILE_NAME));
    assert.equal(exists, judgmentPolicyPath(name) !== undefined, `${name}: policy presence`);
  }
  assert.ok(BUNDLED_SKILLS_WITH_POLICY.length >= 6);
});

for (const name of BUNDLED_SKILLS_WITH_POLICY) {
  test(`skill ${name}: judgment.json follows authoring spec 0.1`, () => {
    const skillDir = path.join(skillsRoot, name);
    const source = fs.readFileSync(path.join(skillDir, JUDGMENT_POLICY_FILE_NAME), "utf8");
    assert.ok(Buffer.byteLength(source, "utf8") <= 128_000);
    const policy = JSON.parse(source) as unknown;
    assert.ok(typeof policy === "object" && policy !== null && !Array.isArray(policy));
    const record = policy as Record<string, unknown>;
    const keys = Object.keys(record).filter((key) => key !== "$schema").sort();
    assert.deepEqual(keys, ["references", "specVersion", "unless", "when"]);
    assert.equal(record.specVersion, "0.1");
    assertStatements(record.when, `${name}.when`);
    assertStatements(record.unless, `${name}.unless`);
    assert.ok(Array.isArray(record.references));
    const references = record.references as unknown[];
    assert.ok(references.length >= 1 && references.length <= 128);
    const paths = new Set<string>();
    for (const [index, entry] of references.entries()) {
      const where = `${name}.references[${index}]`;
      assert.ok(typeof entry === "object" && entry !== null && !Array.isArray(entry), `${where} must be an object`);
      const reference = entry as Record<string, unknown>;
      assert.deepEqual(Object.keys(reference).sort(), ["path", "when"], `${where} keys`);
      assertReferencePath(reference.path, `${where}.path`, skillDir);
      assert.ok(!paths.has(reference.path as string), `${where}.path is duplicated`);
      paths.add(reference.path as string);
      assertStatements(reference.when, `${where}.when`);
    }
  });
}

test("frontmatter parser accepts plain, single- and double-quoted values", () => {
  const parsed = parseSkillFrontmatter('---\nname: demo\ndescription: "Use it: when needed."\nlicense: \'it\'\'s MIT\'\n---\n# Body\n');
  assert.equal(parsed.name, "demo");
  assert.equal(parsed.description, "Use it: when needed.");
  assert.equal(parsed.fields.get("license"), "it's MIT");
  assert.equal(parsed.body, "# Body\n");
  assert.equal(parseSkillFrontmatter("---\r\nname: x\r\ndescription: Plain words.\r\n---").description, "Plain words.");
});

test("frontmatter parser rejects what it cannot read exactly", () => {
  const bad = [
    "name: x\ndescription: y\n", // no opening line
    "---\nname: x\ndescription: y\n", // not closed
    "---\nname: x\n---\n", // no description
    "---\ndescription: y\n---\n", // no name
    "---\nname: X_bad\ndescription: y\n---\n", // invalid skill name
    "---\nname: x\nname: x\ndescription: y\n---\n", // duplicate key
    "---\nname: x\ndescription: a: b\n---\n", // would be a nested map in YAML
    "---\nname: x\ndescription:\n  nested: y\n---\n", // nested value
    "---\nname: x\ndescription: >\n  folded\n---\n", // block scalar
    `---\nname: x\ndescription: "${"d".repeat(1025)}"\n---\n`, // too long
    '---\nname: x\ndescription: "unterminated\n---\n',
  ];
  for (const text of bad) assert.throws(() => parseSkillFrontmatter(text), SkillFrontmatterError, JSON.stringify(text));
});
