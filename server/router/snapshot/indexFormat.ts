// The Router index's bytes, in two files under `.docket/router-index/`: `snapshot-index.json`
// (what a warm plan needs: the watch, the stamps of the files read, the snapshot) and
// `facts.json` (what a rebuild needs: the facts derived from each file read, the listing's
// skipped entries and limits), named by its seal in the first so the two cannot be mixed. Each
// is a format line, the sha256 of the body, and the body — JSON with a fixed key order, lists in
// code-unit order, no clock reading and nothing random. Decoding
// is all-or-nothing: a wrong format line, a seal that does not match (a torn or garbled file), a
// body that fails its schema, or paths that leave the workspace give null, and the caller builds
// afresh. The seal detects accidents, not forgery: whoever can write `.docket/` can write any
// index (docs/performance.md, "Router index").
import * as z from "zod";
import { sha256Hex } from "../../ledger/canonicalJson";
import { SnapshotModule, WorkspaceSnapshot } from "../planSchema";
import type { FileFacts } from "./fileFacts";
import type { ListingWatch } from "./listingWatch";
import type { SkippedEntry } from "./listing";
import type { Stamp } from "./stamp";

export const INDEX_FORMAT = "docket/router-index/v1";

/** An index larger than this is not read (a 100,000-file workspace's index is about 9 MB). */
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

/** A relative POSIX path that stays inside the workspace (no empty, `.` or `..` segment, no NUL). */
export function isInsidePath(value: string): boolean {
  const length = value.length;
  if (length === 0 || length > 4096 || value.charCodeAt(0) === 0x2f || value.includes("\u0000")) return false;
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

function isWorkspacePath(value: unknown): value is string {
  return typeof value === "string" && isInsidePath(value);
}

function isStampPair(value: unknown, inside: boolean): value is [string, Stamp] {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const [where, what] = value as unknown[];
  if (typeof what !== "string" || what.length > 8192 || typeof where !== "string") return false;
  return inside ? where === "" || isInsidePath(where) : where.length > 0 && where.length <= 4096;
}

function isEdge(value: unknown): value is { from: string; to: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const edge = value as { from?: unknown; to?: unknown };
  return keys.length === 2 && isWorkspacePath(edge.from) && isWorkspacePath(edge.to);
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

/** A read as stored: the position of its path in the snapshot's files (no second copy of 20,000 paths). */
function isReadStamp(value: unknown): value is [number, Stamp] {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const [where, what] = value as unknown[];
  return Number.isSafeInteger(where) && (where as number) >= 0 && typeof what === "string" && what.length <= 8192;
}

const IndexBody = z.strictObject({
  root: z.string().min(1).max(4096),
  settings: z.string().regex(SHA256),
  environment: z.string().regex(SHA256),
  watch: z.strictObject({
    sound: z.boolean(),
    inside: z.custom<Array<[string, Stamp]>>((value) => isList(value, (entry): entry is [string, Stamp] => isStampPair(entry, true))),
    outside: z.custom<Array<[string, Stamp]>>((value) => isList(value, (entry): entry is [string, Stamp] => isStampPair(entry, false))),
  }),
  reads: z.custom<Array<[number, Stamp]>>((value) => isList(value, isReadStamp)),
  details: z.string().regex(SHA256),
  snapshot: WorkspaceSnapshot.extend({
    files: z.custom<string[]>((value) => isList(value, isWorkspacePath)),
    directories: z.custom<string[]>((value) => isList(value, isWorkspacePath)),
    imports: z.custom<Array<{ from: string; to: string }>>((value) => isList(value, isEdge)),
  }),
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

function sealed(format: string, body: string): { bytes: Buffer; seal: string } {
  const seal = sha256Hex(body);
  return { bytes: Buffer.from(`${format}\n${seal}\n${body}`, "utf8"), seal };
}

/** The body of a sealed file, or null when the format line or the seal do not match. */
function unsealed(format: string, bytes: Buffer): { body: string; seal: string } | null {
  const header = `${format}\n`;
  if (bytes.length < header.length + 65 || bytes.toString("utf8", 0, header.length) !== header) return null;
  const seal = bytes.toString("latin1", header.length, header.length + 64);
  if (bytes[header.length + 64] !== 0x0a) return null;
  const body = bytes.subarray(header.length + 65);
  if (sha256Hex(body) !== seal) return null;
  return { body: body.toString("utf8"), seal };
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function readPositions(index: RouterIndex): Array<[number, Stamp]> {
  const position = new Map<string, number>();
  index.snapshot.files.forEach((file, at) => position.set(file, at));
  return index.reads.map((read) => {
    const at = position.get(read.path);
    if (at === undefined) throw new Error(`the Router index reads ${read.path}, which its snapshot does not list`);
    return [at, read.stamp];
  });
}

/** Both files' bytes; `details` first, since the index names it by its seal. */
export function encodeIndex(index: RouterIndex, details: IndexDetails): { index: Buffer; details: Buffer } {
  const detailsFile = sealed(
    DETAILS_FORMAT,
    JSON.stringify({ listing: { source: details.listing.source, skipped: details.listing.skipped, limits: details.listing.limits }, facts: details.facts }),
  );
  const body = JSON.stringify({
    root: index.root,
    settings: index.settings,
    environment: index.environment,
    watch: { sound: index.watch.sound, inside: index.watch.inside, outside: index.watch.outside },
    reads: readPositions(index),
    details: detailsFile.seal,
    snapshot: index.snapshot,
  });
  return { index: sealed(INDEX_FORMAT, body).bytes, details: detailsFile.bytes };
}

/** The index in `bytes` (without its details) and the seal its details file must have, or null. */
export function decodeIndex(bytes: Buffer): { index: RouterIndex; detailsSeal: string } | null {
  const file = unsealed(INDEX_FORMAT, bytes);
  if (file === null) return null;
  const parsed = IndexBody.safeParse(parsedJson(file.body));
  if (!parsed.success) return null;
  const value = parsed.data;
  const files = value.snapshot.files;
  const reads: Array<{ path: string; stamp: Stamp }> = [];
  for (const [at, readStamp] of value.reads) {
    const file = files[at];
    if (file === undefined) return null;
    reads.push({ path: file, stamp: readStamp });
  }
  return {
    index: {
      root: value.root,
      settings: value.settings,
      environment: value.environment,
      watch: value.watch,
      reads,
      snapshot: value.snapshot,
      details: null,
    },
    detailsSeal: value.details,
  };
}

/** The details in `bytes` when they are the ones the index names and fit its reads, else null. */
export function decodeDetails(bytes: Buffer, expectedSeal: string, reads: number): IndexDetails | null {
  const file = unsealed(DETAILS_FORMAT, bytes);
  if (file === null || file.seal !== expectedSeal) return null;
  const parsed = DetailsBody.safeParse(parsedJson(file.body));
  if (!parsed.success || parsed.data.facts.length !== reads) return null;
  return parsed.data;
}
