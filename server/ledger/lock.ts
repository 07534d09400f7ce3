// Cross-process exclusive lock for ledger appends (file-system adapter). The lock is a file
// created with O_EXCL that names its owner (host, pid, process start time). A lock whose owner
// process is gone on this host is stale and is removed under a short "breaker" lock that
// re-checks the same owner token first, so two processes can never both break one lock and
// then delete each other's fresh lock.
import fs from "node:fs";
import os from "node:os";
import { randomBytes } from "node:crypto";
import { O_NOFOLLOW, readBounded } from "../workspace/containedFs";

/** An owner file is a few hundred bytes of JSON. */
const MAX_OWNER_BYTES = 4 * 1024;

export interface LockOwner {
  readonly token: string;
  readonly pid: number;
  readonly hostname: string;
  /** Process start time (Linux /proc ticks) to tell a reused pid from the real owner. */
  readonly startTime: string | null;
  readonly acquiredAt: string;
  readonly purpose: string;
}

export class LockTimeoutError extends Error {
  constructor(
    readonly lockPath: string,
    readonly owner: LockOwner | null,
  ) {
    super(
      owner === null
        ? `The ledger is locked (${lockPath}) and the lock could not be acquired in time.`
        : `The ledger is locked by process ${owner.pid} on ${owner.hostname} (${owner.purpose}, since ${owner.acquiredAt}).`,
    );
    this.name = "LockTimeoutError";
  }
}

export interface LockOptions {
  readonly timeoutMs?: number;
  readonly purpose?: string;
  /** Age after which an owner file that cannot be read at all counts as abandoned. */
  readonly unreadableStaleMs?: number;
  /**
   * fsync the owner record (default). A lock on a hook's critical path may skip it: after a power
   * loss an empty owner file is unreadable and counts as abandoned after `unreadableStaleMs`.
   */
  readonly durableOwner?: boolean;
}

/** A process's start time (Linux /proc ticks), to tell a reused pid from the process that wrote an owner file. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null; // field 22 overall: starttime
  } catch {
    return null;
  }
}

/** Whether a process with this pid exists on this host (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The owner named in a lock file; null when it cannot be read. Never through a link, never a
 * device or pipe, never more than MAX_OWNER_BYTES: a repository can ship `.docket/*.lock.break` as
 * a link to /dev/zero, which an ordinary read would follow until memory ran out.
 */
function readOwner(path: string): LockOwner | null {
  try {
    const fd = fs.openSync(path, fs.constants.O_RDONLY | O_NOFOLLOW | fs.constants.O_NONBLOCK);
    let text: string;
    try {
      text = readBounded(fd, path, MAX_OWNER_BYTES).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null) return null;
    const owner = parsed as Record<string, unknown>;
    if (typeof owner.token !== "string" || typeof owner.pid !== "number" || typeof owner.hostname !== "string") return null;
    return {
      token: owner.token,
      pid: owner.pid,
      hostname: owner.hostname,
      startTime: typeof owner.startTime === "string" ? owner.startTime : null,
      acquiredAt: typeof owner.acquiredAt === "string" ? owner.acquiredAt : "unknown time",
      purpose: typeof owner.purpose === "string" ? owner.purpose : "unknown purpose",
    };
  } catch {
    return null;
  }
}

/** True when the owner certainly no longer holds the lock (dead or reused pid on this host). */
export function ownerIsDead(owner: LockOwner): boolean {
  if (owner.hostname !== os.hostname()) return false; // cannot judge another machine's processes
  if (!processAlive(owner.pid)) return true;
  if (owner.startTime !== null) {
    const current = processStartTime(owner.pid);
    return current !== null && current !== owner.startTime;
  }
  return false;
}

function ageMs(path: string): number {
  try {
    // The lock file itself (a link's own age), never what a link points at.
    return Date.now() - fs.lstatSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function tryCreate(path: string, owner: LockOwner, durable = true): boolean {
  let fd: number;
  try {
    fd = fs.openSync(path, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    fs.writeSync(fd, JSON.stringify(owner));
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function removeIfToken(path: string, token: string | null, unreadableStaleMs: number): boolean {
  const current = readOwner(path);
  if (current === null ? token === null && ageMs(path) >= unreadableStaleMs : current.token === token) {
    try {
      fs.unlinkSync(path);
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function newOwner(purpose: string): LockOwner {
  return {
    token: randomBytes(12).toString("hex"),
    pid: process.pid,
    hostname: os.hostname(),
    startTime: processStartTime(process.pid),
    acquiredAt: new Date().toISOString(),
    purpose,
  };
}

/** Removes a stale lock observed with `observedToken`, serialized by the breaker lock. */
function breakStaleLock(lockPath: string, observedToken: string | null, unreadableStaleMs: number): void {
  const breakerPath = `${lockPath}.break`;
  const breaker = newOwner("breaking a stale ledger lock");
  if (!tryCreate(breakerPath, breaker)) {
    const other = readOwner(breakerPath);
    // A breaker is held for microseconds; one left by a dead process is removed.
    if ((other !== null && ownerIsDead(other)) || (other === null && ageMs(breakerPath) >= unreadableStaleMs)) {
      removeIfToken(breakerPath, other?.token ?? null, unreadableStaleMs);
    }
    return;
  }
  try {
    removeIfToken(lockPath, observedToken, unreadableStaleMs);
  } finally {
    removeIfToken(breakerPath, breaker.token, unreadableStaleMs);
  }
}

/** Runs `action` while holding the exclusive lock at `lockPath`. */
export async function withExclusiveLock<T>(lockPath: string, action: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const unreadableStaleMs = options.unreadableStaleMs ?? 5_000;
  const owner = newOwner(options.purpose ?? "appending to the ledger");
  const started = Date.now();
  let delay = 2;
  for (;;) {
    if (tryCreate(lockPath, owner, options.durableOwner ?? true)) break;
    const current = readOwner(lockPath);
    const stale = current === null ? ageMs(lockPath) >= unreadableStaleMs : ownerIsDead(current);
    if (stale) {
      breakStaleLock(lockPath, current?.token ?? null, unreadableStaleMs);
      // A lock that cannot be broken (a fresh unreadable breaker) must not spin past the timeout.
      if (Date.now() - started >= timeoutMs) throw new LockTimeoutError(lockPath, current);
      await sleep(1);
      continue;
    }
    if (Date.now() - started >= timeoutMs) throw new LockTimeoutError(lockPath, current);
    await sleep(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 50);
  }
  try {
    return await action();
  } finally {
    removeIfToken(lockPath, owner.token, unreadableStaleMs);
  }
}

/** Reads who holds the lock right now, if anyone (for status and error messages). */
export function currentLockOwner(lockPath: string): LockOwner | null {
  return readOwner(lockPath);
}
