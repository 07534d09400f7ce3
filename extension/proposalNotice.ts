// What the Work view says about Notebook proposals waiting for review. The Work view is the one a
// newcomer sees open, so the count on the Docket icon is put there (its badge) together with a row
// that names what waits and opens the proposal in the Observer view with one click. No `vscode`
// import, so it is unit-tested: strings go through the `l10n` passed in (the extension passes
// vscode.l10n) and plurals through the UI language's plural rules.
import type { ProposalSummary } from "../server/protocol/messages";
import type { Translator } from "./guardTreeModel";
import { originText, proposalsInViewOrder, shortProposalId } from "./proposalTreeModel";

/** Reveals a pending proposal in the Observer view and opens its first record (argument: a proposal id, else the first listed). */
export const REVIEW_PROPOSAL_COMMAND = "docket.notebook.reviewProposal";

export interface NoticeContext {
  readonly l10n: Translator;
  /** The UI language (vscode.env.language), for its plural rules. */
  readonly locale: string;
}

export interface ProposalNotice {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  /** The proposal a click opens: the first one the Observer view lists. */
  readonly proposalId: string;
}

function one(count: number, locale: string): boolean {
  return new Intl.PluralRules(locale).select(count) === "one";
}

/** "1 Notebook proposal waiting for review": the badge's tooltip and the row's first tooltip line. */
export function waitingText(count: number, { l10n, locale }: NoticeContext): string {
  return one(count, locale) ? l10n.t("{0} Notebook proposal waiting for review", count) : l10n.t("{0} Notebook proposals waiting for review", count);
}

function recordsText(count: number, { l10n, locale }: NoticeContext): string {
  return one(count, locale) ? l10n.t("{0} record", count) : l10n.t("{0} records", count);
}

/** "2 records · from docket notebook propose · stale": what a proposal holds, who made it, whether it can be saved. */
export function proposalFacts(proposal: ProposalSummary, context: NoticeContext): string {
  const { l10n } = context;
  const state = proposal.stale ? l10n.t("stale: cannot be saved") : proposal.valid ? null : l10n.t("invalid");
  return [recordsText(proposal.records.length, context), originText(proposal.origin, l10n), state].filter((part) => part !== null).join(" · ");
}

/** Null when nothing waits. */
export function proposalNotice(proposals: readonly ProposalSummary[], context: NoticeContext): ProposalNotice | null {
  const listed = proposalsInViewOrder(proposals);
  const first = listed[0];
  if (first === undefined) return null;
  const { l10n } = context;
  const single = listed.length === 1;
  return {
    label: single ? l10n.t("Notebook proposal to review") : l10n.t("{0} Notebook proposals to review", listed.length),
    description: single ? proposalFacts(first, context) : l10n.t("in the Observer view"),
    tooltip: [
      waitingText(listed.length, context),
      ...listed.map((proposal) => l10n.t("Proposal {0}: {1}", shortProposalId(proposal.proposalId), proposalFacts(proposal, context))),
      single
        ? l10n.t("Click to open it in the Observer view with its first record.")
        : l10n.t("Click to open the first one in the Observer view with its first record."),
    ].join("\n"),
    proposalId: first.proposalId,
  };
}
