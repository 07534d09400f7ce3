// The Router catalogue built from bytes (server/router/catalogue.ts): frontmatter and routing
// metadata parsing, defaults, revision hashes, duplicate policy, and malformed skills reported as
// unavailable entries with codes — never a throw.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_SKILL_FILE_BYTES, catalogueFromSources, skillRevisionSha256, type SkillSource } from "../../server/router/catalogue";
import { Catalogue, type CatalogueEntry } from "../../server/router/planSchema";

function skillText(name: string, extra = "", description = "Does a thing for tests."): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n# ${name}\n\nBody.\n`;
}

function source(path: string, skill: string | Uint8Array, routing: string | null = null, origin: "bundled" | "workspace" = "workspace"): SkillSource {
  return {
    source: origin,
    path,
    skill: typeof skill === "string" ? Buffer.from(skill, "utf8") : skill,
    routing: routing === null ? null : Buffer.from(routing, "utf8"),
  };
}

function only(sources: readonly SkillSource[]): CatalogueEntry {
  const catalogue = Catalogue.parse(catalogueFromSources(sources));
  assert.equal(catalogue.entries.length, 1);
  return catalogue.entries[0] as CatalogueEntry;
}

function problemOf(skill: string | Uint8Array, routing: string | null = null, path = ".claude/skills/demo/SKILL.md"): { code: string; message: string } {
  const entry = only([source(path, skill, routing)]);
  assert.equal(entry.status, "unavailable", JSON.stringify(entry));
  assert.equal(entry.metadata === null || entry.problem?.code === "skill-duplicate-name", true);
  assert.ok(entry.problem !== null);
  return entry.problem;
}

test("an empty catalogue is empty", () => {
  assert.deepEqual(catalogueFromSources([]), { entries: [] });
});

test("a skill without routing metadata is available with metadata null", () => {
  const entry = only([source(".claude/skills/demo/SKILL.md", skillText("demo"))]);
  assert.equal(entry.status, "available");
  assert.equal(entry.name, "demo");
  assert.equal(entry.description, "Does a thing for tests.");
  assert.equal(entry.metadata, null);
  assert.equal(entry.problem, null);
  assert.match(entry.revisionSha256, /^[a-f0-9]{64}$/u);
});

test("frontmatter routing fills defaults for every omitted field", () => {
  const entry = only([source(".github/skills/demo/SKILL.md", skillText("demo", "routing:\n  signals: [webhook, rate limit]\n"))]);
  assert.equal(entry.status, "available", JSON.stringify(entry.problem));
  assert.deepEqual(entry.metadata, {
    role: "work",
    domains: [],
    signals: ["webhook", "rate limit"],
    entityKinds: [],
    technologies: [],
    riskTags: [],
    modes: [],
    reviewer: null,
    relations: [],
    excludedBy: [],
  });
  assert.equal(only([source(".github/skills/demo/SKILL.md", skillText("demo", "routing: {}\n"))]).metadata?.role, "work");
});

test("a routing.yaml sidecar is read, and both files make the revision", () => {
  const text = skillText("demo");
  const sidecar = "role: context\ndomains: [fix]\nrelations:\n  - { type: REQUIRES, skill: other }\n";
  const entry = only([source(".agents/skills/demo/SKILL.md", text, sidecar)]);
  assert.equal(entry.status, "available", JSON.stringify(entry.problem));
  assert.equal(entry.metadata?.role, "context");
  assert.deepEqual(entry.metadata?.relations, [{ type: "REQUIRES", skill: "other" }]);
  const plain = only([source(".agents/skills/demo/SKILL.md", text)]);
  assert.notEqual(entry.revisionSha256, plain.revisionSha256);
  const edited = only([source(".agents/skills/demo/SKILL.md", text, `${sidecar}# edited\n`)]);
  assert.notEqual(entry.revisionSha256, edited.revisionSha256);
  // Domain separation: the same bytes split differently between the two files hash differently.
  const a = Buffer.from("ab"), b = Buffer.from("c");
  assert.notEqual(skillRevisionSha256(a, b), skillRevisionSha256(Buffer.from("a"), Buffer.from("bc")));
  assert.notEqual(skillRevisionSha256(Buffer.from("abc"), null), skillRevisionSha256(Buffer.from("abc"), Buffer.from("")));
});

