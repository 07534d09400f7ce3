// Every change the publication transaction and its recovery make to a Notebook, in one place:
// each goes through server/workspace/containedFs.ts with the Notebook root as the containment root
// (so a symlinked `records/`, `.observer/`, transaction folder, record or temporary file can never
// carry a write elsewhere), and each is one counted step of the crash seam (crashSeam.ts).
import fs from "node:fs";
import path from "node:path";
import { assertContained, openContained, readContained } from "../workspace/containedFs";
import type { StepCounter } from "./crashSeam";

/**
 * Records, before images, journals and manifests are far smaller (a record is at most 1 MiB, a
 * batch 200 records); the bound only keeps a huge file from taking all memory.
 */
const MAX_NOTEBOOK_FILE_BYTES = 256 * 1024 * 1024;

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
}

export class NotebookWriter {
  constructor(
    readonly root: string,
    private readonly steps: StepCounter,
  ) {}

  private label(file: string): string {
    return path.relative(this.root, file).split(path.sep).join("/");
  }

  /** A new folder (never recursive): EEXIST when it is there, which is what the publication lock relies on. */
  makeDirectory(directory: string): void {
    assertContained(this.root, directory);
    this.steps.step(`mkdir ${this.label(directory)}`);
    fs.mkdirSync(directory);
  }

  /**
   * A new file with exactly these bytes (EEXIST when the name is taken). Creating and filling it
   * are two steps: a crash between them leaves an empty file, which every reader must survive.
   */
  createFile(file: string, bytes: Uint8Array | string): void {
    this.steps.step(`create ${this.label(file)}`);
    const fd = openContained(this.root, file, "wx");
    try {
      this.steps.step(`write ${this.label(file)}`);
      writeAll(fd, typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** A second name for a file; fails if `to` exists, so it never replaces anything. */
  link(from: string, to: string): void {
    assertContained(this.root, from);
    assertContained(this.root, to);
    this.steps.step(`link ${this.label(from)} -> ${this.label(to)}`);
    fs.linkSync(from, to);
  }

  /** Atomic replace: `to` holds its old bytes or the new ones, never a mix; a link at `to` is replaced, not followed. */
  rename(from: string, to: string): void {
    assertContained(this.root, from);
    assertContained(this.root, to);
    this.steps.step(`rename ${this.label(from)} -> ${this.label(to)}`);
    fs.renameSync(from, to);
  }

  unlink(file: string): void {
    assertContained(this.root, file);
    this.steps.step(`unlink ${this.label(file)}`);
    fs.unlinkSync(file);
  }

  /** Removes a folder only if it is empty (ENOTEMPTY otherwise): the check and the removal are one operation. */
  removeEmptyDirectory(directory: string): void {
    assertContained(this.root, directory);
    this.steps.step(`rmdir ${this.label(directory)}`);
    fs.rmdirSync(directory);
  }

  /** Removes a folder and everything in it; links inside are removed, never followed. */
  removeTree(directory: string): void {
    assertContained(this.root, directory);
    this.steps.step(`rm -r ${this.label(directory)}`);
    fs.rmSync(directory, { recursive: true, force: true });
  }

  /** Reads a file below the root without following a link; null when absent. */
  read(file: string): Buffer | null {
    return readContained(this.root, file, MAX_NOTEBOOK_FILE_BYTES);
  }

  /** A step that changes nothing on disk but is a crash point of its own (e.g. before a receipt is written elsewhere). */
  checkpoint(label: string): void {
    this.steps.step(label);
  }
}
