// What a hook needs to reduce the ledger lines appended after its checkpoint without replaying the
// whole history: the open scopes' reducer state, what each event of those scopes proves when cited
// as a cause, and the binding to the prefix of the id log (idLog.ts) that holds every id the
// ledger prefix has accepted (so a new id is provably new). It is written beside the checkpoint,
// for the same ledger position, and read only when the checkpoint is behind or by a writer — the
// hook's hot path never parses it. It stays small however long the ledger: no per-id data.
import fs from "node:fs";
import type { CauseFact } from "../developer/reducer/causes";
import type { ScopeState } from "../developer/scopeState";
import type { LedgerStore } from "../ledger/store";
import { readContained, writeFileAtomicContained } from "../workspace/containedFs";
import { IdLogWriter, type IdLogBinding } from "./idLog";

/** v2: the id filter of v1 became a binding to the id log; a v1 seed reads as unusable. */
export const TAIL_SEED_FORMAT = "docket/hook-tail-seed/v2";

/** Open scopes larger than this are not seeded (the seed is rewritten on every append). */
export const MAX_SEEDED_EVENTS = 20_000;

export interface TailSeed {
  readonly format: typeof TAIL_SEED_FORMAT;
  /** The ledger position the seed describes; it must equal its checkpoint's. */
  readonly lines: number;
  readonly headLineSha256: string | null;
  /** Developer entries replayed so far (accepted or rejected): the index of the next entry. */
  readonly entryCount: number;
  readonly scopeCount: number;
  readonly openScopes: readonly ScopeState[];
  /** [refKey, fact] for every accepted event of the open scopes. */
  readonly causes: readonly (readonly [string, CauseFact])[];
  /** The prefix of the id log that holds every id accepted before this position. */
  readonly ids: IdLogBinding;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The seed is a cache Docket wrote itself under the ledger lock: its position is checked against
 * the checkpoint and the reducer rejects any state it cannot use, which then means one full replay.
 * This checks the shape the seed's readers index into (the fields, the open scopes' ids, the
 * causes' pairs, the id-log binding) — the same acceptance as the zod schema it replaces, which
 * test/unit/tailSeedShape.test.ts keeps as the reference — without zod, whose schemas the tail
 * bundle would otherwise build at load and run cold on every hook that catches up.
 */
export function hasTailSeedShape(raw: unknown): raw is TailSeed {
  if (!isRecord(raw) || raw.format !== TAIL_SEED_FORMAT) return false;
  if (!Number.isSafeInteger(raw.lines) || !Number.isSafeInteger(raw.entryCount) || !Number.isSafeInteger(raw.scopeCount)) return false;
  if (raw.headLineSha256 !== null && typeof raw.headLineSha256 !== "string") return false;
  const { openScopes, causes, ids } = raw;
  if (!Array.isArray(openScopes) || !Array.isArray(causes)) return false;
  // Index loops, not every(): a hole is an undefined element, which is not a scope or a pair.
  for (let index = 0; index < openScopes.length; index += 1) {
    const scope: unknown = openScopes[index];
    if (!isRecord(scope) || typeof scope.workScopeId !== "string") return false;
  }
  for (let index = 0; index < causes.length; index += 1) {
    const pair: unknown = causes[index];
    if (!Array.isArray(pair) || pair.length !== 2) return false;
    const [key, fact] = pair as unknown[];
    if (typeof key !== "string" || !isRecord(fact) || typeof fact.kind !== "string") return false;
  }
  return isRecord(ids) && Number.isSafeInteger(ids.count) && typeof ids.sha256 === "string";
}

export function tailSeedPathFor(ledgerPath: string): string {
  return `${ledgerPath}.tail-seed.json`;
}

/** The id log is kept per store and extended with each append instead of rebuilt. */
const idLogs = new WeakMap<LedgerStore, { generation: number; accepted: number; scopes: number; log: IdLogWriter }>();

/**
 * The store's id log, up to date: for each accepted event in order its event id, then its scope id
 * when it opened the scope — the order SeededReplay adds them in, so every writer writes the same
 * bytes at the same place.
 */
export function idLogOf(store: LedgerStore): IdLogWriter {
  const replayer = store.replayer;
  const accepted = replayer.acceptedCount;
  let cached = idLogs.get(store);
  if (cached === undefined || cached.generation !== store.generation || cached.accepted > accepted) {
    cached = { generation: store.generation, accepted: 0, scopes: 0, log: new IdLogWriter() };
  }
  const { fingerprints } = cached.log;
  let scopes = cached.scopes;
  for (let ordinal = cached.accepted; ordinal < accepted; ordinal += 1) {
    fingerprints.add("event", replayer.eventIdOf(ordinal) as string);
    // Scopes are numbered in the order their first accepted event opened them.
    const scopeId = replayer.workScopeIdOf(ordinal) as string;
    if (scopes < replayer.scopeCount && scopeId === replayer.scopeIdAt(scopes)) {
      fingerprints.add("scope", scopeId);
      scopes += 1;
    }
  }
  cached.accepted = accepted;
  cached.scopes = scopes;
  idLogs.set(store, cached);
  return cached.log;
}

/**
 * The seed of a fault-free store, or null when its open scopes are too large to seed. It costs
 * the same however long the ledger: the replayer keeps its open scopes and their events' facts.
 */
export function tailSeedOf(store: LedgerStore): TailSeed | null {
  const replayer = store.replayer;
  const openScopes = replayer.openScopes();
  const causes = openScopes.length === 0 ? [] : replayer.openScopeCauses(MAX_SEEDED_EVENTS);
  if (causes === null) return null;
  return {
    format: TAIL_SEED_FORMAT,
    lines: store.lineCount,
    headLineSha256: store.headLineSha256,
    entryCount: replayer.entryCount,
    scopeCount: replayer.scopeCount,
    openScopes,
    causes,
    ids: idLogOf(store).binding(),
  };
}

/** Writes (or, for null, removes) the seed beside the ledger, atomically, never through a link. */
export function writeTailSeed(root: string, ledgerPath: string, seed: TailSeed | null): void {
  const target = tailSeedPathFor(ledgerPath);
  if (seed === null) {
    fs.rmSync(target, { force: true });
    return;
  }
  writeFileAtomicContained(root, target, `${JSON.stringify(seed)}\n`);
}

/** Far above a seed of MAX_SEEDED_EVENTS events; a larger file is unusable. */
const MAX_TAIL_SEED_BYTES = 64 * 1024 * 1024;

export function readTailSeed(root: string, ledgerPath: string): TailSeed | null {
  try {
    const bytes = readContained(root, tailSeedPathFor(ledgerPath), MAX_TAIL_SEED_BYTES);
    if (bytes === null) return null;
    const raw: unknown = JSON.parse(bytes.toString("utf8"));
    return hasTailSeedShape(raw) ? raw : null;
  } catch {
    return null;
  }
}
