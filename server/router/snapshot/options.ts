// The caps a snapshot works under. Every cap that is hit is said in `limits`, so a plan built on a
// partial snapshot can tell the person so instead of looking complete.
import type { SnapshotFs } from "./fsAdapter";

export interface SnapshotOptions {
  /** Files kept after sorting (default 100000); the rest are counted and said in `limits`. */
  readonly maxFiles?: number;
  /**
   * Files a listing may produce before it stops (default 4 × maxFiles). Beyond this the walk or
   * `git ls-files` is abandoned, so a huge tree cannot make the snapshot hang.
   */
  readonly maxListed?: number;
  /** TypeScript/JavaScript sources parsed for relative imports, first by code-unit order (default 20000). */
  readonly maxImportFiles?: number;
  /** Bytes of each source read when looking for imports (default 65536). */
  readonly maxImportBytesPerFile?: number;
  /** Largest manifest parsed (default 1 MiB); larger ones are skipped and said. */
  readonly maxManifestBytes?: number;
  /** Largest rule file hashed (default 4 MiB). */
  readonly maxRuleFileBytes?: number;
  /** Hot-path hints kept (default 2000). */
  readonly maxHotPaths?: number;
  /** Entries kept in `skipped` (default 200). */
  readonly maxSkipped?: number;
  /** "auto" (default) uses Git when the root is in a work tree; "walk" never runs Git. */
  readonly lister?: "auto" | "walk";
  /** File-system access for the walk and the reads (tests inject listing order through it). */
  readonly fsAdapter?: SnapshotFs;
}

export interface ResolvedLimits {
  readonly maxFiles: number;
  readonly maxListed: number;
  readonly maxImportFiles: number;
  readonly maxImportBytesPerFile: number;
  readonly maxManifestBytes: number;
  readonly maxRuleFileBytes: number;
  readonly maxHotPaths: number;
  readonly maxSkipped: number;
}

export const DEFAULT_MAX_FILES = 100_000;

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

export function resolveLimits(options: SnapshotOptions = {}): ResolvedLimits {
  const maxFiles = positive(options.maxFiles, DEFAULT_MAX_FILES);
  return {
    maxFiles,
    maxListed: Math.max(positive(options.maxListed, maxFiles * 4), maxFiles),
    maxImportFiles: positive(options.maxImportFiles, 20_000),
    maxImportBytesPerFile: positive(options.maxImportBytesPerFile, 64 * 1024),
    maxManifestBytes: positive(options.maxManifestBytes, 1024 * 1024),
    maxRuleFileBytes: positive(options.maxRuleFileBytes, 4 * 1024 * 1024),
    maxHotPaths: positive(options.maxHotPaths, 2000),
    maxSkipped: positive(options.maxSkipped, 200),
  };
}
