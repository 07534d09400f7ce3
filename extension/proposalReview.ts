// "Docket: Review Notebook Proposal": one click from the Work view's proposal row (or the palette)
// to the proposal itself. The Observer view is collapsed by default, so the command opens it,
// selects the proposal with its records shown, and opens the first record's diff, where Save All
// Records and Discard Proposal are written out in the editor title.
import * as vscode from "vscode";
import type { Backend } from "./backend";
import { createCommandRunner } from "./commandRunner";
import type { ObserverTreeProvider, ObserverViewNode } from "./observerTree";
import { REVIEW_PROPOSAL_COMMAND } from "./proposalNotice";
import { OPEN_RECORD_DIFF_COMMAND } from "./proposalTree";

/** True while at least one Notebook proposal waits for review (the palette offers the command only then). */
export const PROPOSALS_PENDING_CONTEXT_KEY = "docket.proposalsPending";

interface Dependencies {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  readonly view: vscode.TreeView<ObserverViewNode>;
  readonly tree: ObserverTreeProvider;
}

export function registerProposalReview({ backend, log, view, tree }: Dependencies): vscode.Disposable {
  const { register } = createCommandRunner({ backend, log, warnings: new Set() });
  return register(REVIEW_PROPOSAL_COMMAND, async (proposalId?: unknown): Promise<string | undefined> => {
    const wanted = typeof proposalId === "string" ? proposalId : undefined;
    const proposals = tree.proposals.getChildren().flatMap((node) => (node.kind === "proposal" ? [node] : []));
    const node = proposals.find((candidate) => wanted === undefined || candidate.proposal.proposalId === wanted);
    if (node === undefined) {
      void vscode.window.showInformationMessage(
        wanted === undefined ? vscode.l10n.t("No Notebook proposal is waiting for review.") : vscode.l10n.t("Proposal {0} is no longer waiting for review.", wanted),
      );
      return undefined;
    }
    // Revealing opens and expands the collapsed Observer view.
    await view.reveal(node, { select: true, focus: true, expand: true });
    const first = node.children[0];
    if (first !== undefined) await vscode.commands.executeCommand(OPEN_RECORD_DIFF_COMMAND, node.proposal.proposalId, first.record.recordId);
    return node.proposal.proposalId;
  });
}
