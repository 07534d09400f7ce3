// The contract of one fuzz sub-target of the reliability suite's `fuzz` target: a fast-check
// arbitrary grown from a real format, and a check that throws a FuzzViolation when an input breaks
// the rules (a crash, an uncoded rejection, a wrong verdict). Timing and hangs are the runner's.
import type fc from "fast-check";

export interface SubTargetContext {
  /** This sub-target's own folder (files, workspaces, ledgers). */
  readonly tmp: string;
  readonly repoRoot: string;
  readonly long: boolean;
  /** This sub-target's fast-check seed (for anything it samples on its own). */
  readonly seed: number;
}

export interface FuzzSubTarget<T> {
  readonly name: string;
  /** Cases in CI (short) and in `--long` (at least 100,000). */
  readonly runs: { readonly short: number; readonly long: number };
  /** Builds what every case shares (a workspace, a snapshot); runs once, untimed. */
  prepare(context: SubTargetContext): Promise<FuzzCase<T>>;
}

export interface FuzzCase<T> {
  readonly arbitrary: fc.Arbitrary<T>;
  /** Throws FuzzViolation when the input breaks a rule; anything else it throws is a crash. */
  check(value: T): void | Promise<void>;
  /** A short description of an input for a failure line (never the whole input). */
  describe(value: T): string;
  /** Cases run after the generated ones (e.g. through a real server); each counts as an input. */
  finish?(): Promise<{ readonly inputs: number; readonly failures: readonly string[] }>;
}

/** A rule broken by an input (as opposed to an exception thrown by the code under test). */
export class FuzzViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FuzzViolation";
  }
}

export function violation(message: string): never {
  throw new FuzzViolation(message);
}

/** Messages of JavaScript's own logic errors: a "coded" rejection carrying one hides a crash. */
const RAW_ERROR = /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|undefined is not|null is not|\bat [\w.<>]+ \(/u;

/** Messages of an engine limit (a stack overflow on deep nesting): the rejection is coded, but noted. */
const RESOURCE_LIMIT = /Maximum call stack size exceeded|Invalid array length|Invalid string length|out of memory/u;

export function looksLikeRawError(message: string): boolean {
  return RAW_ERROR.test(message);
}

/** What the run noticed without failing it: name → how often. The worker reports them. */
export const notes = new Map<string, number>();

/**
 * Checks a coded rejection's message: a logic error's message breaks the rules; an engine limit's
 * (a correctly coded refusal of input nested too deep for a recursive reader) is noted.
 */
export function checkRejectionMessage(message: string, where: string): void {
  if (looksLikeRawError(message)) violation(`${where} carries a JavaScript error's message: ${preview(message, 300)}`);
  const limit = RESOURCE_LIMIT.exec(message)?.[0];
  if (limit === undefined) return;
  const key = `${where.replace(/\d+/gu, "N")}: coded, with an engine limit's message (${limit})`;
  notes.set(key, (notes.get(key) ?? 0) + 1);
}

/** A bounded, printable preview of any value for failure lines; never throws (deep values included). */
export function preview(value: unknown, limit = 160): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Array.isArray(value) ? `[array of ${value.length}, too deep to print]` : typeof value === "object" && value !== null ? "{object too deep to print}" : typeof value;
  }
  const escaped = JSON.stringify(text.length > limit ? `${text.slice(0, limit)}…` : text);
  return `${escaped} (${text.length} chars)`;
}
