// `docket audit <rev-range>` (issue 17): each changed path of each commit classified as landed,
// unlanded or docket-state, and each scope's judgments, authorization, landings and debts.
// This file only sequences the work: Git through auditGit.ts, the ledger through auditLedger.ts,
// the matching rule in auditClassify.ts (pure), the text in auditRender.ts (pure).
// The VS Code command "Docket: Audit Branch…" builds on `runAudit`.
import fs from "node:fs";
import path from "node:path";
import type { Envelope } from "../ledger/envelope";
import { parseStored } from "../ledger/replay";
import { containmentRootFor } from "../workspace/ledgerPaths";
import { classifyAudit, describeChange } from "./auditClassify";
import { AuditError } from "./auditError";
import { committedFile, diffTree, docketNotes, isShallow, listCommits, mergeBase, repositoryRoot, resolveCommit, streamBlob, type GitChange, type GitCommit } from "./auditGit";
import { readAuditLedger, type AuditLedgerRead } from "./auditLedger";
import type { AuditReport, CommitClaim, CommitInput, Requirement } from "./auditModel";
import { parseAuditRange } from "./auditRange";
import { renderAuditJson, renderAuditMarkdown, type AuditLanguage } from "./auditRender";

export { AuditError } from "./auditError";
export { REQUIREMENTS, type AuditReport, type Requirement } from "./auditModel";
export type { AuditLanguage } from "./auditRender";

export interface AuditRequest {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  /** A Git revision range such as `origin/main..HEAD`. */
  readonly range: string;
  /** Requirements whose violations the report lists (none: the report only describes). */
  readonly requirements?: readonly Requirement[];
  /** The Markdown report's language (the JSON is language-free); English by default. */
  readonly language?: AuditLanguage;
}

export interface AuditRun {
  /** The report as Markdown, ready to paste into a pull request. */
  readonly markdown: string;
  /** Commits the range held. */
  readonly commits: number;
  /** The report itself (`docket/audit/v1`). */
  readonly report: AuditReport;
  /** The report as its documented JSON text. */
  readonly json: string;
}

/** Audits a range; throws an AuditError (a DocketError with `exitCode`) for a bad range, repository or ledger. */
export async function runAudit(request: AuditRequest): Promise<AuditRun> {
  const report = await auditRange(request);
  return { markdown: renderAuditMarkdown(report, request.language ?? "en"), commits: report.summary.commits, report, json: renderAuditJson(report) };
}

const toPosix = (value: string): string => value.split(path.sep).join("/");

function realFolder(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    throw new AuditError("docket.no-workspace", `no folder at ${folder}`, 2);
  }
}

