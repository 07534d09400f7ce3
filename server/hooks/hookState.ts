// What a hook needs to know about the workspace, answered from the verified checkpoint when it is
// current, from the checkpoint plus the ledger lines after it when it is behind, and from one full
// replay only when there is no usable checkpoint (each slow answer rewrites it for the next call). Hooks
// only read the ledger: they never take its lock, so a writer holding it cannot stall them.
import fs from "node:fs";
import { findWorkspaceRoot, resolveLedgerPath } from "../workspace/ledgerPaths";
import { lookupCheckpoint, type CheckpointState } from "./checkpoint";

export type HookState =
  /** No ledger: Docket was never turned on here, so it governs nothing. */
  | { readonly kind: "off"; readonly workspaceFolder: string; readonly ledgerPath: string }
  /** A ledger exists but cannot be trusted: corrupt, foreign, unreadable or replay-blocked. */
  | { readonly kind: "blocked"; readonly workspaceFolder: string; readonly ledgerPath: string; readonly reason: string }
  | {
      readonly kind: "ready";
      readonly workspaceFolder: string;
      readonly ledgerPath: string;
      readonly state: CheckpointState;
      /** "checkpoint": current; "tail": behind, lines after it reduced; "replay": no usable checkpoint. */
      readonly source: "checkpoint" | "tail" | "replay";
    };

export function locateWorkspace(cwd: string): { workspaceFolder: string; ledgerPath: string } {
  const workspaceFolder = findWorkspaceRoot(cwd);
  return { workspaceFolder, ledgerPath: resolveLedgerPath(workspaceFolder, null) };
}

export function readHookState(workspaceFolder: string, ledgerPath: string): HookState {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(ledgerPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "off", workspaceFolder, ledgerPath };
    return { kind: "blocked", workspaceFolder, ledgerPath, reason: `the ledger cannot be read (${code ?? "error"})` };
  }
  if (!stat.isFile()) return { kind: "blocked", workspaceFolder, ledgerPath, reason: "the ledger path is not a file" };
  const lookup = lookupCheckpoint(ledgerPath);
  let state: CheckpointState;
  let source: "checkpoint" | "tail" | "replay";
  if (lookup.kind === "current") {
    state = lookup.checkpoint.state;
    source = "checkpoint";
  } else {
    // Loaded only here: the slow path pulls in the reducer, which a current checkpoint avoids.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const slow = require("./replayState") as typeof import("./replayState");
    const replayed = lookup.kind === "behind" ? slow.catchUpHookState(ledgerPath, lookup.checkpoint) : slow.replayHookState(ledgerPath);
    if (replayed.kind === "fault") return { kind: "blocked", workspaceFolder, ledgerPath, reason: replayed.reason };
    state = replayed.state;
    source = replayed.source;
  }
  if (state.blockedReason !== null) return { kind: "blocked", workspaceFolder, ledgerPath, reason: state.blockedReason };
  return { kind: "ready", workspaceFolder, ledgerPath, state, source };
}
