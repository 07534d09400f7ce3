// A Pi session opened read-only in the backend: the same status, receipts, policy and work state
// the workspace ledger answers, computed from the session's active branch. The file is re-read
// whenever its stamp changes (Pi keeps appending while it runs); a file that stops being readable
// shows as a blocked history naming the problem until it is readable again.
import { describeHistory, type HistoryView } from "../developer/history";
import { ReceiptProjection } from "../developer/receipts";
import { describeWorkState } from "../developer/workState";
import { toDocketError, type DocketError } from "../errors";
import { hashValue } from "../ledger/canonicalJson";
import { Replayer } from "../ledger/replay";
import type { ReceiptDetail, ReceiptsPage, Status, ToolPolicyResult, VerifyResult, WorkState } from "../protocol/messages";
import { historyPolicy, historyReceiptsPage, historyStatus } from "../workspace/historyStatus";
import { readReceiptDetail, type ReceiptPageQuery } from "../workspace/receiptQueries";
import { piSessionHealth, replayPiSession, verifyPiHistory, type PiHistory } from "./piHistory";
import { loadPiSession, sameStamp, statPiSession, type PiFileStamp } from "./piSessionFile";

export interface PiSessionContext {
  readonly workspaceFolder: string | null;
  readonly trusted: boolean;
}

type Loaded =
  | { readonly kind: "ok"; readonly stamp: PiFileStamp; readonly contentSha256: string; readonly history: PiHistory }
  | { readonly kind: "failed"; readonly stamp: PiFileStamp | null; readonly error: DocketError };

const EMPTY_PROJECTION = new ReceiptProjection();

export class PiSessionSource {
  private state: Loaded;

  /** Opens the session; throws DocketError when it is not a readable Pi session. */
  constructor(
    readonly path: string,
    private readonly context: PiSessionContext,
  ) {
    const loaded = loadPiSession(path);
    this.state = { kind: "ok", stamp: loaded.stamp, contentSha256: loaded.contentSha256, history: replayPiSession(loaded.read) };
  }

  /** Re-reads the file when it changed; true when it did. */
  refresh(): boolean {
    const stamp = statPiSession(this.path);
    if (stamp !== null && this.state.stamp !== null && sameStamp(stamp, this.state.stamp)) return false;
    if (stamp === null && this.state.kind === "failed" && this.state.stamp === null) return false;
    this.reload();
    return true;
  }

  private reload(): void {
    try {
      const loaded = loadPiSession(this.path);
      this.state = { kind: "ok", stamp: loaded.stamp, contentSha256: loaded.contentSha256, history: replayPiSession(loaded.read) };
    } catch (error) {
      this.state = { kind: "failed", stamp: statPiSession(this.path), error: toDocketError(error) };
    }
  }

  private historyView(): HistoryView {
    if (this.state.kind === "ok") return this.state.history.history;
    return { ...describeHistory(new Replayer()), mode: "blocked", blockedReason: `${this.state.error.code}: ${this.state.error.message}` };
  }

  private projection(): ReceiptProjection {
    return this.state.kind === "ok" ? this.state.history.projection : EMPTY_PROJECTION;
  }

  status(): Status {
    const state = this.state;
    return historyStatus({
      workspaceFolder: this.context.workspaceFolder,
      trusted: this.context.trusted,
      history: this.historyView(),
      health: state.kind === "ok" ? piSessionHealth(this.path, state.history) : null,
      revision: hashValue({
        domain: "docket/status-revision/pi-session/v1",
        path: this.path,
        contentSha256: state.kind === "ok" ? state.contentSha256 : null,
        failure: state.kind === "failed" ? state.error.code : null,
      }),
      projection: this.projection(),
      source: { kind: "pi-session", path: this.path, entries: state.kind === "ok" ? state.history.read.branchEntries : 0 },
    });
  }

  receiptsPage(
    cursor: string | null,
    pageSize: number,
    from: "start" | "end" = "start",
    filter: Pick<ReceiptPageQuery, "kinds" | "containing"> = {},
  ): ReceiptsPage {
    return historyReceiptsPage(this.projection(), cursor, pageSize, from, filter);
  }

  receiptDetail(eventSha256: string): ReceiptDetail {
    return readReceiptDetail(this.projection(), eventSha256);
  }

  policy(): ToolPolicyResult {
    return historyPolicy(this.historyView());
  }

  workState(): WorkState {
    return describeWorkState(this.historyView());
  }

  /** Verifies from the first byte, independent of the cached state (like `docket/ledger/verify`). */
  verify(): VerifyResult {
    this.reload();
    if (this.state.kind === "failed") throw this.state.error;
    return verifyPiHistory(this.path, this.state.history);
  }

  /** The history, for request handlers that need more than the projections above. */
  get current(): PiHistory | null {
    return this.state.kind === "ok" ? this.state.history : null;
  }
}
