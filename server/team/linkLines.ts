// The lines a commit carries to name its landings (issue 17), pure: formatting, strict parsing
// and the matching rule. The same lines are a commit message's trailers (from the
// prepare-commit-msg hook) and the text of a refs/notes/docket note (from `docket link`):
//   Docket-Landing: <landingId> <eventSha256>
//   Docket-Scope: <workScopeId>
// A line is a claim: it says which landing the commit carries; `docket audit` checks it against
// the ledger. Values that are not exactly an id (and a 64-hex event hash) are never trusted.
import { compareCodeUnits } from "../ledger/canonicalJson";

export const LANDING_KEY = "Docket-Landing";
export const SCOPE_KEY = "Docket-Scope";

// The ledger's identifier rule (server/ledger/values.ts) with the kind's prefix and its length limit.
const LANDING_ID = /^landing:[A-Za-z0-9._:/-]{1,152}$/u;
const SCOPE_ID = /^scope:[A-Za-z0-9._:/-]{1,154}$/u;
const SHA256 = /^[0-9a-f]{64}$/u;

export interface LandingClaim {
  readonly landingId: string;
  readonly eventSha256: string;
}

/** An accepted landing as the ledger recorded it: what a commit may claim. */
export interface LandingRecord extends LandingClaim {
  readonly workScopeId: string;
  /** Workspace-relative POSIX paths the landing recorded. */
  readonly changedPaths: readonly string[];
}

export function isLandingId(text: string): boolean {
  return LANDING_ID.test(text);
}

export function isScopeId(text: string): boolean {
  return SCOPE_ID.test(text);
}

/** `<landingId> <eventSha256>`, or null for anything else (extra spaces, a short hash, upper case). */
export function parseLandingValue(value: string): LandingClaim | null {
  const parts = value.split(" ");
  if (parts.length !== 2) return null;
  const [landingId, eventSha256] = parts as [string, string];
  return isLandingId(landingId) && SHA256.test(eventSha256) ? { landingId, eventSha256 } : null;
}

export function landingValue(claim: LandingClaim): string {
  return `${claim.landingId} ${claim.eventSha256}`;
}

/** The landings worth writing: valid ids and hashes only (a ledger value that is not is never written). */
export function writableLandings(records: readonly LandingRecord[]): LandingRecord[] {
  return records.filter((record) => isLandingId(record.landingId) && SHA256.test(record.eventSha256) && isScopeId(record.workScopeId));
}

/**
 * Which commits already carry which of a landing's paths: landing id → path → the commits that
 * claim the landing and changed that path. A path is "carried" once such a commit exists.
 */
export type CarriedPaths = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

/** Whether a commit other than `self` already carries `landingId`'s `path`. */
export function carriedElsewhere(carried: CarriedPaths, landingId: string, path: string, self: string | null): boolean {
  const holders = carried.get(landingId)?.get(path);
  if (holders === undefined) return false;
  for (const holder of holders) if (holder !== self) return true;
  return false;
}

/**
 * The landings a change of `paths` (workspace-relative POSIX) carries: those that recorded at
 * least one of them that no other commit carries yet. A landing is never claimed for paths it
 * did not record, and a path another commit already carried for it (say a later hand edit of a
 * landed file) does not claim it again; sorted by landing id.
 */
export function matchingLandings(records: readonly LandingRecord[], paths: readonly string[], carried: CarriedPaths = new Map(), self: string | null = null): LandingRecord[] {
  const changed = new Set(paths);
  const seen = new Set<string>();
  const matched: LandingRecord[] = [];
  for (const record of writableLandings(records)) {
    if (seen.has(record.landingId)) continue;
    if (record.changedPaths.some((entry) => changed.has(entry) && !carriedElsewhere(carried, record.landingId, entry, self))) {
      seen.add(record.landingId);
      matched.push(record);
    }
  }
  return matched.sort((a, b) => compareCodeUnits(a.landingId, b.landingId));
}

/** The lines for some matched landings: each landing, then each of their scopes once. */
export function linkLines(records: readonly LandingRecord[]): string[] {
  const landings = records.map((record) => `${LANDING_KEY}: ${landingValue(record)}`);
  const scopes = [...new Set(records.map((record) => record.workScopeId))].sort(compareCodeUnits).map((scope) => `${SCOPE_KEY}: ${scope}`);
  return [...landings, ...scopes];
}

export interface ParsedLinks {
  readonly landings: LandingClaim[];
  readonly scopes: string[];
  /** Lines that named a Docket key but whose value is not valid (reported, never used). */
  readonly malformed: string[];
}

/**
 * Reads `Key: value` lines (a note's text, or trailers Git parsed). Key matching ignores case, as
 * Git's does; values must be exact. Other keys and lines are ignored.
 */
export function parseLinkLines(text: string): ParsedLinks {
  const landings: LandingClaim[] = [];
  const scopes: string[] = [];
  const malformed: string[] = [];
  const seenLandings = new Set<string>();
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).replace(/^ /u, "");
    if (key === LANDING_KEY.toLowerCase()) {
      const claim = parseLandingValue(value);
      if (claim === null) malformed.push(line);
      else if (!seenLandings.has(claim.landingId)) {
        seenLandings.add(claim.landingId);
        landings.push(claim);
      }
    } else if (key === SCOPE_KEY.toLowerCase()) {
      if (isScopeId(value)) {
        if (!scopes.includes(value)) scopes.push(value);
      } else malformed.push(line);
    }
  }
  return { landings, scopes, malformed };
}

/** A note's exact text for some landings (what `docket link` writes and compares). */
export function noteText(records: readonly LandingRecord[]): string {
  return `${linkLines(records).join("\n")}\n`;
}
