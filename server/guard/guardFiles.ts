// The guard's small workspace files beside the ledger: the mode the hooks honour
// (`.docket/guard/mode.json`, written by `docket guard mode` and the `docket.guard.mode` setting)
// and the review boards of plans an agent made during a work scope
// (`.docket/guard/boards/<h24 of the scope>.json`, the latest verdict per plan basis). Reads are
// bounded and never follow links; a damaged file reads as the default (mode `notice`, no boards).
import { createHash } from "node:crypto";
import path from "node:path";
import fs from "node:fs";
import { ensureContainedDirectory, readContained, writeFileAtomicContained } from "../workspace/containedFs";
import { ensureDocketFolder } from "../workspace/docketFolder";
import { GUARD_MODES, type BoardFinding, type GuardMode } from "./guardDecision";
import { guardFolder } from "./reviewLocator";

const MODE_FORMAT = "docket/guard-mode/v1";

function modePath(workspaceFolder: string): string {
  return path.join(guardFolder(workspaceFolder), "mode.json");
}

export type ModeRead = { readonly mode: GuardMode; readonly problem: string | null };

/**
 * The guard folder's identity on this machine: a mode file records it when written, so a
 * repository that ships `.docket/guard/mode.json` (a clone makes new folders) cannot turn the
 * guard off. Only `off` needs it; a stricter mode from anywhere is harmless.
 */
function folderIdentity(workspaceFolder: string): string | null {
  try {
    const stat = fs.lstatSync(guardFolder(workspaceFolder), { bigint: true });
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : null;
  } catch {
    return null;
  }
}

export function readGuardMode(workspaceFolder: string): ModeRead {
  try {
    const bytes = readContained(workspaceFolder, modePath(workspaceFolder), 4096);
    if (bytes === null) return { mode: "notice", problem: null };
    const value = JSON.parse(bytes.toString("utf8")) as { format?: unknown; mode?: unknown; boundTo?: unknown };
    if (value.format !== MODE_FORMAT || !(GUARD_MODES as readonly unknown[]).includes(value.mode)) {
      return { mode: "notice", problem: `${modePath(workspaceFolder)} is not a guard mode file; using notice` };
    }
    if (value.mode === "off" && (typeof value.boundTo !== "string" || value.boundTo !== folderIdentity(workspaceFolder))) {
      return { mode: "notice", problem: `${modePath(workspaceFolder)} says off but was not written by Docket in this folder (a copied or shipped file); using notice` };
    }
    return { mode: value.mode as GuardMode, problem: null };
  } catch (error) {
    return { mode: "notice", problem: `the guard mode cannot be read (${error instanceof Error ? error.message : String(error)}); using notice` };
  }
}

export function writeGuardMode(workspaceFolder: string, mode: GuardMode): void {
  ensureDocketFolder(workspaceFolder);
  ensureContainedDirectory(workspaceFolder, guardFolder(workspaceFolder));
  writeFileAtomicContained(workspaceFolder, modePath(workspaceFolder), `${JSON.stringify({ format: MODE_FORMAT, mode, boundTo: folderIdentity(workspaceFolder) })}\n`);
}

export function boardsPath(workspaceFolder: string, workScopeId: string): string {
  const key = createHash("sha256").update(workScopeId, "utf8").digest("hex").slice(0, 24);
  return path.join(guardFolder(workspaceFolder), "boards", `${key}.json`);
}

export const BOARDS_FORMAT_ID = "docket/guard-boards/v1";

export interface BoardsFile {
  readonly format: typeof BOARDS_FORMAT_ID;
  readonly workScopeId: string;
  readonly plans: Record<string, { task: string; verdict: string; reasons: string[] }>;
}

export function readBoardsFile(workspaceFolder: string, workScopeId: string): BoardsFile | null {
  try {
    const bytes = readContained(workspaceFolder, boardsPath(workspaceFolder, workScopeId), 1024 * 1024);
    if (bytes === null) return null;
    const value = JSON.parse(bytes.toString("utf8")) as BoardsFile;
    if (value.format !== BOARDS_FORMAT_ID || value.workScopeId !== workScopeId || typeof value.plans !== "object" || value.plans === null) return null;
    return value;
  } catch {
    return null;
  }
}

/** The plans of this scope whose board says FIX_REQUIRED or BLOCKED, latest verdict per basis. */
export function readBoardFindings(workspaceFolder: string, workScopeId: string): BoardFinding[] {
  const file = readBoardsFile(workspaceFolder, workScopeId);
  if (file === null) return [];
  const findings: BoardFinding[] = [];
  for (const key of Object.keys(file.plans).sort()) {
    const plan = file.plans[key];
    if (plan === undefined || (plan.verdict !== "FIX_REQUIRED" && plan.verdict !== "BLOCKED")) continue;
    if (typeof plan.task !== "string" || !Array.isArray(plan.reasons)) continue;
    findings.push({ task: plan.task, verdict: plan.verdict, reasons: plan.reasons.filter((reason): reason is string => typeof reason === "string").slice(0, 10) });
  }
  return findings;
}
