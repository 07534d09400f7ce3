// What a hook needs to know about the workspace, answered from the verified checkpoint when it is
// current, from the checkpoint plus the ledger lines after it when it is behind, and from one full
// replay only when there is no usable checkpoint (each slow answer rewrites it for the next call). Hooks
// only read the ledger: they never take its lock, so a writer holding it cannot stall them.
//
// Fail closed: a ledger that is a link, one that no longer reaches its head anchor, a state that
// cannot be read before the deadline, or an allowance the ledger itself does not prove (a forged
// or shipped checkpoint) all answer "blocked", which denies shell, edit and unknown tools.
import fs from "node:fs";
import { readAnchor, readableSize } from "../ledger/anchor";
import { containmentRootFor } from "../workspace/ledgerPaths";
import { UnsafePathError, openContained } from "../workspace/containedFs";
import { allowanceClaim, proveAllowance } from "./allowProof";
import { checkAnchor } from "./anchorCheck";
import { lookupCheckpoint, type CheckpointState, type OpenLedger } from "./checkpoint";

export type HookState =
  /** No ledger: Docket was never turned on here, so it governs nothing. */
  | { readonly kind: "off"; readonly workspaceFolder: string; readonly ledgerPath: string }
  /** A ledger exists but cannot be trusted: corrupt, foreign, unreadable, cut, replay-blocked, or unproven. */
  | { readonly kind: "blocked"; readonly workspaceFolder: string; readonly ledgerPath: string; readonly reason: string }
  | {
      readonly kind: "ready";
      readonly workspaceFolder: string;
      readonly ledgerPath: string;
      readonly state: CheckpointState;
      /** "checkpoint": current; "tail": behind, lines after it reduced; "replay": no usable checkpoint. */
      readonly source: "checkpoint" | "tail" | "replay";
    };

export interface HookStateOptions {
  /** Epoch ms after which a slow replay gives up and the state reads as blocked (deny). */
  readonly deadline?: number;
}

function blocked(workspaceFolder: string, ledgerPath: string, reason: string): HookState {
  return { kind: "blocked", workspaceFolder, ledgerPath, reason };
}

type Derived = { readonly kind: "state"; readonly state: CheckpointState; readonly source: "checkpoint" | "tail" | "replay" } | { readonly kind: "fault"; readonly reason: string };

function derive(ledger: OpenLedger, options: HookStateOptions, forceReplay: boolean): Derived {
  const lookup = forceReplay ? ({ kind: "unusable", why: "replay requested" } as const) : lookupCheckpoint(ledger);
  if (lookup.kind === "current") return { kind: "state", state: lookup.checkpoint.state, source: "checkpoint" };
  // Loaded only here, each its own bundle: the tail reduction (the reducer) when behind, the store
  // and full replay when there is no checkpoint; a current checkpoint needs neither.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const replayed =
    lookup.kind === "behind"
      ? (require("./tailCatchUp") as typeof import("./tailCatchUp")).catchUpHookState(ledger, lookup.checkpoint, options)
      : (require("./replayState") as typeof import("./replayState")).replayHookState(ledger, options);
  /* eslint-enable @typescript-eslint/no-require-imports */
  return replayed.kind === "fault" ? replayed : { kind: "state", state: replayed.state, source: replayed.source };
}

/** Readings of a ledger that keeps growing under the hook before its answer stands as it is. */
const MAX_READINGS = 3;

function stateAt(workspaceFolder: string, ledgerPath: string, whole: OpenLedger, options: HookStateOptions): HookState {
  const anchored = checkAnchor(whole);
  if (anchored.kind === "fault") return blocked(workspaceFolder, ledgerPath, anchored.reason);
  // A batch being written (or cut short by a crash) is not part of the ledger yet.
  const ledger: OpenLedger = { ...whole, size: readableSize(anchored.anchor, whole.size) };
  let derived = derive(ledger, options, false);
  for (let attempt = 0; ; attempt += 1) {
    if (derived.kind === "fault") return blocked(workspaceFolder, ledgerPath, derived.reason);
    const { state, source } = derived;
    if (state.blockedReason !== null) return blocked(workspaceFolder, ledgerPath, state.blockedReason);
    if (state.facts.blocked) return blocked(workspaceFolder, ledgerPath, "the ledger history is blocked");
    const claim = allowanceClaim(state);
    if (claim === null) return { kind: "ready", workspaceFolder, ledgerPath, state, source };
    const proof = proveAllowance(ledger, claim, anchored.anchor);
    if (proof.kind === "proven") return { kind: "ready", workspaceFolder, ledgerPath, state, source };
    // A replay's own state is the ledger's truth; a proof that still fails then is the answer.
    if (source === "replay" || attempt > 0) {
      return blocked(workspaceFolder, ledgerPath, `Docket could not prove from the ledger that tools may run: ${proof.reason}`);
    }
    derived = derive(ledger, options, true);
  }
}

export function readHookState(workspaceFolder: string, ledgerPath: string, options: HookStateOptions = {}): HookState {
  const root = containmentRootFor(workspaceFolder, ledgerPath);
  let fd: number;
  try {
    fd = openContained(root, ledgerPath, "r");
  } catch (error) {
    if (error instanceof UnsafePathError) return blocked(workspaceFolder, ledgerPath, `${error.message} Docket treats a linked ledger as unusable`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return blocked(workspaceFolder, ledgerPath, `the ledger cannot be read (${code ?? "error"})`);
    // No ledger: off — unless its head anchor remains, which means the ledger was deleted, not turned off.
    const anchor = readAnchor(root, ledgerPath);
    if (anchor.kind === "anchor" && anchor.anchor.lines > 0) {
      return blocked(workspaceFolder, ledgerPath, `the ledger is gone but its head anchor records ${anchor.anchor.lines} lines; run \`docket ledger verify\``);
    }
    return { kind: "off", workspaceFolder, ledgerPath };
  }
  try {
    // The proof reads the lines the hook opened, but a replay reads the file as it is when it runs:
    // a writer appending in between (a `docket off` closing the scope) makes the two disagree. The
    // ledger only grows, so a disagreement after it grew is read again at the new size.
    for (let reading = 0; ; reading += 1) {
      const stat = fs.fstatSync(fd, { bigint: true });
      if (!stat.isFile()) return blocked(workspaceFolder, ledgerPath, "the ledger path is not a file");
      const whole: OpenLedger = { ledgerPath, root, fd, size: Number(stat.size), ino: stat.ino.toString() };
      const answer = stateAt(workspaceFolder, ledgerPath, whole, options);
      if (answer.kind !== "blocked" || reading === MAX_READINGS - 1 || Number(fs.fstatSync(fd).size) === whole.size) return answer;
    }
  } catch (error) {
    return blocked(workspaceFolder, ledgerPath, `the ledger state could not be read: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    fs.closeSync(fd);
  }
}
