// The read side shared by every history source (the workspace ledger, a Pi session opened
// read-only): status, tool policy and receipt pages computed from a replayed history and its
// receipt projection, so both sources answer the same requests with the same code.
import type { HistoryView } from "../developer/history";
import { phaseOf, runtimeFacts } from "../developer/history";
import type { ReceiptProjection } from "../developer/receipts";
import { readReceiptsPage, type ReceiptPageQuery } from "./receiptQueries";
import type { ScopeState } from "../developer/scopeState";
import { legalOperations } from "../developer/toolPolicy";
import { toolPolicyResult } from "./policyResult";
import { hashValue } from "../ledger/canonicalJson";
import {
  type LedgerHealth,
  type ReceiptsPage,
  type ScopeSummary,
  type Status,
  type StatusSource,
  type ToolPolicyResult,
} from "../protocol/messages";

export function scopeSummary(scope: ScopeState): ScopeSummary {
  return {
    workScopeId: scope.workScopeId,
    status: scope.root.status,
    head: scope.head.scopeSequence,
    openedAt: scope.openedAt,
    closedAt: scope.closedAt,
    openedEventSha256: scope.openedEventSha256,
  };
}

export interface HistoryStatusInput {
  readonly workspaceFolder: string | null;
  readonly trusted: boolean;
  readonly history: HistoryView;
  readonly health: LedgerHealth | null;
  readonly revision: string;
  readonly projection: ReceiptProjection;
  readonly source: StatusSource;
}

/**
 * The status revision: a function of the ledger bytes read (head line, lines, torn tail) and the
 * fault, never of how they were read, so the snapshot's answer and the full replay's agree.
 */
export function statusRevision(input: { headLineSha256: string | null; lines: number; tornTailBytes: number; fault: string | null }): string {
  return hashValue({
    domain: "docket/status-revision/v1",
    headLineSha256: input.headLineSha256,
    lines: input.lines,
    tornTailBytes: input.tornTailBytes,
    fault: input.fault,
  });
}

export function historyStatus(input: HistoryStatusInput): Status {
  const history = input.history;
  return {
    workspaceFolder: input.workspaceFolder,
    trusted: input.trusted,
    phase: phaseOf(history),
    historyMode: history.mode,
    blockedReason: history.blockedReason,
    activeScope: history.activeScope === null ? null : scopeSummary(history.activeScope),
    scopes: history.scopeListings !== undefined ? history.scopeListings.map((listing) => ({ ...listing })) : history.scopes.map((scope) => scopeSummary(scope)),
    ledger: input.health,
    revision: input.revision,
    receiptCount: input.projection.count,
    projectionSha256: input.projection.projectionSha256,
    source: input.source,
    legalOperations: legalOperations(runtimeFacts(history)),
  };
}

/** The replay-current tool policy (what an agent may do right now). */
export function historyPolicy(history: HistoryView): ToolPolicyResult {
  return toolPolicyResult(runtimeFacts(history), phaseOf(history), history.activeScope?.workScopeId ?? null);
}

export function historyReceiptsPage(
  projection: ReceiptProjection,
  cursor: string | null,
  pageSize: number,
  from: "start" | "end" = "start",
  filter: Pick<ReceiptPageQuery, "kinds" | "containing"> = {},
): ReceiptsPage {
  return readReceiptsPage(projection, { cursor, pageSize, from, ...filter });
}
