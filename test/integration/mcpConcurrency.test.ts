// A large proposal does not hold up the rest of `docket mcp` (issue 12, finding 6): the Notebook's
// tools run in the server's worker thread, so a `status` asked while a batch of large records is
// being validated is answered about as fast as one asked alone, long before the proposal finishes.
// Measured as ratios (status during vs alone, status vs the proposal), never a fixed wall-clock bound.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_FRONTMATTER_KEYS } from "../../server/notebook/markdownProfile";
import { externalSource, notebookFixture } from "../support/notebookFixture";
import { RawMcpClient, toolErrorCode, type TimedResponse } from "../support/rawMcpClient";

// Sized so the proposal stays far longer than a status as validation gets faster (24 records took 205 ms
// against 10 × 21.4 once the record checks sped up).
const RECORDS = 64;
/** Custom keys per record, just inside the bound (the record's own fields take the rest). */
const CUSTOM_KEYS = MAX_FRONTMATTER_KEYS - 40;

/** NaN for no values (then every comparison below fails, as it must). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function largeBatch(): { operation: "create"; record_id: string; markdown: string }[] {
  const custom = Array.from({ length: CUSTOM_KEYS }, (_, index) => `custom_observation_key_${index}: a value long enough to be read ${index}`).join("\n");
  return Array.from({ length: RECORDS }, (_, index) => {
    const id = `source-00000000-0000-4000-8000-9${String(index).padStart(11, "0")}`;
    return { operation: "create" as const, record_id: id, markdown: externalSource(id).replace("\n---\n#", `\n${custom}\n---\n#`) };
  });
}

test("status answers quickly while a large proposal is validated in the worker thread", async (t) => {
  const fx = notebookFixture({ prefix: "docket-mcp-concurrency-" });
  const client = await RawMcpClient.start(fx.workspace, ["--notebook", fx.root]);
  try {
    // Warm both threads: the first status reads the ledger, the first notebook call starts the worker.
    assert.equal(toolErrorCode((await client.callTool("status", {})).response), null);
    assert.equal(toolErrorCode((await client.callTool("notebook", {})).response), null);
    const alone: number[] = [];
    for (let index = 0; index < 7; index += 1) alone.push((await client.callTool("status", {})).ms);

    const proposing = client.callTool("propose_notebook_records", { records: largeBatch() });
    let proposal: TimedResponse | null = null;
    void proposing.then((answer) => {
      proposal = answer;
    });
    const during: number[] = [];
    // Ask status one call after another until the proposal answers; count only answers that came first.
    while (proposal === null) {
      const status = await client.callTool("status", {});
      assert.equal(toolErrorCode(status.response), null, JSON.stringify(status.response));
      if (proposal === null) during.push(status.ms);
    }
    const proposed = (await proposing) as TimedResponse;
    assert.equal(toolErrorCode(proposed.response), null, JSON.stringify(proposed.response).slice(0, 2_000));

    const aloneMs = median(alone);
    const duringMs = median(during);
    const firstMs = during[0] ?? Number.NaN;
    t.diagnostic(
      `proposal of ${RECORDS} records × ${CUSTOM_KEYS + 17} keys: ${proposed.ms.toFixed(0)} ms; status alone ${aloneMs.toFixed(1)} ms (median of ${alone.length}), ` +
        `during it ${duringMs.toFixed(1)} ms (median of ${during.length}), first one ${firstMs.toFixed(1)} ms`,
    );
    // The proposal was really long next to a status, or this measures nothing.
    assert.ok(proposed.ms > 10 * aloneMs, `the proposal took ${proposed.ms.toFixed(0)} ms, status alone ${aloneMs.toFixed(1)} ms`);
    // Several statuses were answered while it ran; before the fix, the first one waited for all of it.
    // (The first also waits while the main thread reads the large request itself, so it is only shown.)
    assert.ok(during.length >= 3, `only ${during.length} status answers arrived before the proposal's`);
    // A generous factor: the worker takes one core of a shared machine.
    assert.ok(duringMs < 10 * aloneMs, `status during the proposal ${duringMs.toFixed(1)} ms vs alone ${aloneMs.toFixed(1)} ms`);
  } finally {
    await client.close();
  }
});
