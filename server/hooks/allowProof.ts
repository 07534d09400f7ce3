// Before a hook lets a gated tool run, it proves from the ledger itself that the state it would
// act on is real. Checkpoints, tail seeds and replay caches are files beside the ledger: a
// repository can ship them, a process can edit them. So a cached state is trusted for denials
// (the worst a forged "deny" does is stop the agent) but never for an allowance:
//
// - "no open scope": scanning back from the end, the last scope boundary is a closure (or the
//   ledger never opened one);
// - "authorized": the last authorization boundary is this scope's `change-authorized` (no landing
//   and no closure after it), and the head anchor — written by a Docket writer on this machine,
//   for this very file — covers it. A ledger that arrived with a repository, or a copy put in
//   place of the original, carries no such anchor: its authorization was granted elsewhere.
//
// Legitimate states sit at the very end of the ledger (after an authorization only a landing is
// legal; after a closure only a new scope), so the scan reads a few hundred bytes. A scan that
// runs past its budget proves nothing, and the caller falls back to a full replay.
import { computeToolPolicy } from "../developer/toolPolicy";
import { lineShaOfText, type LedgerAnchor } from "../ledger/anchor";
import { readAt, type CheckpointState, type OpenLedger } from "./checkpoint";

/** Windows read back from the end, small first; past the last one the proof gives up (the caller replays). */
const WINDOWS = [16 * 1024, 1024 * 1024] as const;

export type AllowanceClaim = { readonly kind: "no-open-scope" } | { readonly kind: "authorized"; readonly workScopeId: string };

/** What a cached state lets run that Docket must prove before acting on it; null when it allows nothing gated. */
export function allowanceClaim(state: CheckpointState): AllowanceClaim | null {
  const policy = computeToolPolicy(state.facts);
  if (policy.shell === "deny" && policy.edit === "deny") return null;
  if (!state.facts.scopeActive) return { kind: "no-open-scope" };
  if (state.workScopeId === null) return { kind: "authorized", workScopeId: "" };
  return { kind: "authorized", workScopeId: state.workScopeId };
}

export type AllowProof =
  | { readonly kind: "proven" }
  /** The ledger contradicts the claim: the cached state is wrong. */
  | { readonly kind: "disproven"; readonly reason: string }
  /** Nothing decisive within the budget, or a line that cannot be read: replay to know. */
  | { readonly kind: "unproven"; readonly reason: string };

interface ScannedLine {
  readonly kind: string | null;
  readonly workScopeId: string | null;
  /** Offset just past the line's newline. */
  readonly end: number;
  readonly lineSha256: string | null;
}

const BOUNDARY_KINDS = new Set(["work-scope-opened", "work-scope-closed", "change-authorized", "implementation-landing-recorded"]);

/**
 * The complete lines of the last `window` bytes, last first; `null` for a line that cannot be
 * read. Ends with "cut" when the window starts inside a line (the scan needs a larger window).
 */
function* linesFromEnd(ledger: OpenLedger, window: number): Generator<ScannedLine | null | "cut"> {
  const length = Math.min(window, ledger.size);
  const offset = ledger.size - length;
  const bytes = readAt(ledger.fd, offset, length);
  // Bytes after the last newline are a write in progress, not a line.
  let end = bytes.lastIndexOf(0x0a) + 1;
  while (end > 0) {
    const previous = end >= 2 ? bytes.lastIndexOf(0x0a, end - 2) : -1;
    if (previous < 0 && offset > 0) {
      yield "cut";
      return;
    }
    const start = previous + 1;
    yield parseLine(bytes.subarray(start, end - 1).toString("utf8"), offset + end);
    end = start;
  }
  if (offset > 0) yield "cut";
}

function parseLine(text: string, end: number): ScannedLine | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const line = parsed as { ledger?: unknown; stream?: unknown; entry?: unknown };
  if (line.ledger !== "docket/ledger-line/v1") return null;
  const lineSha256 = lineShaOfText(text);
  if (line.stream !== "developer/v8") return { kind: null, workScopeId: null, end, lineSha256 };
  const entry = line.entry as { kind?: unknown; workScopeId?: unknown } | null;
  if (typeof entry !== "object" || entry === null) return null;
  return { kind: typeof entry.kind === "string" ? entry.kind : null, workScopeId: typeof entry.workScopeId === "string" ? entry.workScopeId : null, end, lineSha256 };
}

/** Where the line the proof wants the hash of ends (the end of an announced batch), and its hash once seen. */
interface Watch {
  readonly end: number | null;
  lineSha256: string | null;
}

type ScanResult = AllowProof | { readonly kind: "authorized-at"; readonly end: number } | { readonly kind: "undecided" };

function scanWindow(ledger: OpenLedger, claim: AllowanceClaim, window: number, watch: Watch): ScanResult {
  for (const line of linesFromEnd(ledger, window)) {
    if (line === "cut") return { kind: "undecided" };
    if (line === null) return { kind: "unproven", reason: "a ledger line near its end cannot be read" };
    if (line.end === watch.end) watch.lineSha256 = line.lineSha256;
    if (line.kind === null || !BOUNDARY_KINDS.has(line.kind)) continue;
    if (claim.kind === "no-open-scope") {
      if (line.kind === "work-scope-closed") return { kind: "proven" };
      if (line.kind === "work-scope-opened") return { kind: "disproven", reason: "the ledger's last work scope is still open" };
      continue;
    }
    if (line.kind === "change-authorized" && line.workScopeId === claim.workScopeId) return { kind: "authorized-at", end: line.end };
    return { kind: "disproven", reason: `the ledger's last authorization boundary is ${line.kind}, not an active authorization` };
  }
  // Reached the first line: no scope was ever opened.
  return claim.kind === "no-open-scope" ? { kind: "proven" } : { kind: "disproven", reason: "the ledger holds no authorization" };
}

function scanned(ledger: OpenLedger, claim: AllowanceClaim, watch: Watch): Exclude<ScanResult, { kind: "undecided" }> {
  for (const window of WINDOWS) {
    const result = scanWindow(ledger, claim, window, watch);
    if (result.kind !== "undecided") return result;
  }
  return { kind: "unproven", reason: "the ledger's last scope boundary is further back than Docket reads on this path" };
}

/**
 * Proves `claim` from the ledger's last lines. `anchor` is the head anchor as read beside the
 * ledger (null when there is none); an authorization needs one bound to this file that covers it.
 */
export function proveAllowance(ledger: OpenLedger, claim: AllowanceClaim, anchor: LedgerAnchor | null): AllowProof {
  const pending = anchor?.pending ?? null;
  const watch: Watch = { end: pending?.bytes ?? null, lineSha256: null };
  const result = scanned(ledger, claim, watch);
  if (result.kind !== "authorized-at") return result;
  // A writer killed between its append and its anchor update leaves the batch it announced
  // complete on disk: the announcement covers the authorization once the batch's last line is
  // exactly the one announced.
  const announced = pending !== null && pending.bytes >= result.end && watch.lineSha256 === pending.lineSha256;
  if (anchor === null || anchor.ino !== ledger.ino || (anchor.bytes < result.end && !announced)) {
    return {
      kind: "disproven",
      reason:
        "this ledger's authorization was not recorded by Docket on this machine for this file (its head anchor is missing, belongs to another copy, or ends before the authorization); if you trust the ledger, check it with `docket ledger verify` and adopt it with `docket ledger anchor`",
    };
  }
  return { kind: "proven" };
}
