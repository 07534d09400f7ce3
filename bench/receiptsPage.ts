// Receipts pages on a large ledger (issue 16, target 6, second half): a page anywhere in the
// history within 50 ms once the backend has the ledger, and the newest page before its full
// replay has finished. Each figure is one `WorkspaceLedger` call in this process, wall time (what
// the Receipts view waits for) with its CPU beside it, medians of interleaved rounds:
//
// - "receipts.page.newest" / ".middle" / ".oldest": a page of 100 from the end, from the cursor of
//   the page holding the middle receipt, and from the start;
// - "receipts.page.filtered": the newest page of a kind filter, authorizations and landings and
//   material support in turn (each call finds the other filter's matches cached, never its own);
// - "receipts.page.containing": the page holding the middle receipt (`containing`), all kinds;
// - "receipts.detail": the detail of the middle receipt (its line read again from the file);
// - "receipts.page.beforeReplay": the newest page asked of a fresh `WorkspaceLedger` that has not
//   read the ledger (what the backend answers while replay runs in the background), from the
//   receipt head the loaded ledger persisted. Every answer is compared with the loaded one.
//
// The ledger is the bench's cached realistic workload (bench/workloads.ts), linked (or copied) into
// a scratch workspace; loading it once (a full replay with its receipt projection) is logged, not
// a figure.
import fs from "node:fs";
import path from "node:path";
import type { ReceiptKind, ReceiptsPage } from "../server/protocol/messages";
import { receiptsPageFromHead } from "../server/workspace/receiptWindow";
import { WorkspaceLedger } from "../server/workspace/workspaceLedger";
import { figure, measuredOf, type BenchFigure, type Sample } from "./figure";
import { inProcessSample, interleavedRounds, samplesOf, type Arm, type ProducerOptions } from "./runner";
import { realisticLedger } from "./workloads";

const PAGE_SIZE = 100;
const PAGE_TARGET_MS = 50;
// Two filters taken in turn, so no call finds the other's matching receipts cached.
const FILTERS = [["change-authorized", "implementation-landing-recorded"], ["support-observed"]] as const;

interface Call {
  readonly id: string;
  readonly label: string;
  /** The answer, serialised: every round's must equal the first's. */
  readonly run: (ledger: WorkspaceLedger) => unknown;
}

function scratchWorkspace(directory: string, source: string): { workspaceFolder: string; ledgerPath: string } {
  const workspaceFolder = path.join(directory, "receipts-workspace");
  const ledgerPath = path.join(workspaceFolder, ".docket", "ledger.jsonl");
  fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
  try {
    // Nothing here writes the ledger, so the cached file's bytes can be shared.
    fs.linkSync(source, ledgerPath);
  } catch {
    fs.copyFileSync(source, ledgerPath);
  }
  return { workspaceFolder, ledgerPath };
}

