// The Router index's bytes, in two files under `.docket/router-index/`: `snapshot-index.bin`
// (what a warm plan needs: the watch, the stamps of the files read, the snapshot) and
// `facts.json` (what a rebuild needs: the facts derived from each file read, the listing's
// skipped entries and limits), named by its seal in the first so the two cannot be mixed. Each
// is a format line, the sha256 of the body, and the body; nothing in it is read from a clock or
// drawn at random.
//
// The index body is one line of JSON (the small parts: root, settings, watch, the snapshot's
// modules, technologies, rule files, hot paths, limits, skipped entries and hash, the sizes of the
// blocks below), then blocks: the snapshot's files and folders as UTF-8 paths separated by NUL,
// the read files' stamps separated by NUL, the read files' positions in the file list and the
// import edges as positions (little-endian uint32). A warm plan reads it with one file read, one
// UTF-8 decode and a split per block: parsing 100,000 paths as JSON strings and 20,000 import
// edges as objects (and collecting them) cost more than the rest of a warm plan's index work.
//
// Decoding is all-or-nothing: a wrong format line, a seal that does not match (a torn or garbled
// file), a header that fails its schema, blocks whose sizes do not add up, positions past the file
// list, or paths that leave the workspace give null, and the caller builds afresh. The seal
// detects accidents, not forgery: whoever can write `.docket/` can write any index
// (docs/performance.md, "Router index").
import { isAscii } from "node:buffer";
import os from "node:os";
import * as z from "zod";
import { sha256Hex } from "../../ledger/canonicalJson";
import { rememberAsciiBlock } from "../pathBlock";
import { SnapshotModule, WorkspaceSnapshot, type ImportEdge, type SnapshotHotPath, type SnapshotTechnology } from "../planSchema";
import type { FileFacts } from "./fileFacts";
import type { ListingWatch } from "./listingWatch";
import type { SkippedEntry } from "./listing";
import type { Stamp } from "./stamp";

export const INDEX_FORMAT = "docket/router-index/v2";

/** An index larger than this is not read (a 100,000-file workspace's index is about 6 MB). */
export const MAX_INDEX_BYTES = 256 * 1024 * 1024;

/** One file the snapshot read: its stamp when read, and what was derived from its bytes. */
export interface IndexedRead {
  readonly path: string;
  readonly stamp: Stamp;
  readonly facts: FileFacts;
}

/** What only a rebuild needs (kept in `facts.json`, read only when the index is not warm). */
export interface IndexDetails {
  /** The listing's skipped entries and limits before the reads (the files are the snapshot's). */
  readonly listing: { readonly source: "git" | "walk"; readonly skipped: readonly SkippedEntry[]; readonly limits: readonly string[] };
  /** The facts of each read, in the order of `RouterIndex.reads`. */
  readonly facts: readonly FileFacts[];
}

export interface RouterIndex {
  /** The workspace's real path: an index copied from elsewhere is not this workspace's. */
  readonly root: string;
  /** The snapshot format, index format and resolved caps it was built under (a hash). */
  readonly settings: string;
  /** Fingerprint of the environment Git's listing depends on (listingWatch.ts). */
  readonly environment: string;
  readonly watch: ListingWatch;
  /** Every file read, in the snapshot's read order, with its stamp. */
  readonly reads: ReadonlyArray<{ readonly path: string; readonly stamp: Stamp }>;
  readonly snapshot: WorkspaceSnapshot;
  /** In memory after a build; from disk only when asked for (null: not loaded). */
  readonly details: IndexDetails | null;
}

/** The longest relative path the index accepts, in UTF-16 code units. */
const MAX_PATH_LENGTH = 4096;

