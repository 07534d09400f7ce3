// What a writer killed in the middle of its write(2) leaves: a prefix of the batch it was
// appending. A SIGKILL cannot split a small write to a regular file on Linux (and Docket writes a
// batch with one call), so after a kill that landed inside the ledger lock the target appends such
// a prefix itself: the bytes are those Docket would have written next (built by Docket's own
// writer on a scratch copy), cut at a seeded byte. This is the state a power loss or a kill
// between two partial writes produces, without a fault-injection seam in Docket's code.
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";
import { cycleOperation, readCycleView } from "./cycle";

export interface TornWrite {
  /** Bytes appended to the ledger, out of `of` in the batch. */
  readonly bytes: number;
  readonly of: number;
  /** Whole lines of the batch among the appended bytes (a torn batch keeps its complete prefix). */
  readonly completeLines: number;
  /** The cut left a whole line without its newline (verify calls that an edit, by design). */
  readonly wholeLineWithoutNewline: boolean;
  readonly operation: string;
}

/** Appends a prefix of the next batch to `ledgerPath`; `fraction` ∈ [0, 1) picks the cut. */
export async function appendTornWrite(ledgerPath: string, scratch: string, fraction: number): Promise<TornWrite | null> {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  const original = fs.readFileSync(ledgerPath);
  const committed = original.subarray(0, original.lastIndexOf(0x0a) + 1);
  if (committed.length !== original.length) return null; // already torn
  const copy = path.join(scratch, "ledger.jsonl");
  fs.writeFileSync(copy, committed);
  const view = readCycleView(copy);
  const ledger = new WorkspaceLedger({ workspaceFolder: scratch, ledgerPath: copy, trusted: true });
  ledger.refresh();
  const next = view.phase === "off" ? null : cycleOperation(view);
  let operation: string;
  try {
    if (next === null) {
      operation = "turnOn";
      await ledger.turnOn();
    } else {
      operation = next.name;
      if (next.name === "capture") return null;
      const params = next.params as never;
      if (next.name === "concludeJudgment") await ledger.concludeJudgment(params);
      else if (next.name === "openJudgment") await ledger.openJudgment(params);
      else if (next.name === "authorizeChange") await ledger.authorizeChange(params);
      // A landing needs the workspace's authorization baseline, which the scratch copy lacks.
      else return null;
    }
  } catch {
    return null;
  }
  const batch = fs.readFileSync(copy).subarray(committed.length);
  if (batch.length < 2) return null;
  const bytes = 1 + Math.floor(fraction * (batch.length - 1));
  const prefix = batch.subarray(0, bytes);
  fs.appendFileSync(ledgerPath, prefix);
  let completeLines = 0;
  for (const byte of prefix) if (byte === 0x0a) completeLines += 1;
  return { bytes, of: batch.length, completeLines, wholeLineWithoutNewline: batch[bytes] === 0x0a, operation };
}
