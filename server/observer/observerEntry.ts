// The Observer stream of the Docket ledger, `observer/v1` (docs/observer-replay.md,
// docs/ledger-format.md). Each entry carries one of the reference's custom entries unchanged:
// `{customType, data}` with the host entry's `customType` and its exact `data`, so a Pi
// session's Observer history and Docket's own ledger replay identically. The line validator
// checks only this wrapper; what `data` means is judged by Observer replay, which turns bad
// entries into issues rather than refusing the line.
// zod/mini: this runs inside every hook that decodes a ledger line.
import * as z from "zod/mini";
import { OBSERVER_CUSTOM_TYPES } from "./observerCustomTypes";

export { OBSERVER_CUSTOM_TYPES };

export const OBSERVER_STREAM = "observer/v1";


function buildEntrySchema() {
  return z.strictObject({
    customType: z.enum(OBSERVER_CUSTOM_TYPES),
    // Required (a missing key is not `undefined` data): any JSON value.
    data: z.unknown().check(z.refine((value) => value !== undefined, "data is required")),
  });
}

let entrySchema: ReturnType<typeof buildEntrySchema> | null = null;

/**
 * The entry's schema, built on first use: every hook bundles this module (ledger line decoding),
 * and most hook calls decode no Observer line.
 */
export function observerLedgerEntrySchema(): ReturnType<typeof buildEntrySchema> {
  entrySchema ??= buildEntrySchema();
  return entrySchema;
}

export type ObserverLedgerEntry = z.infer<ReturnType<typeof buildEntrySchema>>;

/** Null when the entry is a valid `observer/v1` entry, else a short reason. */
export function observerEntryProblem(entry: unknown): string | null {
  const parsed = observerLedgerEntrySchema().safeParse(entry);
  if (parsed.success) return null;
  const first = parsed.error.issues[0];
  return `observer entry ${first === undefined ? "is invalid" : `${first.path.join(".") || "(root)"}: ${first.message}`}`;
}