/** A relative POSIX path that stays inside the workspace (no empty, `.` or `..` segment, no NUL). */
export function isInsidePath(value: string): boolean {
  const length = value.length;
  if (length === 0 || length > MAX_PATH_LENGTH || value.charCodeAt(0) === 0x2f || value.includes("\u0000")) return false;
  // Checked segment by segment without building strings: this runs for every file of the index.
  let start = 0;
  for (;;) {
    const slash = value.indexOf("/", start);
    const end = slash === -1 ? length : slash;
    const size = end - start;
    if (size === 0) return false;
    if (value.charCodeAt(start) === 0x2e && (size === 1 || (size === 2 && value.charCodeAt(start + 1) === 0x2e))) return false;
    if (slash === -1) return true;
    start = slash + 1;
  }
}

// The bulky lists (files, folders, import edges, stamps, reads: hundreds of thousands of entries
// on a large workspace) are checked by the plain predicates below inside z.custom, the rest by the
// ordinary schemas: a zod object per entry cost more than the whole warm plan (measured 280 ms of
// validation and as much garbage collection for a 100,000-file index).
function isList<T>(value: unknown, item: (entry: unknown) => entry is T): value is T[] {
  if (!Array.isArray(value)) return false;
  for (const entry of value) if (!item(entry)) return false;
  return true;
}

function isStampPair(value: unknown, inside: boolean): value is [string, Stamp] {
  if (!Array.isArray(value) || value.length !== 2) return false;
  // Indexed, not destructured: destructuring goes through the array iterator, about 2,500 times
  // in a process that checks this once, mostly before the JIT has optimized it.
  const where = (value as unknown[])[0];
  const what = (value as unknown[])[1];
  if (typeof what !== "string" || what.length > 8192 || typeof where !== "string") return false;
  return inside ? where === "" || isInsidePath(where) : where.length > 0 && where.length <= 4096;
}

const ManifestFactsSchema = z.strictObject({ modules: z.array(SnapshotModule), technologies: z.array(z.string()), problem: z.string().nullable() });
const SHA256 = /^[a-f0-9]{64}$/u;

function isFacts(value: unknown): value is FileFacts {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const facts = value as Record<string, unknown>;
  const keys = Object.keys(facts).length;
  switch (facts.role) {
    case "source":
      return keys === 3 && typeof facts.truncated === "boolean" && isList(facts.specifiers, (entry): entry is string => typeof entry === "string");
    case "rule":
      return keys === 2 && typeof facts.sha256 === "string" && SHA256.test(facts.sha256);
    case "unusable":
      return keys === 2 && typeof facts.why === "string";
    case "manifest":
      return keys === 2 && ManifestFactsSchema.safeParse(facts.facts).success;
    default:
      return false;
  }
}

// The snapshot's longer lists (hundreds of modules and hot paths) checked as planSchema.ts's
// schemas check them, without a zod object per entry (the header is parsed once per process,
// where zod's per-object cost is the whole price).
function isRelativePathValue(value: unknown): value is string {
  return typeof value === "string" && value.length >= 1 && value.length <= 4096;
}

function hasExactly(value: unknown, required: readonly string[], optional: readonly string[] = []): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  let present = 0;
  for (const key of keys) {
    if (required.includes(key)) present += 1;
    else if (!optional.includes(key)) return false;
  }
  return present === required.length;
}

const MODULE_KINDS: readonly string[] = SnapshotModule.shape.kind.options;

function isModule(value: unknown): value is SnapshotModule {
  if (!hasExactly(value, ["name", "path", "kind", "manifest"], ["scripts"])) return false;
  const { name, path, kind, manifest, scripts } = value;
  return (
    typeof name === "string" &&
    typeof path === "string" &&
    typeof kind === "string" &&
    MODULE_KINDS.includes(kind) &&
    (manifest === null || isRelativePathValue(manifest)) &&
    (scripts === undefined || isList(scripts, (entry): entry is string => typeof entry === "string"))
  );
}

function isTechnology(value: unknown): value is SnapshotTechnology {
  return hasExactly(value, ["name", "sources"]) && typeof value.name === "string" && isList(value.sources, isRelativePathValue);
}

function isHotPath(value: unknown): value is SnapshotHotPath {
  return hasExactly(value, ["path", "hint"]) && isRelativePathValue(value.path) && typeof value.hint === "string";
}