export async function receiptsPageFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  const scopes = options.quick ? 1_000 : 50_000;
  const source = realisticLedger(scopes);
  if (source.generated) options.log(`receipts: generated ${source.events.toLocaleString("en-US")} events (cached for the next run)`);
  const { workspaceFolder, ledgerPath } = scratchWorkspace(options.directory, source.file);
  const open = (): WorkspaceLedger => new WorkspaceLedger({ workspaceFolder, ledgerPath, trusted: true });

  const loaded = open();
  const load = inProcessSample(() => loaded.refresh());
  options.log(`receipts: full replay with the receipt projection of ${source.events.toLocaleString("en-US")} events: ${(load.cpuMs / 1_000).toFixed(1)} s CPU, ${(load.wallMs / 1_000).toFixed(1)} s wall`);
  // The first page after the replay also persists the receipt head (once per ledger position).
  let firstPage: ReceiptsPage | null = null;
  const first = inProcessSample(() => {
    firstPage = loaded.receiptsPage(null, PAGE_SIZE, "end");
  });
  const newest: ReceiptsPage = firstPage ?? loaded.receiptsPage(null, PAGE_SIZE, "end");
  options.log(`receipts: first page after the replay, persisting the receipt head: ${first.cpuMs.toFixed(1)} ms CPU, ${first.wallMs.toFixed(1)} ms wall`);
  if (newest.receiptCount !== source.events) throw new Error(`the projection holds ${newest.receiptCount} receipts, not ${source.events}`);
  const middleEvent = loaded.store.replayer.acceptedEvent(Math.floor(newest.receiptCount / 2));
  if (middleEvent === undefined) throw new Error("the middle receipt has no event");
  const middleSha256 = middleEvent.envelope.eventSha256;
  const middleCursor = loaded.receiptsPage(null, PAGE_SIZE, "start", { containing: middleSha256 }).pageCursor;
  if (middleCursor === null) throw new Error("the middle page has no cursor");

  let turn = 0;
  const allCalls: Call[] = [
    { id: "receipts.page.newest", label: "the newest page of 100 receipts, replay done", run: (ledger) => ledger.receiptsPage(null, PAGE_SIZE, "end") },
    { id: "receipts.page.middle", label: "a page of 100 in the middle of the history, by its cursor", run: (ledger) => ledger.receiptsPage(middleCursor, PAGE_SIZE) },
    { id: "receipts.page.oldest", label: "the oldest page of 100 receipts", run: (ledger) => ledger.receiptsPage(null, PAGE_SIZE, "start") },
    {
      id: "receipts.page.filtered",
      label: "the newest page of 100 receipts of a kind filter (two filters in turn, neither cached)",
      run: (ledger) => {
        turn = (turn + 1) % FILTERS.length;
        return ledger.receiptsPage(null, PAGE_SIZE, "end", { kinds: [...(FILTERS[turn] as readonly ReceiptKind[])] });
      },
    },
    {
      id: "receipts.page.containing",
      label: "the page of 100 holding the middle receipt (`containing`)",
      run: (ledger) => ledger.receiptsPage(null, PAGE_SIZE, "start", { containing: middleSha256 }),
    },
    { id: "receipts.detail", label: "the detail of the middle receipt", run: (ledger) => ledger.receiptDetail(middleSha256) },
  ];
  const calls = allCalls.filter((call) => options.wants(call.id));
  // Every call's answers (two for the filters taken in turn); each timed answer must be one of them.
  const expected = new Map(calls.map((call) => [call.id, new Set(FILTERS.map(() => JSON.stringify(call.run(loaded))))]));
  const checked = (id: string, answer: unknown): void => {
    if (expected.get(id)?.has(JSON.stringify(answer)) !== true) throw new Error(`${id} answered differently from the untimed calls`);
  };
  const arms: Arm[] = calls.map((call) => ({
    name: call.id,
    measure: (): Sample => {
      let answer: unknown;
      const sample = inProcessSample(() => {
        answer = call.run(loaded);
      });
      checked(call.id, answer);
      return sample;
    },
  }));
  const beforeReplay = "receipts.page.beforeReplay";
  if (options.wants(beforeReplay)) {
    // A head that does not answer would send every round to a full replay of the whole ledger.
    if (receiptsPageFromHead(workspaceFolder, ledgerPath, { cursor: null, pageSize: PAGE_SIZE, from: "end" }) === null) {
      throw new Error("the persisted receipt head does not answer the newest page");
    }
    expected.set(beforeReplay, new Set([JSON.stringify(newest)]));
    arms.push({
      name: beforeReplay,
      measure: (): Sample => {
        let answer: unknown;
        const sample = inProcessSample(() => {
          answer = open().receiptsPage(null, PAGE_SIZE, "end");
        });
        checked(beforeReplay, answer);
        return sample;
      },
    });
  }
  const planned = options.rounds ?? (options.quick ? 7 : 21);
  const { samples, rounds } = interleavedRounds(arms, { rounds: planned, warmUps: 1, budgetMs: options.budgetMs });
  const workload = `${source.events.toLocaleString("en-US")} events`;
  const target = { max: PAGE_TARGET_MS, kind: "absolute" as const, text: "≤ 50 ms wall, anywhere in the history" };
  const labels = new Map<string, string>([...calls.map((call): [string, string] => [call.id, call.label]), [beforeReplay, "the newest page of 100 from a ledger that has not replayed (receipt head + verified lines)"]]);
  return arms.map((arm) =>
    figure({ id: arm.name, label: labels.get(arm.name) ?? arm.name, workload, rounds, measured: measuredOf(samplesOf(samples, arm.name)), basis: "wall", target }),
  );
}
