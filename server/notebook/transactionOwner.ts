// Who holds a Notebook's publication lock. The reference Observer's lock is the folder
// `.observer/transactions/active` itself; Docket adds `active/docket-owner.json` naming the process
// (host, pid, and its start time so a reused pid is not mistaken for the owner). A Docket
// publisher owns the lock only once that file is in place: it is written to a temporary name and
// hard-linked, so it appears whole and only one process can ever put it there. Recovery takes a
// dead owner's lock over by renaming its own owner file over the old one, and a process that gives
// a lock up for recovery (a rollback it could not finish) marks it `released`, so a long-lived
// process (the VS Code backend) never keeps a lock busy that nobody is working on.
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { processAlive, processStartTime } from "../ledger/lock";
import type { NotebookWriter } from "./notebookWriter";

export const OWNER_FILE = "docket-owner.json";

const Owner = z.strictObject({
  pid: z.number().int().positive(),
  hostname: z.string(),
  /** Linux /proc start time of `pid`; absent in owner files of earlier Docket versions. */
  startTime: z.string().nullable().optional(),
  /** Nobody works on this transaction any more: recovery may take it over. */
  released: z.literal(true).optional(),
});
export type TransactionOwner = z.infer<typeof Owner>;

const OWNER_TEMPORARY = /^\.docket-owner\.json\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/u;

/** A Docket owner file that was being written when its process died: never anyone's lock. */
export function isOwnerTemporary(name: string): boolean {
  return OWNER_TEMPORARY.test(name);
}

export function thisProcessOwner(): TransactionOwner {
  return { pid: process.pid, hostname: os.hostname(), startTime: processStartTime(process.pid) };
}

export type OwnerRead = { readonly state: "missing" } | { readonly state: "bad"; readonly message: string } | { readonly state: "ok"; readonly owner: TransactionOwner };

export function readOwner(writer: NotebookWriter, active: string): OwnerRead {
  const file = path.join(active, OWNER_FILE);
  let bytes: Buffer | null;
  try {
    bytes = writer.read(file);
  } catch (error) {
    return { state: "bad", message: `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (bytes === null) return { state: "missing" };
  try {
    const parsed = Owner.safeParse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
    if (parsed.success) return { state: "ok", owner: parsed.data };
  } catch {
    // Reported below like any other malformed owner file.
  }
  return { state: "bad", message: `${file} is not a Docket owner file` };
}

/**
 * Null when the lock is free to recover; else who may still be working on it: a live process of
 * this machine, or a process of another machine (which cannot be checked from here).
 */
export function liveOwner(owner: TransactionOwner, isAlive: (pid: number) => boolean = processAlive): { readonly where: "here" | "elsewhere"; readonly message: string } | null {
  if (owner.released === true) return null;
  if (owner.hostname !== os.hostname()) return { where: "elsewhere", message: `a publication on ${owner.hostname} holds the lock; it cannot be checked from this machine` };
  // A publication or recovery of this process never spans calls (both are synchronous): our own pid is a leftover.
  if (owner.pid === process.pid) return null;
  if (!isAlive(owner.pid)) return null;
  const recorded = owner.startTime ?? null;
  if (recorded !== null) {
    const current = processStartTime(owner.pid);
    if (current !== null && current !== recorded) return null;
  }
  return { where: "here", message: `process ${owner.pid} is publishing to or recovering this notebook` };
}

function ownerText(owner: TransactionOwner): string {
  return `${JSON.stringify(owner)}\n`;
}

function temporaryIn(active: string): string {
  return path.join(active, `.${OWNER_FILE}.${randomUUID()}.tmp`);
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Makes this process the owner of a lock folder it has just created. False when another process
 * got there first (its owner file is in place, or recovery removed the empty folder meanwhile):
 * then this process owns nothing and must not remove anything.
 */
export function claimNewLock(writer: NotebookWriter, active: string): boolean {
  const temporary = temporaryIn(active);
  try {
    writer.createFile(temporary, ownerText(thisProcessOwner()));
    writer.link(temporary, path.join(active, OWNER_FILE));
  } catch (error) {
    if (errnoOf(error) === "EEXIST" || errnoOf(error) === "ENOENT") {
      try {
        writer.unlink(temporary);
      } catch {
        // Gone with the folder, or the folder is someone else's now: nothing of ours to remove.
      }
      return false;
    }
    throw error;
  }
  writer.unlink(temporary);
  return true;
}

/** Replaces the owner file whole (temp + rename): recovery taking over a dead owner's lock, or giving one up. */
function replaceOwner(writer: NotebookWriter, active: string, owner: TransactionOwner): void {
  const temporary = temporaryIn(active);
  writer.createFile(temporary, ownerText(owner));
  writer.rename(temporary, path.join(active, OWNER_FILE));
}

export function takeOverLock(writer: NotebookWriter, active: string): void {
  replaceOwner(writer, active, thisProcessOwner());
}

/** Gives the lock up for recovery: the folder stays, but no live process claims it any more. */
export function releaseLock(writer: NotebookWriter, active: string): void {
  replaceOwner(writer, active, { ...thisProcessOwner(), released: true });
}
