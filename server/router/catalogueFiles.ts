// The catalogue's file-system adapter: finds the bundled skills (`<packageRoot>/skills/*/SKILL.md`)
// and the workspace's Agent Skills (`.agents/skills`, `.claude/skills`, `.github/skills`), reads
// their bytes within bounds, and hands them to the pure catalogueFromSources. Listing order never
// matters (names are sorted by code units) and no read error escapes: an unreadable skill becomes
// an unavailable entry.
import { countOf, agree } from "../plural";
import fs from "node:fs";
import path from "node:path";
import { compareCodeUnits } from "../ledger/canonicalJson";
import { SKILLS_DIRECTORY, SKILL_FILE_NAME } from "../developer/bundledSkills";
import {
  MAX_ROUTING_FILE_BYTES,
  MAX_SKILL_FILE_BYTES,
  MAX_WORKSPACE_SKILLS,
  ROUTING_SIDECAR_FILE_NAME,
  catalogueFromSources,
  type SkillSource,
  type SourceFile,
} from "./catalogue";
import { SkillProblemCodes } from "./frontmatter";
import type { Catalogue } from "./planSchema";

/** Where Agent Skills live in a workspace, in the order duplicates are decided (code-unit order). */
export const WORKSPACE_SKILL_ROOTS = Object.freeze([".agents/skills", ".claude/skills", ".github/skills"]);

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : error instanceof Error ? error.message : String(error);
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Sub-folders (symbolic links to folders included) that hold a SKILL.md file, sorted. */
function skillFolders(directory: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return [];
  }
  return names.filter((name) => isFile(path.join(directory, name, SKILL_FILE_NAME))).sort(compareCodeUnits);
}

function readBounded(file: string, limit: number): SourceFile {
  try {
    const size = fs.statSync(file).size;
    if (size > limit) return { skipped: "too-large", size };
    const bytes = fs.readFileSync(file);
    // The file may have grown between stat and read.
    return bytes.byteLength > limit ? { skipped: "too-large", size: bytes.byteLength } : new Uint8Array(bytes);
  } catch (error) {
    return { skipped: "unreadable", why: errorText(error) };
  }
}

function readSidecar(folder: string): SourceFile | null {
  const file = path.join(folder, ROUTING_SIDECAR_FILE_NAME);
  try {
    fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    return { skipped: "unreadable", why: errorText(error) };
  }
  return readBounded(file, MAX_ROUTING_FILE_BYTES);
}

function readSource(source: "bundled" | "workspace", relativeFolder: string, absoluteFolder: string): SkillSource {
  return {
    source,
    path: `${relativeFolder}/${SKILL_FILE_NAME}`,
    skill: readBounded(path.join(absoluteFolder, SKILL_FILE_NAME), MAX_SKILL_FILE_BYTES),
    routing: readSidecar(absoluteFolder),
  };
}

/** Reads every bundled and workspace skill; never throws for a skill's contents. */
export function loadCatalogue(workspaceRoot: string, packageRoot: string): Catalogue {
  const sources: SkillSource[] = [];
  const bundledRoot = path.join(packageRoot, SKILLS_DIRECTORY);
  for (const name of skillFolders(bundledRoot)) sources.push(readSource("bundled", `${SKILLS_DIRECTORY}/${name}`, path.join(bundledRoot, name)));

  const workspaceFolders: string[] = [];
  for (const root of WORKSPACE_SKILL_ROOTS) {
    for (const name of skillFolders(path.join(workspaceRoot, ...root.split("/")))) workspaceFolders.push(`${root}/${name}`);
  }
  workspaceFolders.sort(compareCodeUnits);
  for (const folder of workspaceFolders.slice(0, MAX_WORKSPACE_SKILLS)) {
    sources.push(readSource("workspace", folder, path.join(workspaceRoot, ...folder.split("/"))));
  }
  const skipped = workspaceFolders.slice(MAX_WORKSPACE_SKILLS);
  const firstSkipped = skipped[0];
  if (firstSkipped !== undefined) {
    // One entry says the limit was hit, so a huge skills folder cannot make the catalogue huge.
    sources.push({
      source: "workspace",
      path: `${firstSkipped}/${SKILL_FILE_NAME}`,
      skill: { skipped: "unreadable", why: "over the workspace skill limit" },
      routing: null,
      problem: {
        code: SkillProblemCodes.limitExceeded,
        message: `${countOf(skipped.length, "workspace skill")} ${agree(skipped.length, "was", "were")} not read: at most ${MAX_WORKSPACE_SKILLS} are read, in path order; the first one left out is ${firstSkipped}`,
      },
    });
  }
  return catalogueFromSources(sources);
}
