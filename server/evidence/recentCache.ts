// The newest evidence handles, kept beside the store (`.docket/evidence/recent.json`) so the prompt
// hooks can name them without loading the evidence store: reading segments means parsing records,
// which lives in the slow bundle a host would wait for on every prompt. Written by each capture;
// informational only (a conclusion checks every handle against the store itself), so a stale or
// missing cache costs at most one slow read, never a wrong nomination. Lean: no zod, no redaction.
import path from "node:path";
import { readContained, writeFileAtomicContained } from "../workspace/containedFs";

const CACHE_FORMAT = "docket/evidence-recent/v1";
const MAX_CACHE_BYTES = 64 * 1024;
const HANDLE = /^branch-result-[0-9a-f]{16}$/u;

export interface RecentHandle {
  readonly branchResultId: string;
  readonly toolName: string;
  readonly occurredAt: string;
  readonly truncated: boolean;
}

function cachePath(workspaceFolder: string): string {
  return path.join(path.resolve(workspaceFolder), ".docket", "evidence", "recent.json");
}

function isHandle(value: unknown): value is RecentHandle {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.branchResultId === "string" && HANDLE.test(item.branchResultId) && typeof item.toolName === "string" && item.toolName.length <= 200 && typeof item.occurredAt === "string" && typeof item.truncated === "boolean";
}

/** The cached handles; null when there is no usable cache (the caller reads the store). */
export function readRecentCache(workspaceFolder: string): RecentHandle[] | null {
  try {
    const bytes = readContained(path.resolve(workspaceFolder), cachePath(workspaceFolder), MAX_CACHE_BYTES);
    if (bytes === null) return null;
    const value = JSON.parse(bytes.toString("utf8")) as { format?: unknown; recent?: unknown };
    if (value.format !== CACHE_FORMAT || !Array.isArray(value.recent) || !value.recent.every(isHandle)) return null;
    return value.recent.map((item: RecentHandle) => ({ branchResultId: item.branchResultId, toolName: item.toolName, occurredAt: item.occurredAt, truncated: item.truncated }));
  } catch {
    return null;
  }
}

/** Best effort: a cache that cannot be written is read around next time. */
export function writeRecentCache(workspaceFolder: string, recent: readonly RecentHandle[]): void {
  try {
    const items = recent.map((item) => ({ branchResultId: item.branchResultId, toolName: item.toolName, occurredAt: item.occurredAt, truncated: item.truncated }));
    writeFileAtomicContained(path.resolve(workspaceFolder), cachePath(workspaceFolder), `${JSON.stringify({ format: CACHE_FORMAT, recent: items })}\n`, { mode: 0o600 });
  } catch {
    // The hooks fall back to reading the store.
  }
}