export async function auditRange(request: AuditRequest): Promise<AuditReport> {
  const range = parseAuditRange(request.range);
  const workspace = realFolder(request.workspaceFolder);
  const root = realFolder(await repositoryRoot(workspace));
  const workspacePrefix = toPosix(path.relative(root, workspace));
  if (workspacePrefix.startsWith("..")) throw new AuditError("docket.audit-not-a-repository", `${workspace} is not inside ${root}`, 2);
  if (await isShallow(root)) {
    throw new AuditError(
      "docket.audit-shallow-clone",
      "this clone is shallow: the commits before its cut are missing, so the range and its base cannot be read. Run `git fetch --unshallow` (in GitHub Actions: actions/checkout with fetch-depth: 0) and audit again",
      2,
    );
  }
  const to = await resolveCommit(root, range.to);
  if (to === null) throw new AuditError("docket.audit-range-invalid", `${JSON.stringify(range.to)} names no commit in ${root}`, 2);
  const from = range.from === null ? null : await resolveCommit(root, range.from);
  if (range.from !== null && from === null) throw new AuditError("docket.audit-range-invalid", `${JSON.stringify(range.from)} names no commit in ${root}`, 2);
  const base = from === null ? null : await mergeBase(root, from, to);

  const gitCommits = await listCommits(root, from, to);
  const notes = await docketNotes(root, new Set(gitCommits.map((commit) => commit.sha)));
  const ledgerPath = path.resolve(request.ledgerPath);
  const ledgerInRepo = ledgerRepositoryPath(root, ledgerPath);
  const docketPrefix = workspacePrefix === "" ? ".docket/" : `${workspacePrefix}/.docket/`;
  const docketState = [docketPrefix, ...(ledgerInRepo === null ? [] : [ledgerInRepo, `${ledgerInRepo}.anchor`])];
  const commits: CommitInput[] = [];
  const changesOf = new Map<string, GitChange[]>();
  for (const commit of gitCommits) {
    const changes = await commitChanges(root, commit);
    changesOf.set(commit.sha, changes);
    commits.push({
      sha: commit.sha,
      parents: commit.parents,
      subject: commit.subject,
      changes: changes.map((change) => describeChange(change, workspacePrefix, docketState)),
      claims: claimsOf(commit, notes.get(commit.sha) ?? null),
    });
  }

  const interest = {
    paths: new Set(commits.flatMap((commit) => commit.changes.flatMap((change) => (change.workspacePath === null || change.docketState || change.invalid !== null ? [] : [change.workspacePath])))),
    landingIds: new Set(commits.flatMap((commit) => commit.claims.filter((claim) => claim.key === "Docket-Landing").map((claim) => claim.value.trim().split(/\s+/u)[0] ?? ""))),
    scopeIds: new Set(commits.flatMap((commit) => commit.claims.filter((claim) => claim.key === "Docket-Scope").map((claim) => claim.value.trim()))),
  };
  const ledger = readAuditLedger(ledgerPath, containmentRootFor(workspace, ledgerPath), interest);
  // The ledger the commits carry: the audited one's place in the repository, or — for a ledger
  // named from outside it (--ledger) — the workspace's default place. Either way the audited ledger
  // must continue what the base and the head committed.
  const committedPath = ledgerInRepo ?? `${docketPrefix}ledger.jsonl`;
  const version = (blob: string | "not-a-file" | null, what: string): Promise<CommittedVersion> => committedVersion(root, blob, ledgerPath, ledger, what);
  const atBase = base === null ? null : await version(await committedFile(root, base, committedPath), `the range's base (${base.slice(0, 12)}:${committedPath})`);
  await version(await committedFile(root, to, committedPath), `the range's head (${to.slice(0, 12)}:${committedPath})`);
  // Every version a commit of the range wrote, too: a ledger rewritten in the middle of a branch and
  // put back later would pass a check of the two ends alone.
  const checkedBlobs = new Set<string>();
  for (const commit of gitCommits) {
    for (const change of changesOf.get(commit.sha) ?? []) {
      if (change.path !== committedPath || change.status === "D" || checkedBlobs.has(change.newBlob)) continue;
      checkedBlobs.add(change.newBlob);
      await version(change.newMode === "100644" || change.newMode === "100755" ? change.newBlob : "not-a-file", `${commit.sha.slice(0, 12)} (${committedPath})`);
    }
  }
  const classify = (scopes: ReturnType<AuditLedgerRead["describeScopes"]>): AuditReport =>
    classifyAudit({
      range: request.range,
      base,
      head: to,
      ledger: { path: ledgerInRepo ?? ledgerPath, lines: ledger.lines, headLineSha256: ledger.headLineSha256, baseLines: atBase?.lines ?? null },
      commits,
      landings: ledger.landings,
      scopes,
      knownScopeIds: ledger.knownScopeIds,
      spentLandings: atBase?.landings ?? new Set<string>(),
      requirements: request.requirements ?? [],
    });
  // Matching does not depend on the scopes' records; the first pass finds which landings the range
  // uses, so only their scopes (and the ones commits name) are rebuilt, however often a path was landed.
  const matched = classify([]);
  const used = new Set([...ledger.knownScopeIds, ...matched.commits.flatMap((commit) => commit.paths.flatMap((entry) => (entry.landing === null ? [] : [entry.landing.workScopeId])))]);
  return classify(ledger.describeScopes(used));
}

/** The ledger's repository-relative path, or null when it lies outside the repository. */
function ledgerRepositoryPath(root: string, ledgerPath: string): string | null {
  let resolved = ledgerPath;
  try {
    resolved = path.join(fs.realpathSync(path.dirname(ledgerPath)), path.basename(ledgerPath));
  } catch {
    // a missing folder: the ledger read refuses it
  }
  const relative = path.relative(root, resolved);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? null : toPosix(relative);
}

/**
 * The merge's own changes are the paths that differ from every parent (a conflict resolution or
 * an edit made in the merge); everything else came from a commit the range lists itself or from
 * the base's side, which is not this range's to answer for.
 */
async function commitChanges(root: string, commit: GitCommit): Promise<GitChange[]> {
  if (commit.parents.length === 0) return diffTree(root, null, commit.sha);
  const [first, ...others] = commit.parents as [string, ...string[]];
  let changes = await diffTree(root, first, commit.sha);
  for (const parent of others) {
    const against = new Set((await diffTree(root, parent, commit.sha)).map((change) => change.path));
    changes = changes.filter((change) => against.has(change.path));
  }
  return changes;
}

const NOTE_LINE = /^(Docket-Landing|Docket-Scope)\s*:\s*(.*)$/iu;

