// When to SIGKILL a writer. Besides a plain delay, the trigger can wait for what the writer does
// on disk (inotify through fs.watch): the moment it takes a lock, releases it (the post-write work:
// checkpoint, provenance, baselines) or creates a temporary file, then wait a seeded fraction of a
// millisecond or a few milliseconds more. That reaches the windows inside the lock without any
// fault-injection seam in Docket's code.
import fs from "node:fs";
import path from "node:path";
import { killProcess } from "./writers";

export type KillMode = "timed" | "lock" | "unlock" | "tmp" | "torn";
export const KILL_MODES: readonly KillMode[] = ["timed", "lock", "unlock", "tmp", "torn"];

export interface KillPlan {
  readonly mode: KillMode;
  /** timed: after the write started; otherwise after the awaited file event. */
  readonly delayMs: number;
}

export interface ArmedKill {
  /** Stops watching and cancels a kill not yet sent; returns what triggered the kill, or null when none was sent. */
  disarm(): string | null;
}

/** Kills `pid` after `delayMs`; returns a cancel function for a kill not yet sent. */
function waitThenKill(pid: number, delayMs: number, done: () => void): () => void {
  // Below 2 ms a timer is too coarse: spin on the high-resolution clock instead.
  if (delayMs < 2) {
    const until = process.hrtime.bigint() + BigInt(Math.round(delayMs * 1e6));
    while (process.hrtime.bigint() < until) {
      // spin
    }
    killProcess(pid);
    done();
    return () => undefined;
  }
  const timer = setTimeout(() => {
    killProcess(pid);
    done();
  }, delayMs);
  return () => clearTimeout(timer);
}

/**
 * Arms a kill of `pid`. `lockNames` are the lock files this kind of writer takes (file names in
 * the watched folders); `folders` are watched for them and for `*.tmp` files (new subfolders of
 * a watched folder are watched too, so baseline folders created during the write are covered).
 */
export function armKill(pid: number, plan: KillPlan, folders: readonly string[], lockNames: readonly string[]): ArmedKill {
  let trigger: string | null = null;
  let fired = false;
  let cancel: () => void = () => undefined;
  const watchers = new Map<string, fs.FSWatcher>();
  const closeAll = (): void => {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
  const fire = (why: string, delayMs: number): void => {
    if (fired) return;
    fired = true;
    closeAll();
    cancel = waitThenKill(pid, delayMs, () => (trigger = `${why}+${delayMs.toFixed(2)}ms`));
  };
  if (plan.mode === "timed") {
    fired = true;
    const timer = setTimeout(() => {
      killProcess(pid);
      trigger = `timed ${plan.delayMs.toFixed(1)}ms`;
    }, plan.delayMs);
    return {
      disarm: () => {
        clearTimeout(timer);
        return trigger;
      },
    };
  }
  // A lock seen created, or seen in two events (created and removed before we could look).
  const lockEvents = new Map<string, number>();
  const watch = (folder: string): void => {
    if (watchers.has(folder)) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(folder, (_event, name) => {
        if (fired || name === null) return;
        const file = path.join(folder, name);
        if (lockNames.includes(name)) {
          const exists = fs.existsSync(file);
          const events = (lockEvents.get(file) ?? 0) + (exists ? 2 : 1);
          lockEvents.set(file, events);
          if ((plan.mode === "lock" || plan.mode === "torn") && exists) fire(`in lock ${name}`, plan.delayMs);
          else if (plan.mode === "unlock" && !exists && events >= 2) fire(`after lock ${name} released`, plan.delayMs);
          return;
        }
        if (plan.mode === "tmp" && name.endsWith(".tmp")) return fire(`at ${name}`, plan.delayMs);
        try {
          if (fs.statSync(file).isDirectory()) watch(file);
        } catch {
          // gone again
        }
      });
    } catch {
      return; // the folder does not exist (yet)
    }
    watcher.on("error", () => undefined);
    watchers.set(folder, watcher);
  };
  for (const folder of folders) watch(folder);
  return {
    disarm: () => {
      closeAll();
      cancel();
      fired = true;
      return trigger;
    },
  };
}

/** The folders a writer of the workspace touches, for `armKill`. */
export function watchedFolders(docketFolder: string): string[] {
  const folders = [docketFolder, path.join(docketFolder, "hooks"), path.join(docketFolder, "evidence"), path.join(docketFolder, "baselines")];
  try {
    for (const entry of fs.readdirSync(path.join(docketFolder, "baselines"), { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(path.join(docketFolder, "baselines", entry.name));
    }
  } catch {
    // no baselines yet
  }
  return folders;
}
