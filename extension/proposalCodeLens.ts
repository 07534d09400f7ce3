// Text actions above a proposed record in the diff editor: the editor-title buttons are icons
// whose names only show on hover, so the same Save All / Discard commands are spelled out here,
// with the reason when the proposal cannot be saved.
import * as vscode from "vscode";
import type { ProposalDocuments } from "./proposalDocuments";
import { parseProposalDocumentPath } from "./proposalTreeModel";

export class ProposalCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly documents: ProposalDocuments,
    private readonly commands: { readonly saveAll: string; readonly discard: string },
  ) {
    // A proposal that turned stale or was saved must not keep offering yesterday's action.
    this.subscription = documents.onDidChange(() => this.changed.fire());
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const address = parseProposalDocumentPath(document.uri.path);
    // Only the proposed side: the diff editor would otherwise show every action twice.
    if (address === null || address.side !== "proposed") return [];
    let detail;
    try {
      detail = await this.documents.detail(address.proposalId);
    } catch {
      return [];
    }
    const top = new vscode.Range(0, 0, 0, 0);
    const proposalId = detail.proposalId;
    const count = detail.records.length;
    const first = detail.stale
      ? new vscode.CodeLens(top, { title: `$(warning) ${vscode.l10n.t("Stale: a target record changed on disk, so this proposal cannot be saved")}`, command: "" })
      : !detail.valid
        ? new vscode.CodeLens(top, { title: `$(warning) ${vscode.l10n.t("Does not validate, so this proposal cannot be saved")}`, command: "" })
        : new vscode.CodeLens(top, {
            title: `$(save-all) ${count === 1 ? vscode.l10n.t("Save 1 Record") : vscode.l10n.t("Save All {0} Records", count)}`,
            command: this.commands.saveAll,
            arguments: [proposalId],
          });
    return [
      first,
      new vscode.CodeLens(top, { title: `$(discard) ${vscode.l10n.t("Discard Proposal")}`, command: this.commands.discard, arguments: [proposalId] }),
    ];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
