// What the Work view knows of each landing's commits (issue 17), asked of the backend lazily: a
// landing's commits are looked up the first time its row is opened, never for every landing at
// start (docs/performance.md "Extension start on a large ledger"). Landings opened in the same
// moment go out as one request. The landings looked at are asked again when the work state
// refreshes (the ledger moved) and when HEAD, a branch or Docket's notes move in the workspace's
// .git folder; until the new answer comes the rows keep the last one, so they do not flicker.
import * as vscode from "vscode";
import { TrailerLandingId, type LandingCommits } from "../server/protocol/messages";
import { toDocketError } from "./errors";
import type { LandingCommitsState } from "./landingCommitsModel";

/** The protocol's bound of one request; more open landings go out in several. */
const IDS_PER_REQUEST = 100;
/** Landings remembered for re-asking: the ones opened last. */
const REMEMBERED = 200;
/** Git writes several files for one commit or checkout: one re-ask after they settle. */
const GIT_SETTLE_MS = 300;
const UNKNOWN: LandingCommitsState = { kind: "unknown" };
const NONE: LandingCommitsState = { kind: "known", commits: [] };

export class LandingCommitsSource implements vscode.Disposable {
  private readonly known = new Map<string, LandingCommitsState>();
  /** Landings whose row was opened, oldest first. */
  private readonly asked = new Set<string>();
  private readonly pending = new Set<string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  private watcher: vscode.FileSystemWatcher | undefined;
  private watchedFolder: string | null = null;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /**
   * @param load asks the backend (docket/team/landingCommits) for up to 100 landings.
   * @param gitFolder the workspace folder whose .git is watched for HEAD moves, or null.
   */
  constructor(
    private readonly load: (landingIds: string[]) => Promise<LandingCommits>,
    private readonly gitFolder: () => string | null,
  ) {}

  stateOf(landingId: string): LandingCommitsState {
    return this.known.get(landingId) ?? UNKNOWN;
  }

  /** A landing's row is open: asks for its commits unless they are known or already asked for. */
  want(landingId: string): void {
    this.asked.delete(landingId);
    this.asked.add(landingId);
    for (const old of this.asked) {
      if (this.asked.size <= REMEMBERED) break;
      this.asked.delete(old);
    }
    if (this.known.has(landingId) || this.pending.has(landingId)) return;
    // An id no Docket-Landing line can name (a hand-edited ledger) is carried by no commit: nothing to ask.
    if (!TrailerLandingId.safeParse(landingId).success) {
      this.known.set(landingId, NONE);
      this.changed.fire();
      return;
    }
    this.pending.add(landingId);
    this.watchGit();
    this.schedule();
  }

  /** Asks again for every landing looked at (the ledger or Git moved). */
  refresh(): void {
    if (this.asked.size === 0) return;
    for (const landingId of this.asked) this.pending.add(landingId);
    this.schedule();
  }

  private schedule(): void {
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, 0);
  }

  private async flush(): Promise<void> {
    const ids = [...this.pending];
    this.pending.clear();
    const generation = this.generation;
    for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
      const batch = ids.slice(start, start + IDS_PER_REQUEST);
      try {
        const answer = await this.load(batch);
        if (generation !== this.generation) return;
        for (const entry of answer.landings) this.known.set(entry.landingId, { kind: "known", commits: entry.commits });
      } catch (error) {
        if (generation !== this.generation) return;
        const message = toDocketError(error, null).message;
        // A failed re-ask keeps rows that were answered before; only unanswered rows say it failed.
        for (const landingId of batch) if (this.known.get(landingId)?.kind !== "known") this.known.set(landingId, { kind: "failed", message });
      }
      this.changed.fire();
    }
  }

  /** Watches HEAD, branches, packed refs and Docket's notes once a landing's commits were asked for. */
  private watchGit(): void {
    const folder = this.gitFolder();
    if (folder === this.watchedFolder) return;
    this.watcher?.dispose();
    this.watcher = undefined;
    this.watchedFolder = folder;
    if (folder === null) return;
    // A worktree's .git is a file naming the real folder: there only the work state's refresh re-asks.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), ".git/{HEAD,packed-refs,refs/heads/**,refs/notes/**}"));
    const moved = (): void => {
      clearTimeout(this.settleTimer);
      this.settleTimer = setTimeout(() => this.refresh(), GIT_SETTLE_MS);
    };
    watcher.onDidChange(moved);
    watcher.onDidCreate(moved);
    watcher.onDidDelete(moved);
    this.watcher = watcher;
  }

  /** Forgets everything (another folder or ledger): answers still on their way are dropped. */
  reset(): void {
    this.generation++;
    this.known.clear();
    this.asked.clear();
    this.pending.clear();
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.flushTimer);
    clearTimeout(this.settleTimer);
    this.watcher?.dispose();
    this.changed.dispose();
  }
}
