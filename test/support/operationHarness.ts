// A pure replay harness for operation builders: applies built batches through the same replayer
// the store preflights with and insists every draft is accepted, so a test sees exactly the state a
// ledger would have after writing them.
import assert from "node:assert/strict";
import { createEnvelope, type EnvelopeDraft } from "../../server/ledger/envelope";
import { Replayer } from "../../server/ledger/replay";
import { describeHistory, type HistoryView } from "../../server/developer/history";
import { turnOnBatch } from "../../server/developer/scopeOperations";
import { DocketError } from "../../server/errors";

export const AT = "2031-01-01T00:00:00.000Z";

export class OperationHarness {
  readonly replayer = new Replayer();
  private lines = 0;

  history(): HistoryView {
    return describeHistory(this.replayer);
  }

  /** Applies a built batch and insists every draft is accepted. */
  apply(drafts: readonly EnvelopeDraft[]): void {
    for (const draft of drafts) {
      const disposition = this.replayer.apply(createEnvelope(draft));
      assert.equal(disposition.status, "accepted", JSON.stringify(disposition));
      this.lines += 1;
    }
  }

  turnOn(): void {
    this.apply(turnOnBatch(this.history(), { lineCount: this.lines, headLineSha256: null }, AT, "0".repeat(32)).drafts);
  }
}

export function refusal(action: () => unknown, code: string): void {
  assert.throws(action, (error: unknown) => error instanceof DocketError && error.code === code, `expected ${code}`);
}

export async function refusalAsync(action: () => Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(action, (error: unknown) => error instanceof DocketError && error.code === code, `expected ${code}`);
}
