// What a file lister hands to the snapshot: unsorted relative POSIX paths plus what it had to say.
export interface SkippedEntry {
  readonly path: string;
  readonly why: string;
}

export interface Listing {
  readonly source: "git" | "walk";
  readonly files: readonly string[];
  readonly skipped: readonly SkippedEntry[];
  readonly limits: readonly string[];
}
