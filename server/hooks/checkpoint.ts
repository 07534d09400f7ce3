// The hook checkpoint: what the tool policy needs, pinned to a ledger position. Writers refresh it
// inside the ledger lock after every append (checkpointWriter.ts); a hook trusts it only after
// checking that the ledger still holds, at the recorded offset, the exact bytes of the recorded
// head line. The head line carries the hash chain, so a matching head line means the same history
// as far as an incremental reader can tell (a full `docket ledger verify` re-checks every line).
// This file is on the hook's hot path: it reads two small files and compares one line's bytes
// (a byte comparison, not a hash: loading node:crypto alone costs a noticeable part of a start).
//
// A checkpoint only ever saves work: its state is believed for denials and context, never for
// letting a gated tool run (allowProof.ts proves those from the ledger's own last lines). It is
// also bound to the ledger file's inode, so one that arrives with a cloned repository (or beside
// a ledger put in place of the original) does not describe this file. Its seal (checkpointSeal.ts)
// is checked by readers that show the state as the ledger's (`docket status`), not here: the
// hook's denials do not depend on it, and its hash would cost the hot path node:crypto.
import fs from "node:fs";
import path from "node:path";
import * as z from "zod/mini";
import type { RuntimeFacts } from "../developer/toolPolicy";
import { readContained } from "../workspace/containedFs";
import { CHECKPOINT_FORMAT, checkpointPathFor } from "./checkpointPath";
import { readAt, type OpenLedger } from "./openLedger";

export { CHECKPOINT_FORMAT, checkpointPathFor, readAt, type OpenLedger };

/** Bytes of a tail Docket reads to tell a torn write from new lines; more means "replay". */
const MAX_TAIL_PROBE = 64 * 1024;

const PHASES = ["off", "deciding", "ready-to-edit", "editing", "rerouting", "verifying", "done", "blocked"] as const;
const PURPOSES = ["work-decision", "reroute-decision", "verification-decision"] as const;

