// The catalogue read from real folders (server/router/catalogueFiles.ts): the real bundled skills
// from the repository plus a temporary workspace's Agent Skills in .claude/.github/.agents, with
// broken, duplicate, symlinked, oversized and over-the-limit skills reported, never thrown.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { BUNDLED_SKILL_NAMES } from "../../server/developer/bundledSkills";
import { MAX_SKILL_FILE_BYTES, MAX_WORKSPACE_SKILLS } from "../../server/router/catalogue";
import { loadCatalogue } from "../../server/router/catalogueFiles";
import { compose } from "../../server/router/composer";
import { Catalogue, CompositionStage, ReviewerId, type CatalogueEntry } from "../../server/router/planSchema";
import { tempFolder } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const root = repoRoot();
const REVIEWERS = ReviewerId.options;

function write(base: string, relative: string, content: string | Uint8Array): void {
  const file = path.join(base, ...relative.split("/"));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function skill(name: string, extra = ""): string {
  return `---\nname: ${name}\ndescription: Workspace skill ${name}.\n${extra}---\n# ${name}\n`;
}

function bundledOnly(catalogue: Catalogue): CatalogueEntry[] {
  return catalogue.entries.filter((entry) => entry.source === "bundled");
}

test("the bundled catalogue: fifteen available skills, each with routing metadata from its sidecar", () => {
  const catalogue = Catalogue.parse(loadCatalogue(tempFolder("docket-catalogue-empty-"), root));
  const bundled = bundledOnly(catalogue);
  assert.deepEqual(bundled.map((entry) => entry.name), [...BUNDLED_SKILL_NAMES, ...REVIEWERS].sort());
  for (const entry of bundled) {
    assert.equal(entry.status, "available", `${entry.name}: ${entry.problem?.message ?? ""}`);
    assert.equal(entry.path, `skills/${entry.name}/SKILL.md`);
    assert.ok(entry.metadata !== null, `${entry.name} has routing metadata`);
    const isReviewer = (REVIEWERS as readonly string[]).includes(entry.name);
    assert.equal(entry.metadata.reviewer, isReviewer ? entry.name : null, entry.name);
    if (isReviewer) assert.equal(entry.metadata.role, "review");
    for (const relation of entry.metadata.relations) {
      assert.ok(bundled.some((other) => other.name === relation.skill), `${entry.name} relates to a bundled skill: ${relation.skill}`);
    }
  }
  // The Developer owner catalogue stays the ten.
  assert.equal(BUNDLED_SKILL_NAMES.length, 10);
});

test("each reviewer skill states its seat's question, severities, citations and independence", () => {
  const asks: Record<string, string> = {
    "code-reviewer": "What does this code do that it does not say it does?",
    "security-auditor": "Who can reach this, and what can they make it do?",
    "test-engineer": "What would fail if this broke, and is there such a test?",
    architect: "Does this fit the project as it is?",
    "performance-specialist": "What does this cost, and what does the cost grow with?",
  };
  for (const reviewer of REVIEWERS) {
    const text = fs.readFileSync(path.join(root, "skills", reviewer, "SKILL.md"), "utf8");
    assert.ok(text.includes(`\n${asks[reviewer]}\n`), `${reviewer} asks its question`);
    for (const word of ["**blocking**", "**major**", "**minor**", "**info**", "citations", "basisSha256", "review_report", "cannot read the other seats' reports"]) {
      assert.ok(text.includes(word), `${reviewer} mentions ${word}`);
    }
  }
});

test("the bundled catalogue has no cycle, conflict or missing requirement when every skill is selected", () => {
  const catalogue = loadCatalogue(tempFolder("docket-catalogue-all-"), root);
  const candidates = bundledOnly(catalogue).map((entry) => ({
    skill: entry.name,
    source: entry.source,
    path: entry.path,
    role: entry.metadata?.role ?? "work",
    strength: "declared" as const,
    score: 1,
    reasons: [{ kind: "router-rule" as const, rule: "every bundled skill" }],
  }));
  const composition = CompositionStage.parse(compose({ candidates, setAside: [], fit: { outcome: "fits", reasons: [{ kind: "router-rule", rule: "test" }] }, excluded: [], unavailable: [] }, catalogue, { mode: "implement" }));
  assert.deepEqual(composition.issues, []);
  assert.ok(composition.executable);
  assert.equal(composition.steps.length, 15);
  const group = (name: string): number => composition.steps.find((step) => step.skill === name)?.group ?? -1;
  // verify judges the work, so it comes after it.
  for (const work of ["doctor", "specify", "model", "sketch"]) assert.ok(group(work) < group("verify"), `${work} before verify`);
});

test("workspace Agent Skills are read beside the bundled ones; broken ones are unavailable", () => {
  const workspace = tempFolder("docket-catalogue-ws-");
  write(workspace, ".claude/skills/x/SKILL.md", skill("x", "routing:\n  signals: [webhook]\n"));
  write(workspace, ".github/skills/y/SKILL.md", skill("y"));
  write(workspace, ".github/skills/y/routing.yaml", "role: context\ndomains: [fix]\n");
  write(workspace, ".agents/skills/z/SKILL.md", "---\nname: z\nname: z\ndescription: dup keys\n---\n");
  write(workspace, ".agents/skills/verify/SKILL.md", skill("verify"));
  write(workspace, ".claude/skills/latin1/SKILL.md", Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]));
  write(workspace, ".claude/skills/huge/SKILL.md", `${skill("huge")}${"x".repeat(MAX_SKILL_FILE_BYTES)}`);
  write(workspace, ".claude/skills/empty-folder/README.md", "no SKILL.md here");
  write(workspace, ".claude/skills/not-a-folder", "a file");
  write(workspace, "outside/linked/SKILL.md", skill("linked"));
  fs.symlinkSync(path.join(workspace, "outside", "linked"), path.join(workspace, ".github", "skills", "linked"), "dir");
  write(workspace, "skills/ignored/SKILL.md", skill("ignored")); // not a workspace skill location

  const catalogue = Catalogue.parse(loadCatalogue(workspace, root));
  const ws = catalogue.entries.filter((entry) => entry.source === "workspace");
  assert.deepEqual(
    ws.map((entry) => [entry.name, entry.path, entry.status, entry.problem?.code ?? null]),
    [
      ["huge", ".claude/skills/huge/SKILL.md", "unavailable", "skill-too-large"],
      ["latin1", ".claude/skills/latin1/SKILL.md", "unavailable", "skill-not-utf8"],
      ["linked", ".github/skills/linked/SKILL.md", "available", null],
      ["verify", ".agents/skills/verify/SKILL.md", "unavailable", "skill-duplicate-name"],
      ["x", ".claude/skills/x/SKILL.md", "available", null],
      ["y", ".github/skills/y/SKILL.md", "available", null],
      ["z", ".agents/skills/z/SKILL.md", "unavailable", "skill-frontmatter-invalid"],
    ],
  );
  assert.deepEqual(ws.find((entry) => entry.name === "x")?.metadata?.signals, ["webhook"]);
  assert.equal(ws.find((entry) => entry.name === "y")?.metadata?.role, "context");
  assert.equal(catalogue.entries.find((entry) => entry.name === "verify" && entry.source === "bundled")?.status, "available");
  // Entries are sorted by name, then source, then path.
  const keys = catalogue.entries.map((entry) => `${entry.name}\u0000${entry.source}\u0000${entry.path}`);
  assert.deepEqual(keys, [...keys].sort());
  // Reading twice gives the same catalogue, and editing the sidecar changes only y's revision.
  assert.deepEqual(loadCatalogue(workspace, root), catalogue);
  write(workspace, ".github/skills/y/routing.yaml", "role: context\ndomains: [fix, add]\n");
  const after = loadCatalogue(workspace, root);
  const changed = after.entries.filter((entry, index) => entry.revisionSha256 !== catalogue.entries[index]?.revisionSha256).map((entry) => entry.name);
  assert.deepEqual(changed, ["y"]);
});

