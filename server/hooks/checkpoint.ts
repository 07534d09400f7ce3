// The hook checkpoint: what the tool policy needs, pinned to a ledger position. Writers refresh it
// inside the ledger lock after every append (checkpointWriter.ts); a hook trusts it only after
// checking that the ledger still holds, at the recorded offset, the exact bytes of the recorded
// head line. The head line carries the hash chain, so a matching head line means the same history
// as far as an incremental reader can tell (a full `docket ledger verify` re-checks every line).
// This file is on the hook's hot path: it reads two small files and compares one line's bytes
// (a byte comparison, not a hash: loading node:crypto alone costs a noticeable part of a start).
import fs from "node:fs";
import * as z from "zod/mini";
import type { RuntimeFacts } from "../developer/toolPolicy";

export const CHECKPOINT_FORMAT = "docket/hook-checkpoint/v1";

/** Bytes of a tail Docket reads to tell a torn write from new lines; more means "replay". */
const MAX_TAIL_PROBE = 64 * 1024;

const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/u));
const count = z.int().check(z.nonnegative());

const Facts = z.strictObject({
  blocked: z.boolean(),
  scopeActive: z.boolean(),
  authorizationActive: z.boolean(),
  openFrame: z.boolean(),
  concludedFrameExists: z.boolean(),
  reroutePending: z.boolean(),
  verificationPending: z.boolean(),
});

export const CheckpointState = z.strictObject({
  /** Why the history is blocked (replay rejection, several open scopes); null when it is not. */
  blockedReason: z.nullable(z.string()),
  phase: z.enum(["off", "deciding", "ready-to-edit", "editing", "rerouting", "verifying", "done", "blocked"]),
  workScopeId: z.nullable(z.string()),
  purpose: z.nullable(z.enum(["work-decision", "reroute-decision", "verification-decision"])),
  facts: Facts,
});
export type CheckpointState = z.infer<typeof CheckpointState>;

export const Checkpoint = z.strictObject({
  format: z.literal(CHECKPOINT_FORMAT),
  ledger: z.strictObject({
    /** Offset just past the last complete line the state covers. */
    bytes: count,
    lines: count,
    headLine: z.nullable(
      z.strictObject({
        offset: count,
        length: z.int().check(z.positive()),
        /** The line's exact text, newline included (ledger lines are canonical UTF-8 JSON). */
        text: z.string(),
        /** The line's own chained hash (`lineSha256`), for people reading the file. */
        lineSha256: sha256,
      }),
    ),
  }),
  state: CheckpointState,
});
export type Checkpoint = z.infer<typeof Checkpoint>;

// Compile-time check that the stored facts are exactly the policy's input.
const factsMatch: RuntimeFacts extends z.infer<typeof Facts> ? (z.infer<typeof Facts> extends RuntimeFacts ? true : never) : never = true;
void factsMatch;

/** Next to the ledger, so a custom ledger path keeps its own checkpoint. */
export function checkpointPathFor(ledgerPath: string): string {
  return `${ledgerPath}.checkpoint.json`;
}

export type CheckpointLookup =
  | { readonly kind: "current"; readonly checkpoint: Checkpoint }
  /** Missing, unreadable, of another format, or not matching the ledger's bytes. */
  | { readonly kind: "unusable"; readonly why: string }
  /** Valid for a prefix, but complete lines were appended after it. */
  | { readonly kind: "behind"; readonly checkpoint: Checkpoint };

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = fs.readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/** Reads the checkpoint and checks it against the ledger file's bytes (the ledger must exist). */
export function lookupCheckpoint(ledgerPath: string): CheckpointLookup {
  let checkpoint: Checkpoint;
  try {
    const parsed = Checkpoint.safeParse(JSON.parse(fs.readFileSync(checkpointPathFor(ledgerPath), "utf8")));
    if (!parsed.success) return { kind: "unusable", why: "the checkpoint has an unknown shape" };
    checkpoint = parsed.data;
  } catch (error) {
    return { kind: "unusable", why: `no readable checkpoint (${(error as NodeJS.ErrnoException).code ?? "invalid JSON"})` };
  }
  let fd: number;
  try {
    fd = fs.openSync(ledgerPath, "r");
  } catch {
    return { kind: "unusable", why: "the ledger cannot be opened" };
  }
  try {
    const size = fs.fstatSync(fd).size;
    const { bytes, headLine } = checkpoint.ledger;
    if (size < bytes) return { kind: "unusable", why: "the ledger is shorter than the checkpoint" };
    if (headLine === null) {
      if (bytes !== 0 || checkpoint.ledger.lines !== 0) return { kind: "unusable", why: "the checkpoint is inconsistent" };
    } else {
      if (headLine.offset + headLine.length !== bytes) return { kind: "unusable", why: "the checkpoint is inconsistent" };
      const expected = Buffer.from(headLine.text, "utf8");
      if (expected.length !== headLine.length || !readAt(fd, headLine.offset, headLine.length).equals(expected)) {
        return { kind: "unusable", why: "the ledger's line at the checkpoint differs" };
      }
    }
    if (size === bytes) return { kind: "current", checkpoint };
    // Bytes after the checkpoint without a newline are a torn write, never an entry.
    if (size - bytes > MAX_TAIL_PROBE) return { kind: "behind", checkpoint };
    const tail = readAt(fd, bytes, size - bytes);
    return tail.includes(0x0a) ? { kind: "behind", checkpoint } : { kind: "current", checkpoint };
  } finally {
    fs.closeSync(fd);
  }
}
