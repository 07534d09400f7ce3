// Secrets never reach disk, including through what an agent *writes* with Docket's own tools: a
// judgment's question, a conclusion's rationale, a landing's result, a review report, a proposed
// Notebook record. The ledger is append-only and may be committed, so a token an agent copied
// into a reason would otherwise live in Git history for good. Free text is redacted as decoded
// text, string by string, before a batch is built; identifiers, paths, digests and enumerations
// are never rewritten (they are referenced elsewhere) — one that holds a secret is refused.
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { redactSecrets } from "./redaction";

/** Keys whose values are names Docket or the agent refers to, not prose: refuse instead of rewriting. */
const VERBATIM_KEY =
  /(?:Id|Ids|Path|Paths|Sha256|_id|_ids|_sha256|_path)$|^(?:purpose|disposition|kind|assurance|useAs|status|skillName|version|operation|language|type|severity|reviewer|outcome|mode|root)$/u;

export interface RedactedInput<T> {
  readonly value: T;
  /** How many secrets were replaced by `[REDACTED:<kind>]` markers. */
  readonly redactions: number;
}

function walk(value: unknown, key: string | undefined, where: string, count: { n: number }): unknown {
  if (typeof value === "string") {
    const redacted = redactSecrets(value);
    if (redacted.text === value) return value;
    if (key !== undefined && VERBATIM_KEY.test(key)) {
      throw new DocketError(ErrorCodes.invalidParams, `${where === "" ? "the value" : where} holds what looks like a secret; Docket writes no secret to disk, and an identifier cannot be redacted. Use another value.`);
    }
    for (const found of Object.values(redacted.counts)) count.n += found ?? 0;
    return redacted.text;
  }
  if (Array.isArray(value)) return value.map((entry, index) => walk(entry, key, `${where}[${index}]`, count));
  if (typeof value === "object" && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
      Object.defineProperty(result, name, { value: walk(entry, name, where === "" ? name : `${where}.${name}`, count), enumerable: true, writable: true, configurable: true });
    }
    return result;
  }
  return value;
}

/**
 * `input` with every secret in its free text redacted. Throws docket.invalid-params when an
 * identifier, path, digest or enumeration holds one (nothing is written then).
 */
export function redactPersistedInput<T>(input: T): RedactedInput<T> {
  const count = { n: 0 };
  const value = walk(input, undefined, "", count) as T;
  return { value, redactions: count.n };
}