const IndexHeader = z.strictObject({
  root: z.string().min(1).max(4096),
  settings: z.string().regex(SHA256),
  environment: z.string().regex(SHA256),
  watch: z.strictObject({
    sound: z.boolean(),
    inside: z.custom<Array<[string, Stamp]>>((value) => isList(value, (entry): entry is [string, Stamp] => isStampPair(entry, true))),
    outside: z.custom<Array<[string, Stamp]>>((value) => isList(value, (entry): entry is [string, Stamp] => isStampPair(entry, false))),
  }),
  details: z.string().regex(SHA256),
  snapshot: WorkspaceSnapshot.omit({ files: true, directories: true, imports: true }).extend({
    modules: z.custom<SnapshotModule[]>((value) => isList(value, isModule)),
    technologies: z.custom<SnapshotTechnology[]>((value) => isList(value, isTechnology)),
    hotPaths: z.custom<SnapshotHotPath[]>((value) => isList(value, isHotPath)),
  }),
  /** Entries in the blocks after the header. */
  counts: z.strictObject({ files: z.number().int().nonnegative(), directories: z.number().int().nonnegative(), reads: z.number().int().nonnegative(), imports: z.number().int().nonnegative() }),
  /** Byte lengths of the text blocks: files, folders, read stamps. */
  bytes: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative(), z.number().int().nonnegative()]),
});

const DetailsBody = z.strictObject({
  listing: z.strictObject({
    source: z.enum(["git", "walk"]),
    skipped: z.array(z.strictObject({ path: z.string(), why: z.string() })),
    limits: z.array(z.string()),
  }),
  facts: z.custom<FileFacts[]>((value) => isList(value, isFacts)),
});

export const DETAILS_FORMAT = "docket/router-index-facts/v1";

function sealedBytes(format: string, body: Buffer): { bytes: Buffer; seal: string } {
  const seal = sha256Hex(body);
  return { bytes: Buffer.concat([Buffer.from(`${format}\n${seal}\n`, "latin1"), body]), seal };
}

