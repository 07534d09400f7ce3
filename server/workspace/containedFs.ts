// Writes that stay inside a folder Docket owns. A repository can commit symbolic links, so a
// `.docket` that is a link, a dangling `.docket/ledger.jsonl` link or a linked `evidence/` folder
// would otherwise carry Docket's writes to wherever the link points (someone's authorized_keys).
// Every write under the workspace's `.docket/` (and under a Notebook) goes through these helpers:
// each folder from the root down must be a real folder, never a link, and files are opened with
// O_NOFOLLOW where the platform has it, so the last component cannot be a link either.
//
// What this cannot stop: a process that swaps a folder for a link between the check and the open
// (a local attacker racing Docket). The root itself may be a link: it is the user's own folder.
import fs from "node:fs";
import path from "node:path";
import { fsyncDirectory } from "../ledger/durableFs";

/** 0 where the platform has no O_NOFOLLOW (Windows); the lstat walk still refuses links there. */
export const O_NOFOLLOW: number = fs.constants.O_NOFOLLOW ?? 0;

export class UnsafePathError extends Error {
  readonly code = "unsafe-path";
  constructor(
    readonly target: string,
    message: string,
  ) {
    super(message);
    this.name = "UnsafePathError";
  }
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw error;
  }
}

/** The components of `target` below `root`; refuses a target outside it. */
function componentsBelow(root: string, target: string): string[] {
  const relative = path.relative(path.resolve(root), path.resolve(target));
  if (relative === "") return [];
  if (path.isAbsolute(relative) || relative === ".." || relative.startsWith(`..${path.sep}`)) {
    throw new UnsafePathError(target, `Docket writes only inside ${root}; ${target} is outside it.`);
  }
  return relative.split(path.sep);
}

/** A file where a folder must be is an ordinary I/O failure (ENOTDIR), not an attack. */
function notAFolder(file: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`ENOTDIR: ${file} is not a folder`);
  error.code = "ENOTDIR";
  error.path = file;
  return error;
}

function linkRefusal(file: string): UnsafePathError {
  return new UnsafePathError(file, `${file} is a symbolic link; Docket does not write through links (remove it, or replace it with a real folder or file).`);
}

/**
 * Checks that every existing component of `target` below `root` is a real folder (the last one may
 * be a file) and none is a symbolic link. Components that do not exist yet are fine.
 */
export function assertContained(root: string, target: string): void {
  const parts = componentsBelow(root, target);
  let current = path.resolve(root);
  for (let index = 0; index < parts.length; index += 1) {
    current = path.join(current, parts[index] as string);
    const stat = lstatOrNull(current);
    if (stat === null) return;
    if (stat.isSymbolicLink()) throw linkRefusal(current);
    if (index < parts.length - 1 && !stat.isDirectory()) throw notAFolder(current);
  }
}

