// The digest of a sealed workspace file, now: the Stop check's "does the review still describe
// this file" and review_open's seal use the same read — a regular file inside the workspace,
// reached without any symbolic link, never read past the bound. Lean (the hook loads it).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { UnreadableFileError, UnsafePathError, openContained, readBounded } from "../workspace/containedFs";
import type { SealedSource } from "./guardEntry";

/** The largest workspace file sealed as a source. */
export const MAX_SOURCE_FILE_BYTES = 16 * 1024 * 1024;

export type FileDigest = { readonly kind: "file"; readonly sha256: string; readonly bytes: number } | { readonly kind: "unreadable"; readonly why: string };

/** The digest of a workspace file now; never follows a link, never reads past the bound. */
export function digestWorkspaceFile(workspaceFolder: string, relative: string): FileDigest {
  const absolute = path.join(workspaceFolder, ...relative.split("/"));
  let fd: number;
  try {
    fd = openContained(workspaceFolder, absolute, "r");
  } catch (error) {
    if (error instanceof UnsafePathError) return { kind: "unreadable", why: `${relative} is reached through a symbolic link` };
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return { kind: "unreadable", why: code === "ENOENT" ? `${relative} does not exist` : `${relative} cannot be read (${code})` };
  }
  try {
    const bytes = readBounded(fd, absolute, MAX_SOURCE_FILE_BYTES);
    return { kind: "file", sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
  } catch (error) {
    if (error instanceof UnreadableFileError) return { kind: "unreadable", why: `${relative} ${error.message.slice(absolute.length + 1)}` };
    return { kind: "unreadable", why: `${relative} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a sealed file no longer has its sealed bytes; null while it does. */
export function fileDrift(workspaceFolder: string, source: Extract<SealedSource, { kind: "file" }>): string | null {
  const digest = digestWorkspaceFile(workspaceFolder, source.path);
  if (digest.kind === "unreadable") return `${source.sourceId} (${source.path}): ${digest.why}`;
  return digest.sha256 === source.sha256 ? null : `${source.sourceId} (${source.path}) changed since it was sealed`;
}
