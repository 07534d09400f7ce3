// One workspace's ledger as the backend and the CLI see it: the store, its receipt projection,
// the derived status, and the write operations. Time is injected; everything else is derived
// from the ledger file.
import { describeHistory, phaseOf, resultSummary, runtimeFacts, type HistoryView, type ResultSummary } from "../developer/history";
import { computeToolPolicy } from "../developer/toolPolicy";
import { ReceiptCursorError, ReceiptProjection } from "../developer/receipts";
import { turnOffBatch, turnOnBatch } from "../developer/scopeOperations";
import type { ScopeState } from "../developer/scopeState";
import { DocketError, toDocketError } from "../errors";
import { hashValue } from "../ledger/canonicalJson";
import { LedgerStore } from "../ledger/store";
import {
  ErrorCodes,
  type LedgerHealth,
  type ReceiptsPage,
  type ScopeSummary,
  type Status,
  type ToolPolicyResult,
  type VerifyResult,
} from "../protocol/messages";

export interface Clock {
  /** Current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
  now(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };

export interface WorkspaceLedgerOptions {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  readonly trusted: boolean;
  readonly clock?: Clock;
  readonly lockTimeoutMs?: number;
}

function scopeSummary(scope: ScopeState): ScopeSummary {
  return {
    workScopeId: scope.workScopeId,
    status: scope.root.status,
    head: scope.head.scopeSequence,
    openedAt: scope.openedAt,
    closedAt: scope.closedAt,
    openedEventSha256: scope.openedEventSha256,
  };
}

export class WorkspaceLedger {
  readonly store: LedgerStore;
  private projectionGeneration: number;
  private projectionState: ReceiptProjection;
  private readonly clock: Clock;
  private writeQueue: Promise<unknown> = Promise.resolve();

  constructor(readonly options: WorkspaceLedgerOptions) {
    this.store = new LedgerStore(options.ledgerPath);
    this.clock = options.clock ?? systemClock;
    this.projectionState = new ReceiptProjection();
    this.projectionGeneration = this.store.generation;
  }

  /** Catches up with the file; true when anything visible changed. */
  refresh(): boolean {
    const { changed } = this.store.refresh();
    this.syncProjection();
    return changed;
  }

  private syncProjection(): void {
    if (this.store.generation !== this.projectionGeneration) {
      this.projectionState = new ReceiptProjection();
      this.projectionGeneration = this.store.generation;
    }
    this.projectionState.follow(this.store.replayer.accepted);
  }

  history(): HistoryView {
    const history = describeHistory(this.store.replayer);
    const fault = this.store.fault;
    if (fault === null) return history;
    return { ...history, mode: "blocked", blockedReason: `ledger line ${fault.line + 1}: ${fault.code}: ${fault.message}`, activeScope: null };
  }

  health(): LedgerHealth {
    const replayer = this.store.replayer;
    const rejected = replayer.firstRejected;
    const fault = this.store.fault;
    let problem: LedgerHealth["problem"] = null;
    if (fault !== null) problem = { code: fault.code, message: fault.message, line: fault.line };
    else if (rejected !== null) problem = { code: rejected.code, message: rejected.message, line: this.lineOfReplayIndex(rejected.index) };
    return {
      path: this.store.ledgerPath,
      exists: this.store.exists,
      bytes: this.store.offset + this.store.tornTail,
      lines: this.store.lineCount,
      accepted: replayer.accepted.length,
      rejected: replayer.entryCount - replayer.accepted.length,
      tornTailBytes: this.store.tornTail,
      problem,
    };
  }

  lineOfReplayIndex(index: number): number | null {
    // Lines and replay indexes coincide while the ledger holds only developer entries.
    const direct = this.store.lineRecord(index);
    if (direct?.replayIndex === index) return index;
    for (let line = 0; line < this.store.lineCount; line += 1) {
      if (this.store.lineRecord(line)?.replayIndex === index) return line;
    }
    return null;
  }

  status(): Status {
    const history = this.history();
    return {
      workspaceFolder: this.options.workspaceFolder,
      trusted: this.options.trusted,
      phase: phaseOf(history),
      historyMode: history.mode,
      blockedReason: history.blockedReason,
      activeScope: history.activeScope === null ? null : scopeSummary(history.activeScope),
      scopes: history.scopes.map((scope) => scopeSummary(scope)),
      ledger: this.health(),
      revision: hashValue({
        domain: "docket/status-revision/v1",
        headLineSha256: this.store.headLineSha256,
        lines: this.store.lineCount,
        tornTailBytes: this.store.tornTail,
        fault: this.store.fault?.code ?? null,
      }),
      receiptCount: this.projectionState.count,
      projectionSha256: this.projectionState.projectionSha256,
    };
  }

