// The Notebook on disk (observer.md §5.1): `<root>/.observer/notebook.json` plus `<root>/records/`
// holding only regular `*.md` files. This adapter is the one place that touches those folders for
// reading and setup; everything it returns is checked, so callers never see a symlinked folder, a
// record that points outside the Notebook, or a half-written manifest.
import { countOf, agree } from "../plural";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { assertContained, ensureContainedDirectory, openContained, UnsafePathError } from "../workspace/containedFs";
import { sortByNotebookText } from "./referenceOrder";
import {
  ACTIVE_TRANSACTION_PATH,
  failNotebook,
  MANIFEST_FILENAME,
  newManifest,
  notebookIssue,
  NotebookIssueError,
  OBSERVER_DIRECTORY,
  parseManifestBytes,
  RECORDS_DIRECTORY,
  serializeManifest,
  type NotebookIssue,
  type NotebookLanguage,
  type NotebookManifest,
  type NotebookResult,
} from "./manifestFormat";
import type { ParsedRecord } from "./markdownProfile";
import { validateRecordSet, type RecordSetValidation } from "./recordSet";
import { publicationTemporaryTarget } from "./publicationTemporary";

export type { RecordSetValidation };
export type NotebookRecord = ParsedRecord;
export type RecordType = ParsedRecord["type"];

export interface NotebookFile {
  /** Relative to the Notebook root with `/` separators, e.g. `records/memo-….md`. */
  readonly path: string;
  readonly absolutePath: string;
  /** Lowercase hex SHA-256 of the exact bytes on disk. */
  readonly sha256: string;
  readonly bytes: Uint8Array;
}

export interface InventoryEntry extends NotebookFile {
  readonly recordId: string;
  readonly record: NotebookRecord;
}

export interface NotebookLocation {
  /** Absolute and canonical (realpath): the identity a proposal binds. */
  readonly root: string;
  readonly observerDir: string;
  readonly recordsDir: string;
  readonly manifestPath: string;
}

/** A Notebook's layout, manifest and record bytes, read and checked, its records not yet validated. */
export type NotebookFiles = Omit<NotebookSnapshot, "validation">;

/** A Notebook whose layout and manifest are sound; its records may still be invalid. */
export interface NotebookSnapshot extends NotebookLocation {
  readonly manifest: NotebookManifest;
  /** Sorted by path (code units). */
  readonly files: readonly NotebookFile[];
  readonly validation: RecordSetValidation;
  /** `.observer/transactions/active` is present: a publication is running or was interrupted. */
  readonly activeTransaction: boolean;
  /**
   * Publication temporaries in `records/` (`.<name>.md.<uuid>.tmp`) left by an interrupted
   * publication; only tolerated (and not counted as records) while its lock is present.
   */
  readonly leftovers: readonly string[];
}

/** A Notebook whose every record passed Phase A and Phase B. */
export interface OpenNotebook extends NotebookLocation {
  readonly manifest: NotebookManifest;
  /** Sorted by path (code units). */
  readonly inventory: readonly InventoryEntry[];
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function ioFailure(at: string, doing: string, error: unknown): never {
  return failNotebook("notebook.io", at, `${doing}: ${error instanceof Error ? error.message : String(error)}`);
}

function lstatOrNull(at: string): fs.Stats | null {
  try {
    return fs.lstatSync(at);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    return ioFailure(at, "cannot inspect", error);
  }
}

function requireAbsolute(root: string): void {
  if (!path.isAbsolute(root)) failNotebook("notebook.path-unsupported", root, "a Notebook root must be an absolute path");
}

function canonicalRoot(root: string): string {
  requireAbsolute(root);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") failNotebook("notebook.path-missing", root, "there is no folder here");
    return ioFailure(root, "cannot inspect the Notebook folder", error);
  }
  if (!stat.isDirectory()) failNotebook("notebook.path-not-directory", root, "the Notebook path is not a folder");
  try {
    return fs.realpathSync.native(root);
  } catch (error) {
    return ioFailure(root, "cannot resolve the Notebook folder", error);
  }
}

/** `.observer` and `records` must be real folders: a symlink could lead reads and writes outside the Notebook. */
function requireRealDirectory(at: string, name: string): void {
  const stat = lstatOrNull(at);
  if (stat === null) failNotebook("notebook.layout-invalid", at, `the Notebook has no ${name}/ folder (is this a Notebook? docket notebook setup creates one)`);
  if (stat.isSymbolicLink()) failNotebook("notebook.layout-invalid", at, `${name}/ is a symbolic link; it must be a real folder inside the Notebook`);
  if (!stat.isDirectory()) failNotebook("notebook.layout-invalid", at, `${name} must be a folder`);
}