test("a workspace without skill folders, and a missing package root, give a catalogue without crashing", () => {
  const workspace = tempFolder("docket-catalogue-none-");
  assert.deepEqual(loadCatalogue(workspace, path.join(workspace, "no-package")), { entries: [] });
});

test("more workspace skills than the limit: the first ones by path are read, the rest said once", () => {
  const workspace = tempFolder("docket-catalogue-many-");
  const total = MAX_WORKSPACE_SKILLS + 3;
  for (let index = 0; index < total; index += 1) {
    const name = `s${String(index).padStart(4, "0")}`;
    write(workspace, `.claude/skills/${name}/SKILL.md`, skill(name));
  }
  const catalogue = Catalogue.parse(loadCatalogue(workspace, path.join(workspace, "no-package")));
  assert.equal(catalogue.entries.length, MAX_WORKSPACE_SKILLS + 1);
  const limit = catalogue.entries.filter((entry) => entry.problem?.code === "skill-limit-exceeded");
  assert.equal(limit.length, 1);
  assert.equal(limit[0]?.path, `.claude/skills/s${String(MAX_WORKSPACE_SKILLS).padStart(4, "0")}/SKILL.md`);
  assert.match(limit[0]?.problem?.message ?? "", /^3 workspace skills were not read/u);
});
