// Reads JSON Lines for `docket ledger replay`. Each line is detected on its own as one of three
// forms: a Docket ledger line (its developer/v8 entry is replayed), a Pi session entry (only
// `custom` entries of type `developer.runtime` are replayed; others are skipped and not
// counted), or a bare developer/v8 envelope (replayed as is, so malformed ones get dispositions).
import { DEVELOPER_STREAM, isLedgerLineShape } from "./ledgerLine";
import { isRecord } from "./values";

export type LineForm = "docket-line" | "pi-entry" | "envelope" | "not-json";

export interface ReplayInput {
  /** One-based line number in the file. */
  readonly line: number;
  readonly form: LineForm;
  readonly value: unknown;
}

export interface ReplayInputs {
  readonly inputs: ReplayInput[];
  readonly skippedLines: number;
}

function classify(value: unknown): { form: LineForm; input: unknown } | null {
  if (isLedgerLineShape(value)) {
    const line = value as Record<string, unknown>;
    return line.stream === DEVELOPER_STREAM ? { form: "docket-line", input: line.entry } : null;
  }
  if (isRecord(value) && typeof value.type === "string" && !Object.hasOwn(value, "protocolVersion")) {
    return value.type === "custom" && value.customType === "developer.runtime" ? { form: "pi-entry", input: value.data } : null;
  }
  return { form: "envelope", input: value };
}

export function readReplayInputs(text: string): ReplayInputs {
  const inputs: ReplayInput[] = [];
  let skippedLines = 0;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((raw, index) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") {
      skippedLines += 1;
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // Not JSON at all: still an entry of the log, and replay rejects it as an invalid envelope.
      inputs.push({ line: index + 1, form: "not-json", value: line });
      return;
    }
    const classified = classify(parsed);
    if (classified === null) skippedLines += 1;
    else inputs.push({ line: index + 1, form: classified.form, value: classified.input });
  });
  return { inputs, skippedLines };
}