/**
 * The file behind `fd`, whose size fstat just gave, read as readFileSync(fd) reads it (up to that
 * size; to the end when it reported 0) without the second fstat readFileSync would make.
 */
function readOpenFile(fd: number, size: number): Buffer {
  if (size === 0) return fs.readFileSync(fd);
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const read = fs.readSync(fd, buffer, length, size - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

/**
 * Reads files into one buffer that it reuses and grows as needed, so a reader that keeps only each
 * file's hash holds one record's bytes at a time instead of every record's (validate with its
 * cache, notebookValidation.ts). What `read` returns is valid only until the next call.
 */
class ReusedBuffer {
  private buffer = Buffer.allocUnsafe(64 * 1024);

  /** The file behind `fd` as readOpenFile reads it, into the reused buffer. */
  readonly read = (fd: number, size: number): Buffer => {
    if (size === 0) return fs.readFileSync(fd);
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2));
    let length = 0;
    while (length < size) {
      const read = fs.readSync(fd, this.buffer, length, size - length, null);
      if (read === 0) break;
      length += read;
    }
    return this.buffer.subarray(0, length);
  };
}

/** Opens without following a final symlink, then re-checks the opened file, so a swap between list and read is caught. */
function readRegularFile(at: string, onNotRegular: () => never, readOpen: (fd: number, size: number) => Buffer = readOpenFile): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(at, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if (errnoOf(error) === "ELOOP") return onNotRegular();
    return ioFailure(at, "cannot read", error);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return onNotRegular();
    return readOpen(fd, stat.size);
  } catch (error) {
    if (error instanceof NotebookIssueError) throw error;
    return ioFailure(at, "cannot read", error);
  } finally {
    fs.closeSync(fd);
  }
}

function readManifest(manifestPath: string): NotebookManifest {
  const stat = lstatOrNull(manifestPath);
  if (stat === null) failNotebook("notebook.manifest-missing", manifestPath, "the Notebook has no .observer/notebook.json manifest");
  const notRegular = (): never => failNotebook("notebook.manifest-invalid", manifestPath, "the Notebook manifest must be a regular file, not a link or folder");
  if (!stat.isFile()) notRegular();
  const decoded = parseManifestBytes(readRegularFile(manifestPath, notRegular), manifestPath);
  if (!decoded.ok) throw new NotebookIssueError(decoded.issue);
  return decoded.value;
}

function notRegularRecord(absolutePath: string, name: string, isLink: boolean): never {
  return failNotebook(
    "notebook.layout-invalid",
    absolutePath,
    isLink ? `records/${name} is a symbolic link; records must be regular files inside the Notebook` : `records/ may hold only regular *.md files; records/${name} is not one`,
  );
}

/** Lists records/ in path order and hands each record file (checked to be a regular `*.md`) to `read`. */
function eachRecordFile<File>(recordsDir: string, tolerateLeftovers: boolean, read: (absolutePath: string, path: string, notRegular: () => never) => File): { files: File[]; leftovers: string[] } {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(recordsDir, { withFileTypes: true });
  } catch (error) {
    return ioFailure(recordsDir, "cannot list the records", error);
  }
  const sorted = sortByNotebookText(entries, (entry) => entry.name);
  const leftovers: string[] = [];
  const files: File[] = [];
  // recordsDir is path.join's output (locate: normalised, no trailing separator) and an entry's name
  // is never empty, `.` or `..` and holds no separator, so path.join would only append it: done
  // directly, as it is done for every record of every read.
  const prefix = `${recordsDir}${path.sep}`;
  for (const entry of sorted) {
    const absolutePath = prefix + entry.name;
    // An interrupted publication's temporary is recovery's to remove, not a broken layout to repair.
    if (tolerateLeftovers && entry.isFile() && publicationTemporaryTarget(entry.name) !== null) {
      leftovers.push(entry.name);
      continue;
    }
    const notRegular = (): never => notRegularRecord(absolutePath, entry.name, entry.isSymbolicLink());
    if (!entry.isFile() || !entry.name.endsWith(".md")) notRegular();
    files.push(read(absolutePath, `${RECORDS_DIRECTORY}/${entry.name}`, notRegular));
  }
  return { files, leftovers };
}

