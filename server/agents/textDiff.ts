// The unified diff `docket connect --dry-run` prints for each host config file, from the `diff`
// package (the one the Notebook's terminal review uses): `--- from`, `+++ to` and `diff -u` hunks
// with three lines of context, without the Index/==== header lines and without a final newline.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

/** `diff -u`-style text between two file contents (without a trailing newline). */
export function unifiedDiff(before: string, after: string, fromLabel: string, toLabel: string): string {
  const patch = createTwoFilesPatch(fromLabel, toLabel, before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
  return patch.endsWith("\n") ? patch.slice(0, -1) : patch;
}
