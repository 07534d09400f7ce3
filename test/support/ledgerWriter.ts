// A separate writer process for the concurrency tests: appends COUNT batches to LEDGER, each
// either turning Docket on or off (whichever is legal after catching up under the lock).
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";
import { DocketError } from "../../server/errors";

async function main(): Promise<void> {
  const [ledgerPath, countText] = process.argv.slice(2);
  if (ledgerPath === undefined || countText === undefined) throw new Error("usage: ledgerWriter LEDGER COUNT");
  const ledger = new WorkspaceLedger({ workspaceFolder: process.cwd(), ledgerPath, trusted: true, lockTimeoutMs: 60_000 });
  const eventIds: string[] = [];
  for (let index = 0; index < Number(countText); index += 1) {
    ledger.refresh();
    try {
      const result = ledger.history().activeScope === null ? await ledger.turnOn() : await ledger.turnOff(`Writer ${process.pid} step ${index}.`);
      eventIds.push(...result.eventIds);
    } catch (error) {
      // Another writer changed the state between our look and our locked append: the batch
      // builder refused under the lock, nothing was written. Try the other operation.
      if (!(error instanceof DocketError) || (error.code !== "docket.already-on" && error.code !== "docket.already-off")) throw error;
      index -= 1;
    }
  }
  process.stdout.write(JSON.stringify({ pid: process.pid, eventIds }));
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