test("malformed skills become unavailable entries with codes, never throws", () => {
  const cases: Array<[string, string | Uint8Array, string | null, string, RegExp]> = [
    ["invalid YAML", "---\nname: demo\ndescription: [unclosed\n---\n", null, "skill-frontmatter-invalid", /frontmatter/u],
    ["duplicate keys", "---\nname: demo\nname: demo\ndescription: x\n---\n", null, "skill-frontmatter-invalid", /unique/u],
    ["no opening line", "name: demo\ndescription: x\n", null, "skill-frontmatter-invalid", /start/u],
    ["not closed", "---\nname: demo\ndescription: x\n", null, "skill-frontmatter-invalid", /closed/u],
    ["not a mapping", "---\n- demo\n---\n", null, "skill-frontmatter-invalid", /mapping/u],
    ["aliases", "---\nname: &n demo\ndescription: *n\n---\n", null, "skill-frontmatter-invalid", /aliases/u],
    ["missing name", "---\ndescription: x\n---\n", null, "skill-name-invalid", /name is required/u],
    ["name not a string", "---\nname: 12\ndescription: x\n---\n", null, "skill-name-invalid", /string/u],
    ["bad name", skillText("Demo_Skill"), null, "skill-name-invalid", /lowercase/u],
    ["double hyphen", skillText("de--mo"), null, "skill-name-invalid", /single hyphens/u],
    ["name is not the folder", skillText("other"), null, "skill-name-invalid", /folder "demo"/u],
    ["missing description", "---\nname: demo\n---\n", null, "skill-description-invalid", /description/u],
    ["long description", skillText("demo", "", "d".repeat(1025)), null, "skill-description-invalid", /1025/u],
    ["unknown routing field", skillText("demo", "routing:\n  colour: blue\n"), null, "skill-routing-invalid", /routing\.colour/u],
    ["bad relation type", skillText("demo", "routing:\n  relations: [{ type: NEEDS, skill: x }]\n"), null, "skill-routing-invalid", /routing\.relations\[0\]\.type/u],
    ["bad relation target", skillText("demo", "routing:\n  relations: [{ type: REQUIRES, skill: Not Valid }]\n"), null, "skill-routing-invalid", /relations\[0\]\.skill/u],
    ["self relation", skillText("demo", "routing:\n  relations: [{ type: PRECEDES, skill: demo }]\n"), null, "skill-routing-invalid", /itself/u],
    ["unknown domain", skillText("demo", "routing:\n  domains: [fixx]\n"), null, "skill-routing-invalid", /routing\.domains\[0\]: unknown domain "fixx"/u],
    ["bad role", skillText("demo", "routing:\n  role: boss\n"), null, "skill-routing-invalid", /routing\.role/u],
    ["list as string", skillText("demo", "routing:\n  signals: webhook\n"), null, "skill-routing-invalid", /routing\.signals/u],
    ["empty word", skillText("demo", "routing:\n  signals: [' ']\n"), null, "skill-routing-invalid", /routing\.signals\[0\]/u],
    ["reviewer with work role", skillText("demo", "routing:\n  reviewer: architect\n"), null, "skill-routing-invalid", /role/u],
    ["routing not a mapping", skillText("demo", "routing: [a]\n"), null, "skill-routing-invalid", /mapping/u],
    ["both routing places", skillText("demo", "routing: {}\n"), "role: work\n", "skill-routing-invalid", /both/u],
    ["sidecar YAML error", skillText("demo"), "role: work\nrole: context\n", "skill-routing-invalid", /routing\.yaml/u],
    ["sidecar unknown field", skillText("demo"), "roles: [work]\n", "skill-routing-invalid", /routing\.yaml\.roles/u],
    ["non-UTF-8 SKILL.md", Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]), null, "skill-not-utf8", /SKILL\.md/u],
    ["too large", `${skillText("demo")}${"x".repeat(MAX_SKILL_FILE_BYTES)}`, null, "skill-too-large", /limit/u],
  ];
  for (const [label, skill, routing, code, message] of cases) {
    const problem = problemOf(skill, routing);
    assert.equal(problem.code, code, `${label}: ${problem.message}`);
    assert.match(problem.message, message, label);
  }
  const badSidecar = only([{ source: "workspace", path: ".claude/skills/demo/SKILL.md", skill: Buffer.from(skillText("demo")), routing: Buffer.from([0xc3, 0x28]) }]);
  assert.equal(badSidecar.problem?.code, "skill-not-utf8");
  const skipped = only([{ source: "workspace", path: ".claude/skills/demo/SKILL.md", skill: { skipped: "too-large", size: 999999 }, routing: null }]);
  assert.equal(skipped.problem?.code, "skill-too-large");
  const unreadable = only([{ source: "workspace", path: ".claude/skills/demo/SKILL.md", skill: { skipped: "unreadable", why: "EACCES" }, routing: null }]);
  assert.equal(unreadable.problem?.code, "skill-unreadable");
});