function readRecordFiles(recordsDir: string, tolerateLeftovers: boolean): { files: NotebookFile[]; leftovers: string[] } {
  return eachRecordFile(recordsDir, tolerateLeftovers, (absolutePath, filePath, notRegular) => {
    const bytes = readRegularFile(absolutePath, notRegular);
    return { path: filePath, absolutePath, sha256: sha256Hex(bytes), bytes };
  });
}

function locate(root: string): NotebookLocation {
  const canonical = canonicalRoot(root);
  const observerDir = path.join(canonical, OBSERVER_DIRECTORY);
  return { root: canonical, observerDir, recordsDir: path.join(canonical, RECORDS_DIRECTORY), manifestPath: path.join(observerDir, MANIFEST_FILENAME) };
}

/** Layout, manifest and the publication lock, checked before any record is read. */
function layoutOrThrow(root: string): Omit<NotebookFiles, "files" | "leftovers"> {
  const location = locate(root);
  requireRealDirectory(location.observerDir, OBSERVER_DIRECTORY);
  requireRealDirectory(location.recordsDir, RECORDS_DIRECTORY);
  const manifest = readManifest(location.manifestPath);
  return { ...location, manifest, activeTransaction: hasActiveTransaction(location.root) };
}

/** `tolerateLeftovers`: for reports (status, validate), which must say "recovery required" rather than fail on what a crash left. */
function filesOrThrow(root: string, tolerateLeftovers: boolean): NotebookFiles {
  const layout = layoutOrThrow(root);
  const { files, leftovers } = readRecordFiles(layout.recordsDir, tolerateLeftovers && layout.activeTransaction);
  return { ...layout, files, leftovers };
}

function snapshotOrThrow(root: string, tolerateLeftovers: boolean): NotebookSnapshot {
  const read = filesOrThrow(root, tolerateLeftovers);
  return { ...read, validation: validateRecordSet(read.files) };
}

function inventoryOf(snapshot: NotebookSnapshot): InventoryEntry[] {
  const byPath = new Map(snapshot.validation.parsed.map((record) => [record.path, record]));
  return snapshot.files.map((file) => {
    const record = byPath.get(file.path);
    if (record === undefined) failNotebook("notebook.records-invalid", file.absolutePath, "a valid record set is missing one of its files");
    return { ...file, recordId: record.recordId, record };
  });
}

function openOrThrow(root: string): OpenNotebook {
  const snapshot = snapshotOrThrow(root, false);
  if (!snapshot.validation.valid) {
    throw new NotebookIssueError(
      notebookIssue("notebook.records-invalid", snapshot.recordsDir, `${countOf(snapshot.validation.diagnostics.length, "record diagnostic")}; run docket notebook validate`, snapshot.validation.diagnostics),
    );
  }
  const { files: _files, validation: _validation, activeTransaction: _active, leftovers: _leftovers, ...rest } = snapshot;
  return { ...rest, inventory: inventoryOf(snapshot) };
}

function attempt<Value>(run: () => Value, at: string): NotebookResult<Value> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof NotebookIssueError) return { ok: false, issue: error.issue };
    // A link where the layout needs a real folder or file: the layout code, as for any other link found there.
    if (error instanceof UnsafePathError) return { ok: false, issue: notebookIssue("notebook.layout-invalid", error.target, error.message) };
    return { ok: false, issue: notebookIssue("notebook.io", at, error instanceof Error ? error.message : String(error)) };
  }
}

/**
 * Layout, manifest and record bytes, with the record-set verdict but without failing on it (for
 * `validate`). While a publication lock is present its temporaries in `records/` are set aside
 * (`leftovers`) instead of making the layout invalid: the answer is then "recovery required".
 */
export function readNotebook(root: string): NotebookResult<NotebookSnapshot> {
  return attempt(() => snapshotOrThrow(root, true), root);
}

/** A record file as the hashing reader (readNotebookHashed) keeps it: where it is and its bytes' SHA-256, not the bytes. */
export type HashedRecordFile = Omit<NotebookFile, "bytes">;

/** A Notebook's layout, manifest and record hashes, its records not yet validated and their bytes not kept. */
export type NotebookListing = Omit<NotebookFiles, "files"> & { readonly files: readonly HashedRecordFile[] };

