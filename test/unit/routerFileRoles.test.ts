// A cold build decides the role of every listed file (server/router/snapshot/fileFacts.ts). The
// role test was made cheaper (node_modules asked once, extensions looked up from the last dot,
// rule-file names ruled out by length before they are hashed); it must decide exactly as the
// plain rules do, written out here as they read before.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { roleOf } from "../../server/router/snapshot/fileFacts";
import { SOURCE_EXTENSIONS } from "../../server/router/snapshot/importGraph";
import { manifestKind } from "../../server/router/snapshot/manifests";

function plainIsRuleFile(path: string): boolean {
  const slash = path.lastIndexOf("/");
  const name = slash === -1 ? path : path.slice(slash + 1);
  if (["AGENTS.md", "AGENT.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md"].includes(name)) return true;
  if ([".github/copilot-instructions.md", ".cursorrules", ".windsurfrules", ".clinerules"].includes(path)) return true;
  if (path.startsWith(".cursor/rules/") || path.includes("/.cursor/rules/")) return true;
  if (path.startsWith(".clinerules/")) return true;
  return path.startsWith(".github/instructions/") && name.endsWith(".instructions.md");
}

function plainRoleOf(path: string): unknown {
  const inNodeModules = path.startsWith("node_modules/") || path.includes("/node_modules/");
  const kind = inNodeModules ? null : manifestKind(path);
  if (kind !== null) return { role: "manifest", kind };
  if (plainIsRuleFile(path)) return { role: "rule" };
  if (!inNodeModules && SOURCE_EXTENSIONS.some((extension) => path.endsWith(extension))) return { role: "source" };
  return null;
}

const SEGMENTS = [
  "src", "a", "node_modules", ".cursor", "rules", ".github", "instructions", ".clinerules", "x.instructions.md",
  "copilot-instructions.md", ".cursorrules", ".windsurfrules", "AGENTS.md", "AGENT.md", "CLAUDE.md", "CLAUDE.local.md",
  "GEMINI.md", "agents.md", "README.md", "package.json", "go.mod", "Cargo.toml", "requirements-dev.txt", "requirements.txt",
  "a.csproj", ".csproj", "build.gradle.kts", "x.ts", "y.tsx", "z.d.ts", "a.mts", "b.cjs", "c.js.map", ".ts", "ts", "Makefile",
  "\u00e9.ts", "module7.ts", "x.TS", "..ts", "a.b.jsx",
];

test("the role of a path is decided exactly as the plain rules decide it (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 5 }), (segments) => {
      const path = segments.join("/");
      assert.deepEqual(roleOf(path), plainRoleOf(path), path);
    }),
    { numRuns: 5000, seed: 16 },
  );
  for (const segment of SEGMENTS) assert.deepEqual(roleOf(segment), plainRoleOf(segment), segment);
});