function claimsOf(commit: GitCommit, note: string | null): CommitClaim[] {
  const claims: CommitClaim[] = [
    ...commit.landingTrailers.map((value) => ({ source: "trailer" as const, key: "Docket-Landing" as const, value })),
    ...commit.scopeTrailers.map((value) => ({ source: "trailer" as const, key: "Docket-Scope" as const, value })),
  ];
  for (const line of (note ?? "").split("\n")) {
    const match = NOTE_LINE.exec(line.trim());
    if (match === null) continue;
    const key = (match[1] as string).toLowerCase() === "docket-landing" ? ("Docket-Landing" as const) : ("Docket-Scope" as const);
    claims.push({ source: "note", key, value: (match[2] as string).trim() });
  }
  return claims;
}

const LANDING_KIND = Buffer.from('"kind":"implementation-landing-recorded"');

interface CommittedVersion {
  /** Complete lines of the committed ledger (0 when the commit carries none). */
  readonly lines: number;
  /** eventSha256 of every landing event it holds. */
  readonly landings: ReadonlySet<string>;
}

/**
 * A ledger a commit carries must be history the audited ledger contains (Docket only appends): its
 * bytes a prefix of the audited file — or, after a merge through Docket's merge driver (which keeps
 * the common prefix and re-wraps the other side's lines with new numbers, never changing an
 * entry), every developer/v8 event it holds accepted by the audited ledger's replay with the same
 * hash. Else the audited ledger is not the history the range was built on. The blob is streamed
 * (a line at a time), compared with the file at the same offsets and scanned for its events.
 */
async function committedVersion(root: string, blob: string | "not-a-file" | null, ledgerPath: string, ledger: AuditLedgerRead, what: string): Promise<CommittedVersion> {
  const diverged = (why: string): never => {
    throw new AuditError("docket.audit-ledger-diverged", `the ledger committed at ${what} ${why}; the audited ledger is not the history this range was built on`, 3);
  };
  if (blob === null) return { lines: 0, landings: new Set() };
  if (blob === "not-a-file") return diverged("is not a regular file");
  const fd = fs.openSync(ledgerPath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  let offset = 0;
  let prefix = true;
  let lines = 0;
  let missing: string | null = null;
  const landings = new Set<string>();
  let partial: Buffer[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const scanLine = (bytes: Buffer): void => {
    lines += 1;
    // While the bytes so far equal the audited file's, the line is one replay already accepted:
    // only a landing's hash is wanted from it, and only a landing line is parsed.
    if (prefix) {
      if (bytes.includes(LANDING_KIND)) {
        const entry = (JSON.parse(decoder.decode(bytes)) as { entry?: { kind?: unknown; eventSha256?: unknown } }).entry;
        if (entry?.kind === "implementation-landing-recorded" && typeof entry.eventSha256 === "string") landings.add(entry.eventSha256);
      }
      return;
    }
    let value: { stream?: unknown; entry?: unknown };
    try {
      value = JSON.parse(decoder.decode(bytes)) as typeof value;
    } catch {
      diverged(`holds a line that is not a Docket ledger line (line ${lines})`);
      return;
    }
    if (value.stream !== "developer/v8") return;
    // Parsing recomputes the envelope's hash: an edited entry cannot keep the hash it claims.
    let envelope: Envelope;
    try {
      envelope = parseStored(value.entry);
    } catch {
      diverged(`holds an entry that is not a valid developer/v8 envelope (line ${lines})`);
      return;
    }
    if (missing === null && !ledger.hasEvent(envelope.eventId, envelope.eventSha256)) missing = `${envelope.eventId} (line ${lines})`;
    if (envelope.kind === "implementation-landing-recorded") landings.add(envelope.eventSha256);
  };
  try {
    const mine = Buffer.allocUnsafe(1 << 16);
    await streamBlob(root, blob, (chunk) => {
      if (prefix) {
        if (offset + chunk.length > ledger.bytes) prefix = false;
        for (let at = 0; prefix && at < chunk.length; ) {
          const length = Math.min(mine.length, chunk.length - at);
          const read = fs.readSync(fd, mine, 0, length, offset + at);
          if (read !== length || !mine.subarray(0, length).equals(chunk.subarray(at, at + length))) prefix = false;
          at += length;
        }
      }
      offset += chunk.length;
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        partial.push(chunk.subarray(start, newline));
        scanLine(partial.length === 1 ? (partial[0] as Buffer) : Buffer.concat(partial));
        partial = [];
        start = newline + 1;
      }
      if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)));
    });
  } finally {
    fs.closeSync(fd);
  }
  if (partial.length > 0) return diverged("does not end with a complete line");
  if (!prefix && missing !== null) return diverged(`is neither a prefix of the audited ledger nor contained in it: its event ${missing as string} is not in the audited ledger`);
  return { lines, landings };
}
