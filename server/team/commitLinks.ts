// Which commits carry which landings (issue 17). A commit names a landing in a trailer its
// message got from Docket's prepare-commit-msg hook, or in a note under refs/notes/docket that
// `docket link` added to an existing commit; both use the same line:
//   Docket-Landing: <landingId> <eventSha256>
// What this reports is what each commit SAYS: a trailer or note is a claim (anyone can type one
// into a message), checked against the ledger by `docket audit`. Malformed values are skipped.
import { git, isObjectId } from "./gitCommand";
import { LANDING_KEY, SCOPE_KEY, isLandingId, parseLinkLines, type ParsedLinks } from "./linkLines";

export const LANDING_TRAILER = LANDING_KEY;
export const SCOPE_TRAILER = SCOPE_KEY;
export const NOTES_REF = "refs/notes/docket";

export interface LinkedCommit {
  /** Full 40-hex commit id. */
  readonly sha: string;
  /** The commit's subject line. */
  readonly subject: string;
  /** Where the link was found: the commit message's trailer or a refs/notes/docket note. */
  readonly source: "trailer" | "note";
}

export interface CommitsByLandingRequest {
  readonly workspaceFolder: string;
  readonly landingIds: readonly string[];
}

/** One commit with the links its message and its note claim. */
export interface CommitLinks {
  readonly sha: string;
  readonly subject: string;
  /** Parents' count: a merge has two or more. */
  readonly parents: number;
  readonly trailers: ParsedLinks;
  /** The refs/notes/docket note's links, or null when the commit has no note. */
  readonly note: ParsedLinks | null;
  /** The note's exact text (null without a note): `docket link` never overwrites a different one. */
  readonly noteText: string | null;
}

/** Landing ids passed to Git's message filter at most; more use the keys instead. */
const MAX_GREP_IDS = 200;

/** Largest note Docket reads: a note of links is a few hundred bytes. */
const MAX_NOTE_BYTES = 64 * 1024;

/** Every note under refs/notes/docket: commit id → note text. */
export async function readNotes(cwd: string): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  const exists = await git(cwd, ["rev-parse", "-q", "--verify", `${NOTES_REF}^{commit}`], { acceptedExitCodes: [1, 128] });
  if (exists.exitCode !== 0) return notes;
  const listing = (await git(cwd, ["notes", `--ref=${NOTES_REF}`, "list"])).stdout;
  const pairs: Array<[blob: string, commit: string]> = [];
  for (const line of listing.split("\n")) {
    const [blob, commit, extra] = line.split(" ");
    if (blob !== undefined && commit !== undefined && extra === undefined && isObjectId(blob) && isObjectId(commit)) pairs.push([blob, commit]);
  }
  if (pairs.length === 0) return notes;
  // One process for every blob: `<oid> blob <size>\n<bytes>\n` per request, sizes make it unambiguous.
  const batch = await git(cwd, ["cat-file", "--batch"], { input: `${pairs.map(([blob]) => blob).join("\n")}\n` });
  const bytes = batch.stdoutBytes;
  let offset = 0;
  for (const [blob, commit] of pairs) {
    const newline = bytes.indexOf(0x0a, offset);
    if (newline < 0) break;
    const header = bytes.subarray(offset, newline).toString("utf8").split(" ");
    offset = newline + 1;
    // `<oid> missing` has no body; any other answer carries `<size>` bytes and a newline.
    if (header.length !== 3) continue;
    const size = Number(header[2]);
    if (!Number.isSafeInteger(size) || size < 0) break;
    const text = bytes.subarray(offset, offset + size).toString("utf8");
    offset += size + 1;
    if (header[0] === blob && header[1] === "blob" && size <= MAX_NOTE_BYTES) notes.set(commit, text);
  }
  return notes;
}

/**
 * The commits `revisions` name (already checked arguments for `git log`, e.g. ["HEAD"]; with
 * "no-walk", full object ids read from stdin so any number fits), newest first, each with the
 * links its trailers and its note claim. `mentioning`: only commits whose message mentions a
 * Docket key (Git filters; the trailers are still parsed strictly).
 */
