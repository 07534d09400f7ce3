// What the Work view says about a frame's contributions and obligations. No `vscode` import, so
// it is unit-tested: strings go through the `l10n` passed in (the extension passes vscode.l10n).
// Presentation only: the ledger's contributions and discharges are shown as recorded, but the same
// claim admitted from two sources (the owner Skill's return and the judgment result restating it)
// is one entry, and a discharge says what settled it instead of a bare "discharged". A row's
// description stays short enough for a default-width side bar; the tooltip says the rest (the
// sources of a claim, the conclusion and the contributions a discharge cites).
import type { WorkFrame } from "../server/protocol/messages";
import type { Translator } from "./guardTreeModel";

type Contribution = WorkFrame["contributions"][number];
type Obligation = WorkFrame["obligations"][number];

export interface ContributionSource {
  readonly contributionId: string;
  readonly sourceKind: string;
  readonly sourceId: string;
}

/** One claim as the view lists it, with every admitted contribution that recorded it. */
export interface ShownContribution {
  readonly claim: string;
  /** In admission order; the first one names the entry. */
  readonly sources: readonly [ContributionSource, ...ContributionSource[]];
}

export function sourceKindLabel(kind: string, l10n: Translator): string {
  switch (kind) {
    case "skill-return":
      return l10n.t("the owner Skill's return");
    case "judgment-result":
      return l10n.t("the judgment result");
    default:
      return kind;
  }
}

/** Contributions with the same claim become one entry, in the order their first source was admitted. */
export function mergeContributions(contributions: readonly Contribution[]): ShownContribution[] {
  const byClaim = new Map<string, [ContributionSource, ...ContributionSource[]]>();
  for (const contribution of contributions) {
    const source = { contributionId: contribution.contributionId, sourceKind: contribution.sourceKind, sourceId: contribution.sourceId };
    const sources = byClaim.get(contribution.claim);
    if (sources === undefined) byClaim.set(contribution.claim, [source]);
    else sources.push(source);
  }
  return [...byClaim.entries()].map(([claim, sources]) => ({ claim, sources }));
}

export function contributionText(entry: ShownContribution, l10n: Translator): { description: string; tooltip: string } {
  return {
    description: entry.claim,
    tooltip: [entry.claim, ...entry.sources.map((source) => l10n.t("Recorded from {0}: {1}", sourceKindLabel(source.sourceKind, l10n), source.contributionId))].join("\n"),
  };
}

/**
 * How an obligation stands, in words. A discharged one says what settled it: the conclusion
 * (which discharges every obligation when it is recorded) and the contributions its discharge cites.
 */
export function obligationText(obligation: Obligation, frame: WorkFrame, l10n: Translator): { description: string; tooltip: string } {
  const head = `${obligation.obligationId}: ${obligation.statement}`;
  if (obligation.state === "blocked") return { description: l10n.t("blocked"), tooltip: `${head}\n${l10n.t("blocked")}` };
  const settled = obligation.settledBy;
  if (obligation.state === "open" || settled === null) return { description: l10n.t("open"), tooltip: `${head}\n${l10n.t("open")}` };
  const shown = mergeContributions(frame.contributions);
  const cited = shown.filter((entry) => entry.sources.some((source) => settled.contributionIds.includes(source.contributionId)));
  const conclusion = settled.withConclusion ? frame.conclusion : null;
  const description =
    conclusion !== null ? l10n.t("settled by the conclusion") : l10n.t("settled by {0}", cited.map((entry) => entry.claim).join("; "));
  const lines = [
    head,
    conclusion !== null
      ? l10n.t("Settled when the judgment was concluded; the conclusion discharges every obligation of the frame: {0}", conclusion.text)
      : l10n.t("Settled by an explicit discharge."),
    ...cited.map((entry) => l10n.t("On the strength of: {0} (from {1})", entry.claim, entry.sources.map((source) => sourceKindLabel(source.sourceKind, l10n)).join(", "))),
    ...settled.stopEvidence.map((evidence) => l10n.t("Stop evidence: {0}", evidence)),
  ];
  return { description, tooltip: lines.join("\n") };
}