/** `mkdir -p` from `root` down to `directory`, refusing any component that is a link or a file. */
export function ensureContainedDirectory(root: string, directory: string, mode = 0o755): void {
  const parts = componentsBelow(root, directory);
  let current = path.resolve(root);
  for (const part of parts) {
    current = path.join(current, part);
    let stat = lstatOrNull(current);
    if (stat === null) {
      try {
        fs.mkdirSync(current, { mode });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      stat = fs.lstatSync(current);
    }
    if (stat.isSymbolicLink()) throw linkRefusal(current);
    if (!stat.isDirectory()) throw notAFolder(current);
  }
}

const FLAG_BITS: Readonly<Record<ContainedFlags, number>> = {
  r: fs.constants.O_RDONLY,
  "r+": fs.constants.O_RDWR,
  a: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND,
  w: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC,
  wx: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL,
};
export type ContainedFlags = "r" | "r+" | "a" | "w" | "wx";

/**
 * Opens `file` (below `root`) without following a link at any component. ELOOP from O_NOFOLLOW
 * becomes the same coded refusal as a link found by the walk.
 */
export function openContained(root: string, file: string, flags: ContainedFlags, mode = 0o644): number {
  assertContained(root, file);
  try {
    return fs.openSync(file, FLAG_BITS[flags] | O_NOFOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw linkRefusal(file);
    throw error;
  }
}

/** A file that is not a regular file or is larger than its reader's bound (code `EFBIG`). */
export class UnreadableFileError extends Error {
  readonly code = "EFBIG";
  constructor(file: string, why: string) {
    super(`${file} ${why}`);
    this.name = "UnreadableFileError";
  }
}

/**
 * Reads an open file whole, refusing anything but a regular file of at most `maxBytes`: a
 * repository can ship a huge state file, or a link to a device that never ends (/dev/zero), where
 * an unbounded read would take all memory before any timeout could fire.
 */
export function readBounded(fd: number, file: string, maxBytes: number): Buffer {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) throw new UnreadableFileError(file, "is not a regular file");
  if (stat.size > maxBytes) throw new UnreadableFileError(file, `has ${stat.size} bytes, more than the ${maxBytes} Docket reads there`);
  // One byte over the bound tells a file that grew since the fstat.
  const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
  let read = 0;
  for (;;) {
    const n = fs.readSync(fd, buffer, read, buffer.length - read, read);
    if (n === 0) break;
    read += n;
    if (read > maxBytes) throw new UnreadableFileError(file, `has more than the ${maxBytes} bytes Docket reads there`);
    if (read === buffer.length) break;
  }
  return buffer.subarray(0, read);
}

/**
 * Reads a whole file below `root` without following links; null when it does not exist. Anything
 * but a regular file of at most `maxBytes` throws UnreadableFileError.
 */
export function readContained(root: string, file: string, maxBytes: number): Buffer | null {
  let fd: number;
  try {
    fd = openContained(root, file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return readBounded(fd, file, maxBytes);
  } finally {
    fs.closeSync(fd);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
}

export interface AtomicWriteOptions {
  readonly mode?: number;
  /** fsync the file before the rename and the folder after it. */
  readonly durable?: boolean;
}

/**
 * Replaces `file` with `data` all at once: a fresh temporary file beside it (O_EXCL, no link
 * followed), then a rename. A rename replaces a link at `file` instead of writing through it.
 */
export function writeFileAtomicContained(root: string, file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const directory = path.dirname(file);
  ensureContainedDirectory(root, directory);
  const temporary = path.join(directory, `.${path.basename(file)}.${process.pid}.${Math.floor(Math.random() * 0x7fffffff).toString(36)}.tmp`);
  const fd = openContained(root, temporary, "wx", options.mode ?? 0o644);
  try {
    try {
      writeAll(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
      if (options.durable === true) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  if (options.durable === true) fsyncDirectory(directory);
}

/** Appends `data` to `file` below `root` (created when missing), no link followed; optionally durable. */
export function appendContained(root: string, file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  ensureContainedDirectory(root, path.dirname(file));
  const fd = openContained(root, file, "a", options.mode ?? 0o644);
  try {
    writeAll(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    if (options.durable === true) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Temporary names this module and older Docket versions used: `[.]<name>.<pid>[.<random>].tmp`. */
const TEMPORARY_NAME = /^.+\.(\d{1,10})(?:\.[0-9a-z]{1,16})?\.tmp$/u;

/**
 * Removes temporary files a killed writer left in `directory` (not recursive): only names of the
 * temporary pattern whose process is gone. Never throws; returns how many were removed.
 */
export function removeStaleTemporaries(root: string, directory: string, processAlive: (pid: number) => boolean): number {
  let removed = 0;
  try {
    assertContained(root, directory);
    for (const name of fs.readdirSync(directory)) {
      const match = TEMPORARY_NAME.exec(name);
      if (match === null) continue;
      const pid = Number(match[1]);
      if (pid === process.pid || processAlive(pid)) continue;
      const file = path.join(directory, name);
      if (!fs.lstatSync(file).isFile()) continue;
      fs.rmSync(file, { force: true });
      removed += 1;
    }
  } catch {
    // Best effort: a leftover temporary file costs disk, never correctness.
  }
  return removed;
}
