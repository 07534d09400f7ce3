// Which workspaces govern one hook call. The answer never comes from "the nearest `.git` above the
// cwd" alone: an agent that once ran `git init x && cd x` (or met an empty `.git` file) would
// otherwise step out of its workspace's gate for good. Instead a call is governed by every folder
// that encloses any of its anchors and has Docket on (`<folder>/.docket/ledger.jsonl` exists):
//   - the workspace Connect wrote into the hook command (`--workspace`, an absolute real path),
//   - the cwd the host reports (else the hook process's own cwd),
//   - every location the tool input names (file paths, workdirs, patch headers),
// each both as written and through its real path, so a symlinked folder leads to its target's
// workspace as well. The caller decides with all of them and denies if any denies.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { anchorPathFor } from "../ledger/anchor";
import { findWorkspaceRoot, resolveLedgerPath } from "../workspace/ledgerPaths";

export interface DocketWorkspace {
  readonly folder: string;
  readonly ledgerPath: string;
}

export interface HookAnchors {
  /** `--workspace` of the installed command; null for commands written before it existed. */
  readonly configured: string | null;
  /** The host's cwd when absolute, else the hook process's. */
  readonly cwd: string;
  /** Locations named by the tool input, as written (relative ones are taken from `cwd`). */
  readonly paths: readonly string[];
}

export interface HookWorkspaces {
  /** Every folder with Docket on that encloses an anchor: the configured workspace's first, nearest first. */
  readonly docketOn: readonly DocketWorkspace[];
  /**
   * Where heartbeats and captured evidence go: the configured workspace; for older commands the
   * first Docket-on folder above the cwd, else the Git root above it (as before).
   */
  readonly primary: string;
}

/** Guards against a symlink loop or an absurd depth; real paths are far shallower. */
const MAX_DEPTH = 512;

function ledgerExists(folder: string): boolean {
  // lstat: a ledger that is a symlink, a folder or unreadable still means "Docket was turned on
  // here"; whether it can be trusted is the state reader's question (it fails closed). So does a
  // head anchor without its ledger: a deleted ledger is every line cut, not Docket turned off.
  try {
    const ledger = resolveLedgerPath(folder, null);
    return fs.lstatSync(ledger, { throwIfNoEntry: false }) !== undefined || fs.lstatSync(anchorPathFor(ledger), { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    // A file named like a folder, a symlink loop or an overlong name: certainly no ledger there.
    // Anything else (permission denied…) cannot prove Docket is off, so it counts as on.
    return !ABSENT.has((error as NodeJS.ErrnoException).code ?? "");
  }
}

const ABSENT = new Set(["ENOENT", "ENOTDIR", "ELOOP", "ENAMETOOLONG"]);

/**
 * The real path of `raw`, also when its last components do not exist yet (a file being created):
 * the deepest existing ancestor is resolved and the rest appended. Null when nothing resolves.
 */
function realLocation(raw: string): string | null {
  let head = raw;
  const rest: string[] = [];
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    try {
      const real = fs.realpathSync.native(head);
      return rest.length === 0 ? real : path.resolve(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return null;
      rest.push(path.basename(head));
      head = parent;
    }
  }
  return null;
}

/** An anchor as absolute locations: lexically normalized, and through its real path when that differs. */
export function anchorLocations(anchor: string, base: string): string[] {
  let value = anchor;
  if (value.startsWith("file:")) {
    try {
      value = fileURLToPath(value);
    } catch {
      return [];
    }
  }
  if (value.includes("\0")) return [];
  // Unnormalized on purpose for the real path: `link/..` is the link target's parent, not `.`.
  const raw = path.isAbsolute(value) ? value : `${base}${path.sep}${value}`;
  const lexical = path.resolve(raw);
  const real = realLocation(raw);
  return real === null || real === lexical ? [lexical] : [lexical, real];
}

export function resolveHookWorkspaces(anchors: HookAnchors): HookWorkspaces {
  const checked = new Set<string>();
  const found: DocketWorkspace[] = [];
  const seen = new Set<string>();
  const visit = (location: string): void => {
    let current = location;
    for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
      if (checked.has(current)) return; // its ancestors were walked already
      checked.add(current);
      if (ledgerExists(current) && !seen.has(current)) {
        seen.add(current);
        found.push({ folder: current, ledgerPath: resolveLedgerPath(current, null) });
      }
      const parent = path.dirname(current);
      if (parent === current) return;
      current = parent;
    }
  };
  const cwd = path.resolve(anchors.cwd);
  const configured = anchors.configured === null ? null : path.resolve(cwd, anchors.configured);
  if (configured !== null) for (const location of anchorLocations(configured, cwd)) visit(location);
  const afterConfigured = found.length;
  for (const location of anchorLocations(cwd, cwd)) visit(location);
  const cwdFound = found.slice(afterConfigured);
  for (const anchor of anchors.paths) for (const location of anchorLocations(anchor, cwd)) visit(location);
  const primary = configured ?? cwdFound[0]?.folder ?? findWorkspaceRoot(cwd);
  return { docketOn: found, primary };
}
