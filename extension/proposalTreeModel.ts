// The Observer view's nodes, built from what the backend says: the Notebook with its health, then
// each pending proposal with its records (operation, relative path, validation state, stale).
// No `vscode` import, so the shape is unit-tested; the provider turns nodes into TreeItems and
// translates. Also the `docket-proposal:` document addresses, shared by the tree and the documents,
// and the short names a side-bar row gives proposals and records (ids are UUIDs: a row at the
// default side-bar width cannot hold one, the tooltip holds the whole id).
import type { NotebookStatus, ProposalRecordSummary, ProposalSummary } from "../server/protocol/messages";
import type { Translator } from "./guardTreeModel";

export const PROPOSAL_SCHEME = "docket-proposal";

/** `contextValue`s, for `view/item/context` menus. */
export const ProposalItemContext = {
  notebook: "docket.notebook",
  notebookMissing: "docket.notebook.missing",
  notebookUnavailable: "docket.notebook.unavailable",
  proposal: "docket.proposal",
  proposalStale: "docket.proposal.stale",
  record: "docket.proposal.record",
  empty: "docket.proposal.none",
} as const;

export type NotebookNode = {
  readonly kind: "notebook";
  readonly id: string;
  readonly context: string;
  /** Null while the backend cannot be asked; `error` then says why. */
  readonly status: NotebookStatus | null;
  readonly error: string | null;
};

export type RecordNode = {
  readonly kind: "record";
  readonly id: string;
  readonly context: string;
  readonly proposalId: string;
  readonly record: ProposalRecordSummary;
  /** The whole proposal is stale: no record of it can be saved. */
  readonly proposalStale: boolean;
};

export type ProposalNode = {
  readonly kind: "proposal";
  readonly id: string;
  readonly context: string;
  readonly proposal: ProposalSummary;
  readonly children: readonly RecordNode[];
};

export type EmptyNode = { readonly kind: "empty"; readonly id: string; readonly context: string };

export type ProposalTreeNode = NotebookNode | ProposalNode | RecordNode | EmptyNode;

export interface ProposalTreeInput {
  readonly status: NotebookStatus | null;
  readonly proposals: readonly ProposalSummary[] | null;
  /** Why the backend could not answer, when it could not. */
  readonly error: string | null;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const UUID = /([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/u;

/** `proposal-771696ae-43cd-…` → `771696ae`: enough to tell proposals apart in a row; other ids as they are. */
export function shortProposalId(proposalId: string): string {
  const match = new RegExp(`^proposal-${UUID.source}$`, "u").exec(proposalId);
  return match?.[1] ?? proposalId;
}

/**
 * A record's file name for a row: the last segment of its notebook-relative path, a generated
 * `<type>-<uuid>.md` name cut to the UUID's first block (`source-771696ae….md`).
 */
export function recordFileLabel(recordPath: string): string {
  const name = recordPath.slice(recordPath.lastIndexOf("/") + 1);
  const match = new RegExp(`^([a-z]+-)${UUID.source}(\\.md)$`, "u").exec(name);
  return match === null ? name : `${match[1] ?? ""}${match[2] ?? ""}…${match[3] ?? ""}`;
}

/** Who made the proposal, so the reviewer knows whose batch it is; null when it was not recorded. */
export function originText(origin: ProposalSummary["origin"], l10n: Translator): string | null {
  if (origin === null) return null;
  if (origin.kind === "cli") return l10n.t("from docket notebook propose");
  if (origin.kind === "observer") return l10n.t("from Observer's Review & Save");
  return origin.client === null ? l10n.t("from an MCP agent") : l10n.t("from {0} (MCP)", origin.client);
}

/** The proposals in the order the Observer view lists them (by id). */
export function proposalsInViewOrder(proposals: readonly ProposalSummary[]): ProposalSummary[] {
  return [...proposals].sort((a, b) => compare(a.proposalId, b.proposalId));
}

export function buildProposalTree(input: ProposalTreeInput): ProposalTreeNode[] {
  const status = input.status;
  const notebookContext =
    status === null
      ? ProposalItemContext.notebookUnavailable
      : status.health === "ok"
        ? ProposalItemContext.notebook
        : ProposalItemContext.notebookMissing;
  const roots: ProposalTreeNode[] = [{ kind: "notebook", id: "notebook", context: notebookContext, status, error: input.error }];
  // Ordered by id so the view does not reshuffle between refreshes.
  const proposals = proposalsInViewOrder(input.proposals ?? []);
  for (const proposal of proposals) {
    const id = `proposal/${proposal.proposalId}`;
    roots.push({
      kind: "proposal",
      id,
      context: proposal.stale ? ProposalItemContext.proposalStale : ProposalItemContext.proposal,
      proposal,
      children: [...proposal.records]
        .sort((a, b) => compare(a.path, b.path) || compare(a.recordId, b.recordId))
        .map((record) => ({
          kind: "record" as const,
          id: `${id}/${record.recordId}`,
          context: ProposalItemContext.record,
          proposalId: proposal.proposalId,
          record,
          proposalStale: proposal.stale,
        })),
    });
  }
  if (input.proposals !== null && proposals.length === 0) {
    roots.push({ kind: "empty", id: "proposals/none", context: ProposalItemContext.empty });
  }
  return roots;
}

export function childrenOf(node: ProposalTreeNode): readonly ProposalTreeNode[] {
  return node.kind === "proposal" ? node.children : [];
}

export type ProposalSide = "existing" | "proposed";

export interface ProposalDocumentAddress {
  readonly proposalId: string;
  readonly side: ProposalSide;
  readonly recordId: string;
  /** The record's relative path; the last segment gives the editor its language (Markdown). */
  readonly path: string;
}

/** `/<proposal>/<side>/<record>/<relative path>`, each id percent-encoded so it stays one segment. */
export function proposalDocumentPath(address: ProposalDocumentAddress): string {
  return `/${encodeURIComponent(address.proposalId)}/${address.side}/${encodeURIComponent(address.recordId)}/${address.path}`;
}

export function parseProposalDocumentPath(documentPath: string): ProposalDocumentAddress | null {
  const match = /^\/([^/]+)\/(existing|proposed)\/([^/]+)\/(.+)$/u.exec(documentPath);
  if (match === null) return null;
  try {
    return {
      proposalId: decodeURIComponent(match[1] ?? ""),
      side: match[2] as ProposalSide,
      recordId: decodeURIComponent(match[3] ?? ""),
      path: match[4] ?? "",
    };
  } catch {
    return null;
  }
}
