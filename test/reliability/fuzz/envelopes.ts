// developer/v8 envelopes through replay: real logs (the reducer scenarios, every event kind of a
// whole Developer cycle) with a few entries edited, dropped, repeated or swapped — half of them
// re-hashed after the edit, so replay gets past the envelope hash to the scope chain, causal refs,
// payload schemas and the reducer. Replay never throws; every rejection carries one of the
// developer/v8 replay fault codes, never a JavaScript error's own message.
import fc from "fast-check";
import { envelopeSha256, type EnvelopeDraft } from "../../../server/ledger/envelope";
import { REPLAY_FAULT_CODES } from "../../../server/ledger/faults";
import { replayEntries } from "../../../server/ledger/replay";
import { SCENARIOS } from "../../support/reducerScenarios";
import { anyJson, jsonMutation, mutateJson, type Json, type JsonMutation } from "./mutate";
import { checkRejectionMessage, preview, violation, type FuzzSubTarget } from "./subTarget";

interface EnvelopeCase {
  readonly scenario: number;
  /** Per edited entry: its index, the mutations, and whether to re-hash it afterwards. */
  readonly edits: readonly { readonly entry: number; readonly mutations: readonly JsonMutation[]; readonly rehash: boolean }[];
  readonly list: readonly { readonly op: "drop" | "repeat" | "swap" | "truncate" | "append-random"; readonly at: number; readonly value: Json }[];
}

const CODES: ReadonlySet<string> = new Set(REPLAY_FAULT_CODES);

/** The envelope with its eventSha256 recomputed, when the rest still has an envelope's shape. */
export function rehashed(entry: Json): Json {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return entry;
  const { eventSha256: _old, ...draft } = entry;
  try {
    return { ...draft, eventSha256: envelopeSha256(draft as unknown as EnvelopeDraft) };
  } catch {
    return entry;
  }
}

export const envelopesSubTarget: FuzzSubTarget<EnvelopeCase> = {
  name: "envelopes",
  runs: { short: 2_000, long: 100_000 },
  async prepare() {
    const logs = SCENARIOS.map((scenario) => JSON.parse(JSON.stringify(scenario().entries)) as Json[]);
    const arbitrary = fc.record({
      scenario: fc.nat({ max: logs.length - 1 }),
      edits: fc.array(fc.record({ entry: fc.nat(), mutations: fc.array(jsonMutation, { minLength: 1, maxLength: 3 }), rehash: fc.boolean() }), { maxLength: 3 }),
      list: fc.array(fc.record({ op: fc.constantFrom("drop" as const, "repeat" as const, "swap" as const, "truncate" as const, "append-random" as const), at: fc.nat(), value: anyJson }), { maxLength: 2 }),
    });
    const build = (value: EnvelopeCase): Json[] => {
      const entries = [...(logs[value.scenario] as Json[])];
      for (const edit of value.edits) {
        const at = edit.entry % entries.length;
        const mutated = mutateJson(entries[at] as Json, edit.mutations);
        entries[at] = edit.rehash ? rehashed(mutated) : mutated;
      }
      for (const change of value.list) {
        const at = change.at % Math.max(1, entries.length);
        if (change.op === "drop") entries.splice(at, 1);
        else if (change.op === "repeat" && entries.length > 0) entries.splice(at, 0, entries[at] as Json);
        else if (change.op === "swap" && entries.length > 1) [entries[0], entries[at]] = [entries[at] as Json, entries[0] as Json];
        else if (change.op === "truncate") entries.length = at;
        else if (change.op === "append-random") entries.push(change.value);
      }
      return entries;
    };
    return {
      arbitrary,
      describe: (value) => `scenario ${value.scenario} with ${value.edits.length} edited entries and ${value.list.length} list changes ${preview(value.edits.map((edit) => edit.mutations.map((mutation) => mutation.op)))}`,
      check(value) {
        const entries = build(value);
        const replay = replayEntries(entries);
        if (replay.dispositions.length !== entries.length) violation(`replay gave ${replay.dispositions.length} dispositions for ${entries.length} entries`);
        for (const disposition of replay.dispositions) {
          if (disposition.status === "accepted") continue;
          if (!CODES.has(disposition.code)) violation(`entry ${disposition.index} rejected with an unknown code ${preview(disposition.code)}`);
          checkRejectionMessage(disposition.message, `replay's ${disposition.code} rejection of entry ${disposition.index}`);
        }
      },
    };
  },
};