/** Sees each record file's bytes once, while they are read; the bytes are lent only for the call. */
export type RecordVisitor = (file: HashedRecordFile, bytes: Uint8Array) => void;

/**
 * What readNotebook reads and checks (leftovers set aside while the lock is present), each record
 * file read into one reused buffer and hashed, so only the hashes stay (docs/performance.md,
 * "Notebook validation cache"). `prepare` runs after the layout and manifest passed and before the
 * first record is read; the visitor it returns, if any, sees each record's bytes while they are in
 * the buffer.
 */
export function readNotebookHashed(root: string, prepare: (location: NotebookLocation) => RecordVisitor | null): NotebookResult<NotebookListing> {
  return attempt(() => {
    const layout = layoutOrThrow(root);
    const visit = prepare(layout);
    const buffer = new ReusedBuffer();
    const { files, leftovers } = eachRecordFile(layout.recordsDir, layout.activeTransaction, (absolutePath, filePath, notRegular): HashedRecordFile => {
      const bytes = readRegularFile(absolutePath, notRegular, buffer.read);
      const file = { path: filePath, absolutePath, sha256: sha256Hex(bytes) };
      visit?.(file, bytes);
      return file;
    });
    return { ...layout, files, leftovers };
  }, root);
}

/**
 * A record file the hashing reader listed, read again (same checks, never through a link) for its
 * bytes. They may differ from the first read's if the file changed in between; the caller compares hashes.
 */
export function rereadRecordFile(file: HashedRecordFile): NotebookResult<Uint8Array> {
  const name = file.path.slice(RECORDS_DIRECTORY.length + 1);
  return attempt(() => readRegularFile(file.absolutePath, () => notRegularRecord(file.absolutePath, name, lstatOrNull(file.absolutePath)?.isSymbolicLink() ?? false)), file.absolutePath);
}

/** A usable Notebook: sound layout and manifest and every record valid (else `notebook.records-invalid`). */
export function openNotebook(root: string): NotebookResult<OpenNotebook> {
  return attempt(() => openOrThrow(root), root);
}

/**
 * Why publication or recovery must not touch this notebook's files, or null: `.observer/`,
 * `records/` and (when present) `.observer/transactions/` must be real folders, so nothing staged,
 * hashed or removed is reached through a link to somewhere else.
 */
export function transactionLayoutProblem(root: string): string | null {
  const transactions = path.dirname(path.join(root, ...ACTIVE_TRANSACTION_PATH.split("/")));
  for (const [at, required] of [
    [path.join(root, OBSERVER_DIRECTORY), true],
    [path.join(root, RECORDS_DIRECTORY), true],
    [transactions, false],
  ] as const) {
    const stat = lstatOrNull(at);
    if (stat === null ? required : stat.isSymbolicLink() || !stat.isDirectory()) return `${at} must be a real folder inside the Notebook`;
  }
  return null;
}

/** The publication lock is present: a publication is running or was interrupted and needs recovery. */
export function hasActiveTransaction(root: string): boolean {
  return lstatOrNull(path.join(root, ...ACTIVE_TRANSACTION_PATH.split("/"))) !== null;
}

// ---- setup ----

export interface NotebookSetupPlan {
  /** Absolute and canonical, also for a folder that does not exist yet (its nearest existing ancestor is resolved). */
  readonly root: string;
  /** What setup would create, relative to the root (`.` is the root itself), in creation order. Empty = already set up. */
  readonly create: readonly string[];
  readonly existingManifest: NotebookManifest | null;
  readonly language: NotebookLanguage;
}

export interface NotebookSetupOutcome {
  readonly notebook: OpenNotebook;
  readonly created: readonly string[];
}

function canonicalTarget(root: string): { readonly root: string; readonly exists: boolean } {
  requireAbsolute(root);
  const missing: string[] = [];
  let probe = path.resolve(root);
  for (;;) {
    let stat: fs.Stats | null;
    try {
      stat = fs.statSync(probe);
    } catch (error) {
      // ENOTDIR: a parent is a file; walking up reports that parent as not a folder.
      if (errnoOf(error) !== "ENOENT" && errnoOf(error) !== "ENOTDIR") return ioFailure(probe, "cannot inspect", error);
      stat = null;
    }
    if (stat !== null) {
      if (!stat.isDirectory()) failNotebook("notebook.path-not-directory", probe, missing.length === 0 ? "the Notebook path is not a folder" : "a parent of the Notebook path is not a folder");
      const resolved = canonicalRoot(probe);
      return { root: path.join(resolved, ...missing.reverse()), exists: missing.length === 0 };
    }
    const parent = path.dirname(probe);
    if (parent === probe) failNotebook("notebook.path-missing", root, "no part of this path exists");
    missing.push(path.basename(probe));
    probe = parent;
  }
}