export async function readCommitLinks(
  cwd: string,
  revisions: readonly string[],
  walk: "walk" | "no-walk" = "walk",
  options: { readonly mentioning?: readonly string[]; readonly notes?: ReadonlyMap<string, string> } = {},
): Promise<CommitLinks[]> {
  if (revisions.length === 0) return [];
  // -z ends each commit with NUL, which neither a subject nor a trailer can hold.
  const format = `--format=%H %P%n%s%n%(trailers:key=${LANDING_KEY},key=${SCOPE_KEY},unfold)`;
  const filter = options.mentioning === undefined ? [] : ["--fixed-strings", "--regexp-ignore-case", ...options.mentioning.map((text) => `--grep=${text}`)];
  const log =
    walk === "no-walk"
      ? await git(cwd, ["log", "-z", "--no-walk=unsorted", ...filter, format, "--stdin", "--end-of-options", "--"], { input: `${revisions.filter(isObjectId).join("\n")}\n` })
      : await git(cwd, ["log", "-z", ...filter, format, "--end-of-options", ...revisions, "--"]);
  const notes = options.notes ?? (await readNotes(cwd));
  const commits: CommitLinks[] = [];
  for (const record of log.stdout.split("\0")) {
    const [ids, subject, ...trailerLines] = record.split("\n");
    if (ids === undefined || subject === undefined) continue;
    const [sha, ...parents] = ids.split(" ").filter((entry) => entry !== "");
    if (sha === undefined || !isObjectId(sha)) continue;
    const noteText = notes.get(sha) ?? null;
    commits.push({ sha, subject, parents: parents.length, trailers: parseLinkLines(trailerLines.join("\n")), note: noteText === null ? null : parseLinkLines(noteText), noteText });
  }
  return commits;
}

async function hasHead(cwd: string): Promise<boolean> {
  const probe = await git(cwd, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], { acceptedExitCodes: [1, 128] });
  return probe.exitCode === 0;
}

/**
 * The commits reachable from HEAD that claim any landing (a Docket trailer or a Docket note),
 * or only those whose message or note may name `landingIds`, newest first. Git's message filter finds the trailer commits without formatting the rest of the
 * history; noted commits are kept only when HEAD reaches them, in HEAD's log order.
 */
export async function linkedCommits(cwd: string, landingIds?: readonly string[]): Promise<CommitLinks[]> {
  if (landingIds !== undefined && landingIds.length === 0) return [];
  const [head, notes] = await Promise.all([hasHead(cwd), readNotes(cwd)]);
  if (!head) return [];
  // Git's message filter: the asked landing ids themselves when they are few, else any Docket key
  // (a ledger's every landing would not fit on a command line).
  const mentioning = landingIds !== undefined && landingIds.length <= MAX_GREP_IDS ? landingIds : [`${LANDING_KEY}:`, `${SCOPE_KEY}:`];
  const withTrailers = await readCommitLinks(cwd, ["HEAD"], "walk", { mentioning, notes });
  if (notes.size === 0) return withTrailers;
  const order = new Map<string, number>();
  for (const sha of (await git(cwd, ["rev-list", "HEAD", "--"])).stdout.split("\n")) if (isObjectId(sha)) order.set(sha, order.size);
  const found = new Set(withTrailers.map((commit) => commit.sha));
  const noted = await readCommitLinks(cwd, [...notes.keys()].filter((sha) => order.has(sha) && !found.has(sha)), "no-walk", { notes });
  return [...withTrailers, ...noted].sort((a, b) => (order.get(a.sha) ?? 0) - (order.get(b.sha) ?? 0));
}

/** For each asked landing id, the commits reachable from HEAD that name it, newest first. */
export async function commitsByLanding(request: CommitsByLandingRequest): Promise<ReadonlyMap<string, readonly LinkedCommit[]>> {
  const result = new Map<string, LinkedCommit[]>(request.landingIds.map((landingId) => [landingId, []]));
  const asked = new Set(request.landingIds.filter(isLandingId));
  if (asked.size === 0) return result;
  for (const commit of await linkedCommits(request.workspaceFolder)) {
    const named = new Set<string>();
    const take = (links: ParsedLinks | null, source: LinkedCommit["source"]): void => {
      for (const claim of links?.landings ?? []) {
        if (!asked.has(claim.landingId) || named.has(claim.landingId)) continue;
        named.add(claim.landingId);
        result.get(claim.landingId)?.push({ sha: commit.sha, subject: commit.subject, source });
      }
    };
    take(commit.trailers, "trailer");
    take(commit.note, "note");
  }
  return result;
}
