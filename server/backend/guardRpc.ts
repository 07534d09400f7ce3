// The completion guard's requests for the views (`docket/guard/overview`, `docket/guard/setMode`)
// and the watch behind `docket/guard/changed`. Reviews move with the ledger (its watcher already
// covers them), but an agent's Stop writes only its session file under `.docket/guard/sessions/`
// and `docket guard mode` only `.docket/guard/mode.json`: nothing appends to the ledger, so those
// two places are watched here and folded into the guard revision.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DocketError } from "../errors";
import { writeGuardMode } from "../guard/guardFiles";
import { guardOverview } from "../guard/guardOverview";
import { sessionsFolder } from "../guard/guardSession";
import { guardFolder } from "../guard/reviewLocator";
import type { GuardLine } from "../ledger/store";
import { ErrorCodes, GuardOverview, GuardStop, type GuardModeName, type GuardModeResult } from "../protocol/messages";

/** fs.watch is silent on some mounts (network, containers): polling keeps the views right there too. */
const POLL_INTERVAL_MS = 500;
const MAX_STAMPED_FILES = 200;

export interface GuardContext {
  readonly workspaceFolder: string | null;
  readonly trusted: boolean;
}

/** Names, sizes and modification times of the session files and the mode file; cheap to compare. */
export function guardStamp(workspaceFolder: string): string {
  const parts: string[] = [];
  const add = (file: string, name: string): void => {
    try {
      // lstat: a link is stamped as the link, never followed (the readers refuse links anyway).
      const stat = fs.lstatSync(file);
      parts.push(`${name}:${stat.size}:${stat.mtimeMs}`);
    } catch {
      // Absent: contributes nothing, so its later creation moves the stamp.
    }
  };
  add(path.join(guardFolder(workspaceFolder), "mode.json"), "mode.json");
  // The folder itself: every session write is a rename into it, so its time moves with any of
  // them, however many sessions there are.
  add(sessionsFolder(workspaceFolder), "sessions/");
  let names: string[] = [];
  try {
    const all = fs.readdirSync(sessionsFolder(workspaceFolder)).filter((name) => name.endsWith(".json")).sort();
    parts.push(`sessions:${all.length}`);
    names = all.slice(0, MAX_STAMPED_FILES);
  } catch {
    // No sessions yet.
  }
  for (const name of names) add(path.join(sessionsFolder(workspaceFolder), name), `sessions/${name}`);
  return parts.join("\n");
}

export class GuardRpc {
  private folder: string | null = null;
  private stamp = "";
  private timer: NodeJS.Timeout | null = null;
  private readonly watchers = new Map<string, fs.FSWatcher>();

  /** @param onChange called when the session or mode files changed; the caller publishes. */
  constructor(
    private readonly context: () => GuardContext,
    private readonly onChange: () => void,
  ) {}

  overview(lines: readonly GuardLine[], limit: number | undefined): GuardOverview {
    const folder = this.requireFolder();
    const overview = guardOverview(folder, lines, limit ?? 50);
    // Session files are hook-local state a person may edit: one that is not a decision shows nothing
    // instead of failing the whole answer.
    const stops = overview.stops.flatMap((stop) => {
      const parsed = GuardStop.safeParse(stop);
      return parsed.success ? [parsed.data] : [];
    });
    return GuardOverview.parse({ mode: overview.mode, reviews: overview.reviews, stops });
  }

  setMode(mode: GuardModeName): GuardModeResult {
    const folder = this.requireFolder();
    if (!this.context().trusted) {
      throw new DocketError(ErrorCodes.untrusted, "This workspace is not trusted, so Docket will not change its completion guard mode.");
    }
    writeGuardMode(folder, mode);
    this.check();
    return { mode };
  }

  /** A digest of the ledger's revision and the guard's files: moves whenever the overview may. */
  revision(ledgerRevision: string): string {
    return createHash("sha256").update(`${ledgerRevision}\0${this.stamp}`, "utf8").digest("hex");
  }

  watch(workspaceFolder: string | null): void {
    this.stop();
    this.folder = workspaceFolder;
    if (workspaceFolder === null) return;
    this.stamp = guardStamp(workspaceFolder);
    this.timer = setInterval(() => this.check(), POLL_INTERVAL_MS);
    this.timer.unref();
    this.arm();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.folder = null;
    this.stamp = "";
  }

  private requireFolder(): string {
    const folder = this.context().workspaceFolder;
    if (folder === null) throw new DocketError(ErrorCodes.noWorkspace, "Open a folder to see completion reviews: they live in the workspace folder.");
    return folder;
  }

  /** Watches the guard folders that exist now; the poll arms the rest once they appear. */
  private arm(): void {
    const folder = this.folder;
    if (folder === null) return;
    for (const directory of [guardFolder(folder), sessionsFolder(folder)]) {
      if (this.watchers.has(directory)) continue;
      try {
        const watcher = fs.watch(directory, { persistent: false }, () => this.check());
        watcher.on("error", () => {
          watcher.close();
          this.watchers.delete(directory);
        });
        this.watchers.set(directory, watcher);
      } catch {
        // Not there yet.
      }
    }
  }

  private check(): void {
    const folder = this.folder;
    if (folder === null) return;
    this.arm();
    const next = guardStamp(folder);
    if (next === this.stamp) return;
    this.stamp = next;
    this.onChange();
  }
}
