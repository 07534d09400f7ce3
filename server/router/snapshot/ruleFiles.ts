// Workspace rule files: instructions an agent working here is expected to follow. They go into
// the context pack by hash, so a plan says exactly which revision of the rules it was built on.

/** Rule files recognised by file name at any depth (agents read the nearest one). */
const ANYWHERE = new Set(["AGENTS.md", "AGENT.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md"]);

/** Rule files recognised only at the workspace root. */
const AT_ROOT = new Set([".github/copilot-instructions.md", ".cursorrules", ".windsurfrules", ".clinerules"]);

const ANYWHERE_LENGTHS: ReadonlySet<number> = new Set([...ANYWHERE].map((name) => name.length));
const AT_ROOT_LENGTHS: ReadonlySet<number> = new Set([...AT_ROOT].map((path) => path.length));

export function isRuleFile(path: string): boolean {
  const slash = path.lastIndexOf("/");
  const name = slash === -1 ? path : path.slice(slash + 1);
  // By length first: most paths are ruled out without hashing them (a cold build asks this of
  // every listed file).
  if (ANYWHERE_LENGTHS.has(name.length) && ANYWHERE.has(name)) return true;
  if (AT_ROOT_LENGTHS.has(path.length) && AT_ROOT.has(path)) return true;
  // Folders of rules: every file inside counts (Cursor allows nested .cursor/rules folders).
  if (path.startsWith(".cursor/rules/") || path.includes("/.cursor/rules/")) return true;
  if (path.startsWith(".clinerules/")) return true;
  return path.startsWith(".github/instructions/") && name.endsWith(".instructions.md");
}
