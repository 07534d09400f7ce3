// Ledger lines and the store on a real file: a real ledger (a reducer scenario's envelopes, each
// wrapped and chained as Docket writes them) with entries edited and the chain re-encoded (so the
// edit reaches replay), or its line text and bytes edited (wrapper fields, invalid UTF-8, a torn
// or joined line, CR line endings). decodeLedgerLine only ever throws its LineFault; the store
// never throws for content, names every problem with a ledger-* code, and reads the same file the
// same way whether it meets it whole or in two appends.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { REPLAY_FAULT_CODES } from "../../../server/ledger/faults";
import { DEVELOPER_STREAM, decodeLedgerLine, encodeLedgerLine, LineFault } from "../../../server/ledger/ledgerLine";
import { LedgerStore } from "../../../server/ledger/store";
import { SCENARIOS } from "../../support/reducerScenarios";
import { jsonMutation, jsonText, mutateJson, mutateText, nastyString, textMutation, type Json, type JsonMutation, type TextMutation } from "./mutate";
import { checkRejectionMessage, preview, violation, type FuzzSubTarget } from "./subTarget";
import { rehashed } from "./envelopes";

interface LineCase {
  readonly scenario: number;
  readonly entryEdits: readonly { readonly entry: number; readonly mutations: readonly JsonMutation[] }[];
  readonly lineEdits: readonly { readonly line: number; readonly mutations: readonly TextMutation[] }[];
  readonly bytes: readonly { readonly op: "invalid-utf8" | "nul" | "cut" | "no-final-newline" | "bom"; readonly at: number }[];
  readonly split: number;
}

const LINE_CODES: ReadonlySet<string> = new Set(["ledger-line-invalid", "ledger-line-chain-mismatch", "ledger-line-hash-mismatch"]);
const REPLAY_CODES: ReadonlySet<string> = new Set(REPLAY_FAULT_CODES);
const WRAPPER_FRAGMENTS = fc.constantFrom('"line":', '"previousLineSha256":null', '"stream":"developer/v8"', '"ledger":"docket/ledger-line/v1"', "}", "{", ",", '"', "\\", "\n", "null", "1e400", "-0", '"lineSha256":"' + "0".repeat(64) + '"');

/** The ledger as Docket would write these entries; an entry the encoder refuses is written as raw JSON. */
function encode(entries: readonly Json[]): string[] {
  const lines: string[] = [];
  let previous: string | null = null;
  for (const [index, entry] of entries.entries()) {
    try {
      const encoded: { text: string; lineSha256: string } = encodeLedgerLine(index, previous, DEVELOPER_STREAM, entry);
      lines.push(encoded.text.slice(0, -1));
      previous = encoded.lineSha256;
    } catch {
      lines.push(jsonText(entry));
    }
  }
  return lines;
}

function fileBytes(lines: readonly string[], edits: LineCase["bytes"]): Buffer {
  let bytes = Buffer.from(lines.map((line) => `${line}\n`).join(""), "utf8");
  for (const edit of edits) {
    const at = edit.at % (bytes.length + 1);
    if (edit.op === "invalid-utf8") bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), bytes.subarray(at)]);
    else if (edit.op === "nul") bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([0]), bytes.subarray(at)]);
    else if (edit.op === "cut") bytes = bytes.subarray(0, at);
    else if (edit.op === "no-final-newline" && bytes.at(-1) === 0x0a) bytes = bytes.subarray(0, -1);
    else if (edit.op === "bom") bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  }
  return bytes;
}

function checkStore(store: LedgerStore, where: string): void {
  const fault = store.fault;
  if (fault !== null) {
    if (!/^ledger-[a-z0-9-]+$/u.test(fault.code)) violation(`${where}: the store's fault has no ledger-* code: ${preview(fault)}`);
    checkRejectionMessage(fault.message, `${where}: the store's fault ${fault.code}`);
  }
  for (const disposition of store.replayer.dispositions) {
    if (disposition.status !== "rejected") continue;
    if (!REPLAY_CODES.has(disposition.code)) violation(`${where}: entry ${disposition.index} rejected without a replay fault code: ${preview(disposition)}`);
    checkRejectionMessage(disposition.message, `${where}: replay's ${disposition.code} rejection of entry ${disposition.index}`);
  }
}

export const ledgerLinesSubTarget: FuzzSubTarget<LineCase> = {
  name: "ledger-lines",
  runs: { short: 1_000, long: 100_000 },
  async prepare(context) {
    const logs = SCENARIOS.map((scenario) => JSON.parse(JSON.stringify(scenario().entries)) as Json[]);
    const whole = path.join(context.tmp, "whole.jsonl");
    const parts = path.join(context.tmp, "parts.jsonl");
    const arbitrary = fc.record({
      scenario: fc.nat({ max: logs.length - 1 }),
      entryEdits: fc.array(fc.record({ entry: fc.nat(), mutations: fc.array(jsonMutation, { minLength: 1, maxLength: 2 }) }), { maxLength: 2 }),
      lineEdits: fc.array(fc.record({ line: fc.nat(), mutations: fc.array(textMutation(fc.oneof(WRAPPER_FRAGMENTS, nastyString), 20), { minLength: 1, maxLength: 2 }) }), { maxLength: 2 }),
      bytes: fc.array(fc.record({ op: fc.constantFrom("invalid-utf8" as const, "nul" as const, "cut" as const, "no-final-newline" as const, "bom" as const), at: fc.nat() }), { maxLength: 1 }),
      split: fc.nat(),
    });
    return {
      arbitrary,
      describe: (value) =>
        `scenario ${value.scenario}, ${value.entryEdits.length} entry edits, line edits ${preview(value.lineEdits.map((edit) => edit.mutations.map((mutation) => mutation.op)))}, bytes ${preview(value.bytes)}`,
      check(value) {
        const entries = [...(logs[value.scenario] as Json[])];
        for (const edit of value.entryEdits) {
          const at = edit.entry % entries.length;
          entries[at] = rehashed(mutateJson(entries[at] as Json, edit.mutations));
        }
        const lines = encode(entries);
        for (const edit of value.lineEdits) {
          const at = edit.line % lines.length;
          lines[at] = mutateText(lines[at] as string, edit.mutations);
        }
        // The decoder alone, line by line, as the store calls it.
        let previous: string | null = null;
        for (const [index, line] of lines.join("\n").split("\n").entries()) {
          try {
            previous = decodeLedgerLine(line, index, previous).lineSha256;
          } catch (error) {
            if (!(error instanceof LineFault) || !LINE_CODES.has(error.code)) violation(`decodeLedgerLine threw something other than a coded LineFault: ${String(error)}`);
            break;
          }
        }
        // The store on a real file: whole, then the same bytes arriving in two appends.
        const bytes = fileBytes(lines, value.bytes);
        fs.writeFileSync(whole, bytes);
        const once = new LedgerStore(whole);
        once.refresh();
        checkStore(once, "whole file");
        const cut = value.split % (bytes.length + 1);
        fs.writeFileSync(parts, bytes.subarray(0, cut));
        const twice = new LedgerStore(parts);
        twice.refresh();
        fs.appendFileSync(parts, bytes.subarray(cut));
        twice.refresh();
        checkStore(twice, "two appends");
        const seen = (store: LedgerStore): string => `${store.lineCount} lines, fault ${store.fault?.code ?? "none"}, ${store.replayer.accepted.length} accepted`;
        if (seen(once) !== seen(twice)) violation(`the same bytes read whole (${seen(once)}) and in two appends split at byte ${cut} (${seen(twice)}) differ`);
      },
    };
  },
};
