// Pure path rules shared by policy loading and the local reference reader.
import { relative } from "node:path";

/** True when candidate is root itself or lies below it (both absolute, same kind: lexical or real). */
export function isContained(root: string, candidate: string): boolean {
  const path = relative(root, candidate);
  return path === "" || (!path.startsWith("..") && !path.startsWith("/"));
}

/** Strict UTF-8 decoding; throws a TypeError on any invalid byte sequence. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

/** The only file-system operations the engine needs, injected so the logic stays testable. */
export interface JudgmentFileSystem {
  realpath(path: string): Promise<string>;
  /** Follows symlinks. */
  stat(path: string): Promise<{ readonly isFile: boolean; readonly size: number }>;
  readFile(path: string, signal?: AbortSignal): Promise<Uint8Array>;
}

/** Whether an error is the platform's "no such file" error. */
export function isMissingFileError(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { readonly code: unknown }).code === "ENOENT";
}