function planOrThrow(root: string, language: NotebookLanguage): NotebookSetupPlan {
  const target = canonicalTarget(root);
  const create: string[] = target.exists ? [] : ["."];
  const observerDir = path.join(target.root, OBSERVER_DIRECTORY);
  const recordsDir = path.join(target.root, RECORDS_DIRECTORY);
  const manifestPath = path.join(observerDir, MANIFEST_FILENAME);
  let existingManifest: NotebookManifest | null = null;
  if (target.exists && lstatOrNull(observerDir) !== null) requireRealDirectory(observerDir, OBSERVER_DIRECTORY);
  else create.push(OBSERVER_DIRECTORY);
  const hasRecords = target.exists && lstatOrNull(recordsDir) !== null;
  if (hasRecords) requireRealDirectory(recordsDir, RECORDS_DIRECTORY);
  else create.push(RECORDS_DIRECTORY);
  if (!create.includes(OBSERVER_DIRECTORY) && lstatOrNull(manifestPath) !== null) {
    existingManifest = readManifest(manifestPath);
    if (existingManifest.default_language !== language) {
      failNotebook("notebook.language-conflict", manifestPath, `this Notebook's language is ${existingManifest.default_language}, not ${language}; setup never changes it`);
    }
  } else {
    create.push(`${OBSERVER_DIRECTORY}/${MANIFEST_FILENAME}`);
  }
  // Adopting a folder that already has records: they must be valid before anything is written.
  if (hasRecords) {
    const validation = validateRecordSet(readRecordFiles(recordsDir, false).files);
    if (!validation.valid) {
      throw new NotebookIssueError(
        notebookIssue("notebook.records-invalid", recordsDir, `the existing records are not a valid Notebook (${countOf(validation.diagnostics.length, "diagnostic")}); nothing was written`, validation.diagnostics),
      );
    }
  }
  return { root: target.root, create, existingManifest, language };
}

/** What `setupNotebook` would do, without writing anything. */
export function planNotebookSetup(root: string, language: NotebookLanguage): NotebookResult<NotebookSetupPlan> {
  return attempt(() => planOrThrow(root, language), root);
}

/** A folder of the layout, created inside the Notebook root without following a link (containedFs). */
function makeLayoutDirectory(root: string, at: string, name: string): void {
  try {
    ensureContainedDirectory(root, at);
  } catch (error) {
    if (error instanceof UnsafePathError) failNotebook("notebook.layout-invalid", at, `${name}/ is a symbolic link; it must be a real folder inside the Notebook`);
    ioFailure(at, `cannot create ${name}`, error);
  }
  requireRealDirectory(at, name);
}