  /** The replay-current tool policy (what an agent may do right now). */
  policy(): ToolPolicyResult {
    const history = this.history();
    const policy = computeToolPolicy(runtimeFacts(history));
    return {
      ...policy,
      legalOperations: [...policy.legalOperations],
      phase: phaseOf(history),
      workScopeId: history.activeScope?.workScopeId ?? null,
    };
  }

  private requireTrusted(): void {
    if (!this.options.trusted) {
      throw new DocketError(ErrorCodes.untrusted, "This workspace is not trusted, so Docket shows its state read-only and writes nothing.");
    }
  }

  private serialize<T>(action: () => Promise<T>): Promise<T> {
    const run = this.writeQueue.then(action, action);
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  turnOn(): Promise<ResultSummary> {
    return this.write((store) => {
      const result = turnOnBatch(this.history(), { lineCount: store.lineCount, headLineSha256: store.headLineSha256 }, this.clock.now());
      return { drafts: result.drafts, context: result.workScopeId };
    }, "turning Docket on");
  }

  turnOff(reason?: string): Promise<ResultSummary> {
    return this.write(() => {
      const result = turnOffBatch(this.history(), reason, this.clock.now());
      return { drafts: result.drafts, context: result.workScopeId };
    }, "turning Docket off");
  }

  private write(
    build: (store: LedgerStore) => { drafts: ReturnType<typeof turnOnBatch>["drafts"]; context: string },
    purpose: string,
  ): Promise<ResultSummary> {
    return this.serialize(async () => {
      this.requireTrusted();
      try {
        const result = await this.store.append(build, { purpose, lockTimeoutMs: this.options.lockTimeoutMs });
        this.syncProjection();
        return resultSummary(this.history(), result.context, result.envelopes.map((envelope) => envelope.eventId));
      } catch (error) {
        this.syncProjection();
        throw toDocketError(error);
      }
    });
  }

  receiptsPage(cursor: string | null, pageSize: number, from: "start" | "end" = "start"): ReceiptsPage {
    try {
      const page = this.projectionState.page(cursor, pageSize, from);
      return {
        projectionSha256: page.projectionSha256,
        receiptCount: page.receiptCount,
        startOrdinal: page.startOrdinal,
        nextCursor: page.nextCursor,
        previousCursor: page.previousCursor,
        pageSha256: page.pageSha256,
        receipts: page.entries.map(({ ordinal, receipt }) => ({
          ordinal,
          kind: receipt.kind,
          workScopeId: receipt.eventRef.workScopeId,
          eventId: receipt.eventRef.eventId,
          scopeSequence: receipt.scopeSequence,
          storedIndex: receipt.storedIndex,
          eventSha256: receipt.eventRef.eventSha256,
          receiptSha256: receipt.receiptSha256,
          occurredAt: receipt.occurredAt,
          summary: { ...receipt.body },
        })),
      };
    } catch (error) {
      if (error instanceof ReceiptCursorError) {
        throw new DocketError(error.code === "stale-cursor" ? ErrorCodes.staleCursor : ErrorCodes.invalidCursor, error.message);
      }
      throw toDocketError(error);
    }
  }
}

/** Verifies a ledger file from its first byte, independent of any cached state. */
export function verifyLedgerFile(ledgerPath: string): VerifyResult {
  const ledger = new WorkspaceLedger({ workspaceFolder: "", ledgerPath, trusted: false });
  ledger.refresh();
  const health = ledger.health();
  const fault = ledger.store.fault;
  const rejected = ledger.store.replayer.firstRejected;
  let firstFault: VerifyResult["firstFault"] = null;
  if (fault !== null) {
    firstFault = { line: fault.line + 1, index: null, code: fault.code, message: fault.message };
  } else if (rejected !== null) {
    firstFault = { line: (ledger.lineOfReplayIndex(rejected.index) ?? 0) + 1, index: rejected.index, code: rejected.code, message: rejected.message };
  } else if (ledger.store.tailIsCompleteLine()) {
    // A crashed writer leaves a strict prefix of a line; a whole line without (or with an
    // altered) newline means a committed line's terminator was edited.
    firstFault = {
      line: ledger.store.lineCount + 1,
      index: null,
      code: "ledger-line-unterminated",
      message: "the last line is complete but its newline is missing or altered",
    };
  }
  return {
    ok: firstFault === null,
    path: ledgerPath,
    lines: health.lines,
    accepted: health.accepted,
    rejected: health.rejected,
    firstFault,
    tornTailBytes: health.tornTailBytes,
    headLineSha256: ledger.store.headLineSha256,
  };
}
