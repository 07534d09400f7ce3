// A proposal's records as read-only documents under `docket-proposal:`: for each record the bytes
// on disk now ("existing"; empty for a create) and the bytes the proposal would write
// ("proposed"), exactly as the backend reports them. Being virtual, they can never be edited or
// saved over the notebook; the editor-title actions key on this scheme.
import * as vscode from "vscode";
import { Requests, type ProposalDetail, type ProposalRecordDetail } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { parseProposalDocumentPath, PROPOSAL_SCHEME, proposalDocumentPath, type ProposalSide } from "./proposalTreeModel";

export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly details = new Map<string, Promise<ProposalDetail>>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly backend: Backend) {}

  uri(proposalId: string, record: ProposalRecordDetail, side: ProposalSide): vscode.Uri {
    return vscode.Uri.from({
      scheme: PROPOSAL_SCHEME,
      path: proposalDocumentPath({ proposalId, side, recordId: record.recordId, path: record.path }),
    });
  }

  /** The proposal as the backend reports it now; asked once per proposal until `forget`. */
  detail(proposalId: string): Promise<ProposalDetail> {
    let pending = this.details.get(proposalId);
    if (pending === undefined) {
      pending = this.backend.request(Requests.notebookProposal, { proposalId });
      // A failed answer is not kept: the next look asks again.
      pending.catch(() => this.details.delete(proposalId));
      this.details.set(proposalId, pending);
    }
    return pending;
  }

  /** Drops cached answers (the proposal was saved, discarded or may have gone stale) and refreshes open documents. */
  forget(): void {
    this.details.clear();
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === PROPOSAL_SCHEME) this.changeEmitter.fire(document.uri);
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const address = parseProposalDocumentPath(uri.path);
    if (address === null) return "";
    try {
      const detail = await this.detail(address.proposalId);
      const record = detail.records.find((candidate) => candidate.recordId === address.recordId);
      if (record === undefined) return "";
      return address.side === "existing" ? (record.before ?? "") : record.after;
    } catch {
      // Saved or discarded since the editor opened: an empty document rather than an error tab.
      return "";
    }
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