/** Exclusive create through a hard link, so the manifest appears whole or not at all and never replaces one a concurrent setup wrote. */
function createManifest(root: string, manifestPath: string, manifest: NotebookManifest): boolean {
  const temporary = path.join(path.dirname(manifestPath), `.${MANIFEST_FILENAME}.${randomUUID()}.tmp`);
  try {
    const fd = openContained(root, temporary, "wx");
    try {
      fs.writeFileSync(fd, serializeManifest(manifest), "utf8");
    } finally {
      fs.closeSync(fd);
    }
    try {
      assertContained(root, manifestPath);
      fs.linkSync(temporary, manifestPath);
      return true;
    } catch (error) {
      if (errnoOf(error) === "EEXIST") return false;
      throw error;
    }
  } catch (error) {
    if (error instanceof UnsafePathError) throw error;
    return ioFailure(manifestPath, "cannot create the Notebook manifest", error);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

function setupOrThrow(root: string, language: NotebookLanguage): NotebookSetupOutcome {
  const plan = planOrThrow(root, language);
  const created: string[] = [];
  if (plan.create.includes(".")) {
    // The folder the person chose, and its parents: theirs, outside anything Docket owns.
    try {
      fs.mkdirSync(plan.root, { recursive: true });
    } catch (error) {
      ioFailure(plan.root, "cannot create the Notebook folder", error);
    }
    created.push(".");
  }
  const location = locate(plan.root);
  if (plan.create.includes(OBSERVER_DIRECTORY)) {
    makeLayoutDirectory(location.root, location.observerDir, OBSERVER_DIRECTORY);
    created.push(OBSERVER_DIRECTORY);
  }
  if (plan.create.includes(RECORDS_DIRECTORY)) {
    makeLayoutDirectory(location.root, location.recordsDir, RECORDS_DIRECTORY);
    created.push(RECORDS_DIRECTORY);
  }
  if (plan.existingManifest === null) {
    if (createManifest(location.root, location.manifestPath, newManifest(language))) {
      created.push(`${OBSERVER_DIRECTORY}/${MANIFEST_FILENAME}`);
    } else {
      // Another setup won the race: accept its manifest only if it agrees on the language.
      const winner = readManifest(location.manifestPath);
      if (winner.default_language !== language) {
        failNotebook("notebook.language-conflict", location.manifestPath, `this Notebook's language is ${winner.default_language}, not ${language}; setup never changes it`);
      }
    }
  }
  return { notebook: openOrThrow(location.root), created };
}

/**
 * Creates whatever of the layout is missing and the manifest; never rewrites an existing file, so a
 * second setup with the same language leaves every byte as it was, and a different language is
 * refused (`notebook.language-conflict`). Problems found before writing leave the disk untouched.
 */
export function setupNotebook(root: string, language: NotebookLanguage): NotebookResult<NotebookSetupOutcome> {
  return attempt(() => setupOrThrow(root, language), root);
}

// ---- status ----

export type NotebookHealth = "healthy" | "unhealthy" | "recovery-required";

export interface NotebookStatus {
  readonly root: string;
  readonly notebookId: string;
  readonly language: NotebookLanguage;
  readonly health: NotebookHealth;
  /** Number of files under records/. */
  readonly records: number;
  /** Records that parsed (Phase A), per type. */
  readonly types: Readonly<Record<RecordType, number>>;
  readonly activeTransaction: boolean;
  /** Why the Notebook is not healthy, most urgent first: the active transaction, then invalid records (with diagnostics). */
  readonly issues: readonly NotebookIssue[];
}

/** Health never mutates anything; only a Notebook that cannot be read at all is a failure. */
export function notebookStatus(root: string): NotebookResult<NotebookStatus> {
  const result = statusOf(root);
  if (result.ok || result.issue.code !== "notebook.layout-invalid") return result;
  // Something else is wrong with the layout too; still say that a publication was interrupted.
  const interrupted = attempt(() => hasActiveTransaction(canonicalRoot(root)), root);
  if (!interrupted.ok || !interrupted.value) return result;
  return { ok: false, issue: { ...result.issue, message: `${result.issue.message}; a publication was interrupted (.observer/transactions/active exists): recovery needed` } };
}

function statusOf(root: string): NotebookResult<NotebookStatus> {
  return attempt(() => {
    const snapshot = snapshotOrThrow(root, true);
    const types: Record<RecordType, number> = { source: 0, inquiry: 0, memo: 0, zettel: 0 };
    for (const record of snapshot.validation.parsed) types[record.type] += 1;
    const issues: NotebookIssue[] = [];
    if (snapshot.activeTransaction) {
      const leftovers = snapshot.leftovers.length === 0 ? "" : `; ${countOf(snapshot.leftovers.length, "publication temporary file")} in records/ ${agree(snapshot.leftovers.length, "is", "are")} left for recovery to remove`;
      issues.push(
        notebookIssue(
          "publication-transaction.active",
          path.join(snapshot.root, ...ACTIVE_TRANSACTION_PATH.split("/")),
          `a publication is in progress or was interrupted (.observer/transactions/active exists); recovery must settle or roll it back before the next publication${leftovers}`,
        ),
      );
    }
    if (!snapshot.validation.valid) {
      issues.push(notebookIssue("notebook.records-invalid", snapshot.recordsDir, `${countOf(snapshot.validation.diagnostics.length, "record diagnostic")}`, snapshot.validation.diagnostics));
    }
    const health: NotebookHealth = snapshot.activeTransaction ? "recovery-required" : snapshot.validation.valid ? "healthy" : "unhealthy";
    return {
      root: snapshot.root,
      notebookId: snapshot.manifest.notebook_id,
      language: snapshot.manifest.default_language,
      health,
      records: snapshot.files.length,
      types,
      activeTransaction: snapshot.activeTransaction,
      issues,
    };
  }, root);
}
