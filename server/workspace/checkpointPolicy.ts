// `docket status` and `docket policy` without a replay: the tool policy read from the hook
// checkpoint (docs/hooks.md) when the ledger vouches for it, or null, and the caller replays the
// whole ledger as before. The checkpoint answers only where a replay would answer the same:
//
// - it is current for this very file (inode, the exact bytes of its head line, nothing but a torn
//   write after it) and its seal matches (a state edited by hand reads as unusable);
// - the head anchor is readable and still reached, with no batch announced (a writer mid-append
//   or one that died: the replay's rules decide what that batch counts for);
// - the state is not blocked (a blocked history's reason and policy are the replay's to word);
// - an allowance (shell and edit allowed) is proven from the ledger's own last lines and anchor,
//   as the hooks prove it (allowProof.ts), never taken from the checkpoint.
//
// Anything else — a missing, behind, unsealed or foreign checkpoint, a link, an unreadable file —
// is not an error here: it is the replay's question.
import fs from "node:fs";
import { readAnchor } from "../ledger/anchor";
import { allowanceClaim, proveAllowance } from "../hooks/allowProof";
import { checkAnchor } from "../hooks/anchorCheck";
import { lookupCheckpoint, type CheckpointState, type OpenLedger } from "../hooks/checkpoint";
import { sealIntact } from "../hooks/checkpointSeal";
import type { ToolPolicyResult } from "../protocol/messages";
import { openContained } from "./containedFs";
import { containmentRootFor } from "./ledgerPaths";
import { toolPolicyResult } from "./policyResult";

/** What the replay of an empty history describes: Docket was never on here. */
const NEVER_ON: CheckpointState = {
  blockedReason: null,
  phase: "off",
  workScopeId: null,
  purpose: null,
  facts: {
    blocked: false,
    scopeActive: false,
    authorizationActive: false,
    openFrame: false,
    concludedFrameExists: false,
    reroutePending: false,
    verificationPending: false,
  },
};

/** The policy a full replay of `ledgerPath` would report, or null when only a replay can tell. */
export function checkpointPolicy(workspaceFolder: string, ledgerPath: string): ToolPolicyResult | null {
  return checkpointAnswer(workspaceFolder, ledgerPath)?.policy ?? null;
}

/** The policy and the checkpoint state it was read from (one read, so both describe the same position). */
export function checkpointAnswer(workspaceFolder: string, ledgerPath: string): { policy: ToolPolicyResult; state: CheckpointState } | null {
  const state = vouchedState(workspaceFolder, ledgerPath);
  return state === null ? null : { policy: toolPolicyResult(state.facts, state.phase, state.workScopeId), state };
}

function vouchedState(workspaceFolder: string, ledgerPath: string): CheckpointState | null {
  const root = containmentRootFor(workspaceFolder, ledgerPath);
  let fd: number;
  try {
    fd = openContained(root, ledgerPath, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return null;
    // No ledger, and no head anchor left behind (which would mean a deleted one): never on.
    return readAnchor(root, ledgerPath).kind === "none" ? NEVER_ON : null;
  }
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    if (!stat.isFile()) return null;
    const ledger: OpenLedger = { ledgerPath, root, fd, size: Number(stat.size), ino: stat.ino.toString() };
    const anchored = checkAnchor(ledger);
    if (anchored.kind === "fault" || (anchored.anchor?.pending ?? null) !== null) return null;
    const lookup = lookupCheckpoint(ledger);
    if (lookup.kind !== "current" || !sealIntact(lookup.checkpoint)) return null;
    const state = lookup.checkpoint.state;
    if (state.blockedReason !== null || state.facts.blocked) return null;
    const claim = allowanceClaim(state);
    if (claim !== null && proveAllowance(ledger, claim, anchored.anchor).kind !== "proven") return null;
    return state;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