/** The body of a sealed file, or null when the format line or the seal do not match. */
function unsealed(format: string, bytes: Buffer): { body: Buffer; seal: string } | null {
  const header = `${format}\n`;
  if (bytes.length < header.length + 65 || bytes.toString("latin1", 0, header.length) !== header) return null;
  const seal = bytes.toString("latin1", header.length, header.length + 64);
  if (bytes[header.length + 64] !== 0x0a) return null;
  const body = bytes.subarray(header.length + 65);
  if (sha256Hex(body) !== seal) return null;
  return { body, seal };
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The position of `wanted` in `files` searched outward from `from`, or -1. Reads and edge sources
 * come in file order and an import's target is usually near its source, so the next path is near
 * the last one found: a few comparisons of long paths with common prefixes instead of a binary
 * search's seventeen over 100,000 files.
 */
function searchNear(files: readonly string[], wanted: string, from: number): number {
  let low: number;
  let high: number;
  if ((files[from] as string) < wanted) {
    low = from + 1;
    high = from + 1;
    for (let step = 2; high < files.length && (files[high] as string) < wanted; step *= 2) {
      low = high + 1;
      high = from + step;
    }
    high = Math.min(high, files.length - 1);
  } else {
    high = from - 1;
    low = from - 1;
    for (let step = 2; low >= 0 && (files[low] as string) > wanted; step *= 2) {
      high = low - 1;
      low = from - step;
    }
    low = Math.max(low, 0);
  }
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const file = files[middle] as string;
    if (file === wanted) return middle;
    if (file < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Where each of `paths` is in `files`, both from the snapshot (files in code-unit order). Exported for its tests. */
export function positionsIn(files: readonly string[], paths: Iterable<string>): number[] {
  const positions: number[] = [];
  let last = 0;
  for (const wanted of paths) {
    let found = files[last] === wanted ? last : files.length === 0 ? -1 : searchNear(files, wanted, last);
    // Files not in code-unit order (never built so, but cheap to allow): a plain search.
    if (found === -1) found = files.indexOf(wanted);
    if (found === -1) throw new Error(`the Router index names ${wanted}, which its snapshot does not list`);
    positions.push(found);
    last = found;
  }
  return positions;
}

function joinedPaths(values: readonly string[]): Buffer {
  return Buffer.from(values.join("\u0000"), "utf8");
}

function uint32Block(values: readonly number[]): Buffer {
  const block = Buffer.allocUnsafe(values.length * 4);
  values.forEach((value, at) => block.writeUInt32LE(value, at * 4));
  return block;
}

/** Both files' bytes; `details` first, since the index names it by its seal. */
export function encodeIndex(index: RouterIndex, details: IndexDetails): { index: Buffer; details: Buffer } {
  const detailsFile = sealedBytes(
    DETAILS_FORMAT,
    Buffer.from(JSON.stringify({ listing: { source: details.listing.source, skipped: details.listing.skipped, limits: details.listing.limits }, facts: details.facts }), "utf8"),
  );
  const snapshot = index.snapshot;
  const files = joinedPaths(snapshot.files);
  const directories = joinedPaths(snapshot.directories);
  const stamps = joinedPaths(index.reads.map((read) => read.stamp));
  const readPositions = uint32Block(positionsIn(snapshot.files, index.reads.map((read) => read.path)));
  const edgePositions = positionsIn(snapshot.files, snapshot.imports.flatMap((edge) => [edge.from, edge.to]));
  const header = JSON.stringify({
    root: index.root,
    settings: index.settings,
    environment: index.environment,
    watch: { sound: index.watch.sound, inside: index.watch.inside, outside: index.watch.outside },
    details: detailsFile.seal,
    snapshot: {
      format: snapshot.format,
      source: snapshot.source,
      modules: snapshot.modules,
      technologies: snapshot.technologies,
      ruleFiles: snapshot.ruleFiles,
      hotPaths: snapshot.hotPaths,
      limits: snapshot.limits,
      skipped: snapshot.skipped,
      snapshotSha256: snapshot.snapshotSha256,
    },
    counts: { files: snapshot.files.length, directories: snapshot.directories.length, reads: index.reads.length, imports: snapshot.imports.length },
    bytes: [files.length, directories.length, stamps.length],
  });
  const body = Buffer.concat([Buffer.from(`${header}\n`, "utf8"), files, directories, stamps, readPositions, uint32Block(edgePositions)]);
  return { index: sealedBytes(INDEX_FORMAT, body).bytes, details: detailsFile.bytes };
}

const LITTLE_ENDIAN = os.endianness() === "LE";

/** `count` little-endian uint32 values from `start` (copied into an aligned array in one go). */
function uint32s(bytes: Buffer, start: number, count: number): Uint32Array {
  const values = new Uint32Array(count);
  if (LITTLE_ENDIAN) new Uint8Array(values.buffer).set(bytes.subarray(start, start + count * 4));
  else for (let at = 0; at < count; at += 1) values[at] = bytes.readUInt32LE(start + at * 4);
  return values;
}

/**
 * An empty, `.` or `..` segment somewhere in NUL-separated paths: one that starts the text or
 * follows a `/` or NUL, and ends at a `/`, a NUL or the end (a leading `/` is an empty first
 * segment). One regular-expression search over the block costs a fifth of a scan in JavaScript.
 */
const OUTSIDE_SEGMENT = /(?:^|[\0/])\.{0,2}(?:[\0/]|$)/u;

/**
 * The NUL-separated paths of `text` when every one passes isInsidePath, else null. Exported for
 * its tests, which compare it with isInsidePath path by path.
 */
export function insidePaths(text: string): string[] | null {
  if (OUTSIDE_SEGMENT.test(text)) return null;
  const values = text.split("\u0000");
  for (const value of values) if (value.length > MAX_PATH_LENGTH) return null;
  return values;
}

/**
 * `count` NUL-separated strings from `bytes`, or null when there are not exactly that many (or,
 * for paths, when one would leave the workspace).
 */
function splitBlock(bytes: Buffer, start: number, end: number, count: number, paths: boolean): string[] | null {
  if (count === 0) return end === start ? [] : null;
  const text = bytes.toString("utf8", start, end);
  const values = paths ? insidePaths(text) : text.split("\u0000");
  if (values === null || values.length !== count) return null;
  // An ASCII path block is kept with its list: names are then searched in it (../pathBlock.ts).
  if (paths && isAscii(bytes.subarray(start, end))) rememberAsciiBlock(values, text);
  return values;
}

/** The index in `bytes` (without its details) and the seal its details file must have, or null. */
export function decodeIndex(bytes: Buffer): { index: RouterIndex; detailsSeal: string } | null {
  const file = unsealed(INDEX_FORMAT, bytes);
  if (file === null) return null;
  const body = file.body;
  const newline = body.indexOf(0x0a);
  if (newline === -1) return null;
  // Parsed once per process: compiling zod's fast path for it would cost more than it saves.
  const parsed = IndexHeader.safeParse(parsedJson(body.toString("utf8", 0, newline)), { jitless: true });
  if (!parsed.success) return null;
  const header = parsed.data;
  const { counts } = header;
  const [filesBytes, directoriesBytes, stampsBytes] = header.bytes;
  const filesStart = newline + 1;
  const directoriesStart = filesStart + filesBytes;
  const stampsStart = directoriesStart + directoriesBytes;
  const positionsStart = stampsStart + stampsBytes;
  const edgesStart = positionsStart + counts.reads * 4;
  if (edgesStart + counts.imports * 8 !== body.length) return null;

  const files = splitBlock(body, filesStart, directoriesStart, counts.files, true);
  const directories = splitBlock(body, directoriesStart, stampsStart, counts.directories, true);
  const stamps = splitBlock(body, stampsStart, positionsStart, counts.reads, false);
  if (files === null || directories === null || stamps === null) return null;
  const readAt = uint32s(body, positionsStart, counts.reads);
  const reads: Array<{ path: string; stamp: Stamp }> = [];
  for (let at = 0; at < counts.reads; at += 1) {
    const path = files[readAt[at] as number];
    const stamp = stamps[at] as string;
    if (path === undefined || stamp.length > 8192) return null;
    reads.push({ path, stamp });
  }
  const edgeAt = uint32s(body, edgesStart, counts.imports * 2);
  const imports: ImportEdge[] = [];
  for (let at = 0; at < counts.imports * 2; at += 2) {
    const from = files[edgeAt[at] as number];
    const to = files[edgeAt[at + 1] as number];
    if (from === undefined || to === undefined) return null;
    imports.push({ from, to });
  }
  const part = header.snapshot;
  const snapshot: WorkspaceSnapshot = {
    format: part.format,
    source: part.source,
    files,
    directories,
    modules: part.modules,
    technologies: part.technologies,
    ruleFiles: part.ruleFiles,
    hotPaths: part.hotPaths,
    imports,
    limits: part.limits,
    skipped: part.skipped,
    snapshotSha256: part.snapshotSha256,
  };
  return {
    index: { root: header.root, settings: header.settings, environment: header.environment, watch: header.watch, reads, snapshot, details: null },
    detailsSeal: header.details,
  };
}

/** The details in `bytes` when they are the ones the index names and fit its reads, else null. */
export function decodeDetails(bytes: Buffer, expectedSeal: string, reads: number): IndexDetails | null {
  const file = unsealed(DETAILS_FORMAT, bytes);
  if (file === null || file.seal !== expectedSeal) return null;
  const parsed = DetailsBody.safeParse(parsedJson(file.body.toString("utf8")), { jitless: true });
  if (!parsed.success || parsed.data.facts.length !== reads) return null;
  return parsed.data;
}