test("other frontmatter keys, BOM and CRLF are accepted", () => {
  const text = "\uFEFF---\r\nname: demo\r\ndescription: >\r\n  Folded text\r\n  over lines.\r\nlicense: MIT\r\nallowed-tools: [Read, Grep]\r\nmetadata:\r\n  version: 2\r\n---\r\nBody\r\n";
  const entry = only([source(".claude/skills/demo/SKILL.md", text)]);
  assert.equal(entry.status, "available", JSON.stringify(entry.problem));
  assert.equal(entry.description, "Folded text over lines.\n");
});

test("duplicate names: bundled wins over workspace, then the first workspace path", () => {
  const catalogue = Catalogue.parse(
    catalogueFromSources([
      source(".github/skills/verify/SKILL.md", skillText("verify")),
      source("skills/verify/SKILL.md", skillText("verify"), null, "bundled"),
      source(".github/skills/demo/SKILL.md", skillText("demo")),
      source(".claude/skills/demo/SKILL.md", skillText("demo")),
      source(".agents/skills/demo/SKILL.md", "not a skill"),
    ]),
  );
  const summary = catalogue.entries.map((entry) => [entry.name, entry.source, entry.path, entry.status, entry.problem?.code ?? null]);
  assert.deepEqual(summary, [
    ["demo", "workspace", ".agents/skills/demo/SKILL.md", "unavailable", "skill-frontmatter-invalid"],
    ["demo", "workspace", ".claude/skills/demo/SKILL.md", "available", null],
    ["demo", "workspace", ".github/skills/demo/SKILL.md", "unavailable", "skill-duplicate-name"],
    ["verify", "bundled", "skills/verify/SKILL.md", "available", null],
    ["verify", "workspace", ".github/skills/verify/SKILL.md", "unavailable", "skill-duplicate-name"],
  ]);
  assert.match(catalogue.entries[4]?.problem?.message ?? "", /bundled skill skills\/verify\/SKILL\.md/u);
});

test("the catalogue does not depend on the order of its sources", () => {
  const sources = [
    source(".claude/skills/b/SKILL.md", skillText("b", "routing: { domains: [fix] }\n")),
    source("skills/a/SKILL.md", skillText("a"), "role: review\n", "bundled"),
    source(".github/skills/b/SKILL.md", skillText("b")),
    source(".agents/skills/c/SKILL.md", Buffer.from([0xff])),
  ];
  const expected = catalogueFromSources(sources);
  for (const order of [[3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]]) {
    assert.deepEqual(catalogueFromSources(order.map((index) => sources[index] as SkillSource)), expected);
  }
  assert.deepEqual(
    expected.entries.map((entry) => entry.path),
    ["skills/a/SKILL.md", ".claude/skills/b/SKILL.md", ".github/skills/b/SKILL.md", ".agents/skills/c/SKILL.md"],
  );
});