function buildCheckpointSchemas() {
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
  const CheckpointState = z.strictObject({
    /** Why the history is blocked (replay rejection, several open scopes); null when it is not. */
    blockedReason: z.nullable(z.string()),
    phase: z.enum(PHASES),
    workScopeId: z.nullable(z.string()),
    purpose: z.nullable(z.enum(PURPOSES)),
    facts: Facts,
  });
  const Checkpoint = z.strictObject({
    format: z.literal(CHECKPOINT_FORMAT),
    ledger: z.strictObject({
      /** The ledger file's inode number (decimal): a checkpoint describes that file only. */
      ino: z.string().check(z.regex(/^[0-9]{1,24}$/u)),
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
    /** sha256 of the canonical `ledger` and `state` (checkpointSeal.ts): a checkpoint edited by hand or by a tool no longer matches it. */
    seal: sha256,
  });
  return { Facts, CheckpointState, Checkpoint };
}

type CheckpointSchemas = ReturnType<typeof buildCheckpointSchemas>;
let schemas: CheckpointSchemas | null = null;

/**
 * The checkpoint's zod schemas, built on first use: a hook reads the checkpoint on every call,
 * and one Docket wrote passes `checkpointOf` below without them (building them at load was the
 * last zod work on a hook's path with a current checkpoint). They stay the rule for anything
 * `checkpointOf` declines, and for readers that take their shape (receiptHead.ts).
 */
export function checkpointSchemas(): CheckpointSchemas {
  schemas ??= buildCheckpointSchemas();
  return schemas;
}

export type CheckpointState = z.infer<CheckpointSchemas["CheckpointState"]>;
export type Checkpoint = z.infer<CheckpointSchemas["Checkpoint"]>;

// Compile-time check that the stored facts are exactly the policy's input.
type StoredFacts = z.infer<CheckpointSchemas["Facts"]>;
const factsMatch: RuntimeFacts extends StoredFacts ? (StoredFacts extends RuntimeFacts ? true : never) : never = true;
void factsMatch;

const FACT_KEYS = ["blocked", "scopeActive", "authorizationActive", "openFrame", "concludedFrameExists", "reroutePending", "verificationPending"] as const;
const SHA256 = /^[0-9a-f]{64}$/u;
const INODE = /^[0-9]{1,24}$/u;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Exactly these own keys (a strict object's rule: none missing, none extra). */
function hasKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === "string";
}

/**
 * The checkpoint as `Checkpoint.safeParse` returns it (keys in the schema's order), when the
 * schema certainly accepts `value`; null when unsure, and the schema decides. A hook reads a
 * checkpoint on every call: checking it directly spares running the schema cold.
 * `test/unit/checkpointShape.test.ts` holds the two to the same answers.
 */
export function checkpointOf(value: unknown): Checkpoint | null {
  if (!isRecord(value) || !hasKeys(value, ["format", "ledger", "state", "seal"]) || value.format !== CHECKPOINT_FORMAT) return null;
  const { ledger, state, seal } = value;
  if (typeof seal !== "string" || !SHA256.test(seal) || !isRecord(ledger) || !isRecord(state)) return null;
  if (!hasKeys(ledger, ["ino", "bytes", "lines", "headLine"]) || typeof ledger.ino !== "string" || !INODE.test(ledger.ino) || !isCount(ledger.bytes) || !isCount(ledger.lines)) return null;
  let headLine: Checkpoint["ledger"]["headLine"] = null;
  if (ledger.headLine !== null) {
    const head = ledger.headLine;
    if (!isRecord(head) || !hasKeys(head, ["offset", "length", "text", "lineSha256"]) || !isCount(head.offset) || !isCount(head.length) || head.length === 0) return null;
    if (typeof head.text !== "string" || typeof head.lineSha256 !== "string" || !SHA256.test(head.lineSha256)) return null;
    headLine = { offset: head.offset, length: head.length, text: head.text, lineSha256: head.lineSha256 };
  }
  if (!hasKeys(state, ["blockedReason", "phase", "workScopeId", "purpose", "facts"]) || !isNullableString(state.blockedReason) || !isNullableString(state.workScopeId)) return null;
  if (typeof state.phase !== "string" || !(PHASES as readonly string[]).includes(state.phase) || (state.purpose !== null && (typeof state.purpose !== "string" || !(PURPOSES as readonly string[]).includes(state.purpose)))) return null;
  const facts = state.facts;
  if (!isRecord(facts) || !hasKeys(facts, FACT_KEYS) || !FACT_KEYS.every((key) => typeof facts[key] === "boolean")) return null;
  return {
    format: CHECKPOINT_FORMAT,
    ledger: { ino: ledger.ino, bytes: ledger.bytes, lines: ledger.lines, headLine },
    state: {
      blockedReason: state.blockedReason,
      phase: state.phase as CheckpointState["phase"],
      workScopeId: state.workScopeId,
      purpose: state.purpose as CheckpointState["purpose"],
      facts: Object.fromEntries(FACT_KEYS.map((key) => [key, facts[key]])) as CheckpointState["facts"],
    },
    seal,
  };
}

export type CheckpointLookup =
  | { readonly kind: "current"; readonly checkpoint: Checkpoint }
  /** Missing, unreadable, of another format, or not matching the ledger's bytes. */
  | { readonly kind: "unusable"; readonly why: string }
  /** Valid for a prefix, but complete lines were appended after it. */
  | { readonly kind: "behind"; readonly checkpoint: Checkpoint };

/** A checkpoint is a few kilobytes; a larger file is unusable (the hook then replays). */
const MAX_CHECKPOINT_BYTES = 1024 * 1024;

/** Reads the checkpoint (no link followed) and checks it against the open ledger's bytes. */
export function lookupCheckpoint(ledger: OpenLedger): CheckpointLookup {
  let checkpoint: Checkpoint;
  try {
    const bytes = readContained(ledger.root, checkpointPathFor(ledger.ledgerPath), MAX_CHECKPOINT_BYTES);
    if (bytes === null) return { kind: "unusable", why: "no checkpoint" };
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    const known = checkpointOf(value);
    if (known !== null) checkpoint = known;
    else {
      const parsed = checkpointSchemas().Checkpoint.safeParse(value);
      if (!parsed.success) return { kind: "unusable", why: "the checkpoint has an unknown shape" };
      checkpoint = parsed.data;
    }
  } catch (error) {
    return { kind: "unusable", why: `no readable checkpoint (${(error as NodeJS.ErrnoException).code ?? "invalid JSON"})` };
  }
  const { fd, size } = ledger;
  const { bytes, headLine } = checkpoint.ledger;
  if (checkpoint.ledger.ino !== ledger.ino) return { kind: "unusable", why: "the checkpoint describes another ledger file" };
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
}

/** Opens the ledger at `ledgerPath` and looks its checkpoint up (tools, tests and the bench). */
export function lookupCheckpointFile(ledgerPath: string, root: string = path.dirname(path.dirname(path.resolve(ledgerPath)))): CheckpointLookup {
  let fd: number;
  try {
    fd = fs.openSync(ledgerPath, "r");
  } catch {
    return { kind: "unusable", why: "the ledger cannot be opened" };
  }
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    return lookupCheckpoint({ ledgerPath, root, fd, size: Number(stat.size), ino: stat.ino.toString() });
  } finally {
    fs.closeSync(fd);
  }
}
