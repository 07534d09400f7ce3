// Walk adapter for folders outside Git: honours every .gitignore on the way down (nested ones
// included, deeper rules winning as in Git), skips `.git`, and never follows a symbolic link (a
// link is listed as a file, as Git lists it, but never entered). Each directory's entries are
// sorted by code units before use, so the walk order — and the point where the `maxListed` cap
// stops it — does not depend on the order the file system returns entries in.
import * as path from "node:path";
import ignore, { type Ignore } from "ignore";
import { compareCodeUnits } from "../../ledger/canonicalJson";
import type { SnapshotFs } from "./fsAdapter";
import type { Listing, SkippedEntry } from "./listing";
import { decodeUtf8, describeBytes } from "./utf8";

const MAX_GITIGNORE_BYTES = 1024 * 1024;

interface IgnoreFrame {
  /** Directory of the .gitignore, relative to the root ("" for the root). */
  readonly base: string;
  readonly matcher: Ignore;
}

interface Pending {
  readonly relative: string;
  readonly frames: readonly IgnoreFrame[];
}

function join(base: string, name: string): string {
  return base === "" ? name : `${base}/${name}`;
}

/** Deepest .gitignore with an opinion wins, as in Git (a deeper `!pattern` re-includes). */
function isIgnored(frames: readonly IgnoreFrame[], relative: string, directory: boolean): boolean {
  for (let index = frames.length - 1; index >= 0; index -= 1) {
    const frame = frames[index] as IgnoreFrame;
    const local = frame.base === "" ? relative : relative.slice(frame.base.length + 1);
    try {
      const result = frame.matcher.test(directory ? `${local}/` : local);
      if (result.ignored) return true;
      if (result.unignored) return false;
    } catch {
      // A name the matcher cannot take (it rejects some odd paths) is simply not ignored.
    }
  }
  return false;
}

/** What the walk looked at, for the Router index's watch (server/router/snapshot/listingWatch.ts). */
export interface WalkTrace {
  /** Folders entered, root-relative ("" is the root). */
  readonly entered: string[];
  /** `.gitignore` files whose rules were read. */
  readonly ignoreFiles: string[];
}

export async function walkFiles(root: string, fs: SnapshotFs, maxListed: number, trace?: WalkTrace): Promise<Listing> {
  const files: string[] = [];
  const skipped: SkippedEntry[] = [];
  const limits: string[] = [];
  const stack: Pending[] = [{ relative: "", frames: [] }];
  while (stack.length > 0) {
    const current = stack.pop() as Pending;
    const absolute = current.relative === "" ? root : path.join(root, ...current.relative.split("/"));
    let raw: readonly { name: Buffer; kind: string }[];
    try {
      raw = await fs.readdir(absolute);
    } catch (error) {
      if (current.relative === "") throw error;
      skipped.push({ path: current.relative, why: `directory could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})` });
      continue;
    }
    const entries: { name: string; kind: string }[] = [];
    for (const entry of raw) {
      const name = decodeUtf8(entry.name);
      if (name === null) skipped.push({ path: join(current.relative, describeBytes(entry.name)), why: "file name is not valid UTF-8" });
      else entries.push({ name, kind: entry.kind });
    }
    entries.sort((left, right) => compareCodeUnits(left.name, right.name));
    trace?.entered.push(current.relative);

    let frames = current.frames;
    if (entries.some((entry) => entry.name === ".gitignore" && entry.kind === "file")) {
      const ignoreFile = join(current.relative, ".gitignore");
      trace?.ignoreFiles.push(ignoreFile);
      try {
        const bytes = await fs.readPrefix(path.join(absolute, ".gitignore"), MAX_GITIGNORE_BYTES);
        const text = decodeUtf8(bytes);
        if (text === null) skipped.push({ path: ignoreFile, why: "not valid UTF-8; its rules were not applied" });
        else frames = [...frames, { base: current.relative, matcher: ignore().add(text) }];
      } catch (error) {
        skipped.push({ path: ignoreFile, why: `could not be read (${(error as NodeJS.ErrnoException).code ?? "error"}); its rules were not applied` });
      }
    }

    const subdirectories: string[] = [];
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const relative = join(current.relative, entry.name);
      if (entry.kind === "directory") {
        if (!isIgnored(frames, relative, true)) subdirectories.push(relative);
      } else if (entry.kind === "file" || entry.kind === "symlink") {
        if (isIgnored(frames, relative, false)) continue;
        if (files.length >= maxListed) {
          limits.push(`walk: stopped after listing ${maxListed} files`);
          return { source: "walk", files, skipped, limits };
        }
        files.push(relative);
      }
      // Sockets, FIFOs and devices are not workspace files (Git does not list them either).
    }
    // Reverse so the stack pops subdirectories in code-unit order.
    for (let index = subdirectories.length - 1; index >= 0; index -= 1) {
      stack.push({ relative: subdirectories[index] as string, frames });
    }
  }
  return { source: "walk", files, skipped, limits };
}
