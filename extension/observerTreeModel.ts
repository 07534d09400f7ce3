// The Observer's part of the Observer view, built from the backend's `ObserverOverview`: a root
// saying whether Observer is on and where the Episode stands, the replay issues when there are any,
// then one section per kind of working evidence (tool results waiting for nomination, candidates,
// readings, observations, hypotheses, Memos) and the Episode's pending proposal. Empty sections are
// left out. No `vscode` import, so the mapping is unit-tested: strings go through the `l10n` passed
// in (the extension passes vscode.l10n) and a node's action is data the provider turns into a command.
import type { ObserverOverview } from "../server/protocol/messages";
import type { Translator, TreeNodeFields } from "./guardTreeModel";
import { shortProposalId } from "./proposalTreeModel";

export type { Translator } from "./guardTreeModel";

export interface ObserverModelContext {
  readonly l10n: Translator;
  /** Formats an ISO timestamp for display. */
  readonly time: (iso: string) => string;
}

/** What activating a node does: turn Observer on or off (the root node). */
export type ObserverNodeAction = "observer-on" | "observer-off";

export interface ObserverNode extends TreeNodeFields {
  readonly kind: "observer";
  readonly children: readonly ObserverNode[];
  readonly action?: ObserverNodeAction;
  /** What a screen reader says for the row, when the label alone would not carry its meaning. */
  readonly accessibilityLabel?: string;
}

/** `contextValue`s, for `view/item/context` menus. */
export const ObserverItemContext = {
  rootOn: "docket.observer.on",
  rootOff: "docket.observer.off",
  rootUnavailable: "docket.observer.unavailable",
  issues: "docket.observer.issues",
  issue: "docket.observer.issue",
  section: "docket.observer.section",
  staged: "docket.observer.staged",
  candidate: "docket.observer.candidate",
  reading: "docket.observer.reading",
  observation: "docket.observer.observation",
  hypothesis: "docket.observer.hypothesis",
  memo: "docket.observer.memo",
  memoRequest: "docket.observer.memoRequest",
  proposal: "docket.observer.proposal",
} as const;

export interface ObserverTreeInput {
  /** Null while the backend cannot be asked; `error` then says why. */
  readonly overview: ObserverOverview | null;
  readonly error: string | null;
}

const GREEN = "testing.iconPassed";
const RED = "testing.iconFailed";
const YELLOW = "problemsWarningIcon.foreground";

type Stance = ObserverOverview["observations"][number]["stance"];
type Assessment = NonNullable<ObserverOverview["hypotheses"][number]["review"]>["assessment"];

/** The codicon (and colour) of each stance an observation takes toward its inquiry. */
export function stanceIcon(stance: Stance): { icon: string; color?: string } {
  switch (stance) {
    case "supports":
      return { icon: "pass", color: GREEN };
    case "challenges":
      return { icon: "error", color: RED };
    case "refines":
      return { icon: "edit" };
    case "boundary":
      return { icon: "circle-slash" };
    case "uncertain":
      return { icon: "question" };
  }
}

export function stanceLabel(stance: Stance, { l10n }: ObserverModelContext): string {
  switch (stance) {
    case "supports":
      return l10n.t("supports");
    case "challenges":
      return l10n.t("challenges");
    case "refines":
      return l10n.t("refines");
    case "boundary":
      return l10n.t("marks a boundary");
    case "uncertain":
      return l10n.t("uncertain");
  }
}

function assessmentLabel(assessment: Assessment, { l10n }: ObserverModelContext): string {
  switch (assessment) {
    case "supports":
      return l10n.t("review: supports");
    case "challenges":
      return l10n.t("review: challenges");
    case "mixed":
      return l10n.t("review: mixed");
    case "insufficient-context":
      return l10n.t("review: insufficient context");
  }
}

export function modeLabel(mode: ObserverOverview["mode"], { l10n }: ObserverModelContext): string {
  return mode === "on" ? l10n.t("on") : l10n.t("off");
}

export function episodeStatusLabel(status: ObserverOverview["episode"]["status"], { l10n }: ObserverModelContext): string {
  switch (status) {
    case "empty":
      return l10n.t("none yet");
    case "open":
      return l10n.t("open");
    case "reviewing-save":
      return l10n.t("reviewing save");
    case "settled":
      return l10n.t("settled");
  }
}

function languageLabel(language: "en" | "ko" | null, { l10n }: ObserverModelContext): string {
  if (language === null) return l10n.t("not chosen");
  return language === "ko" ? "한국어" : "English";
}

function yesNo(value: boolean, { l10n }: ObserverModelContext): string {
  return value ? l10n.t("yes") : l10n.t("no");
}

/** The root row's tooltip: the Episode, the Notebook, the language, the issues and the next step. */
export function observerSummaryLines(overview: ObserverOverview, context: ObserverModelContext): string[] {
  const { l10n } = context;
  const episode = overview.episode;
  const lines = [
    l10n.t("Observer: {0}", modeLabel(overview.mode, context)),
    l10n.t("Episode: {0} ({1})", episode.episodeId ?? l10n.t("none"), episodeStatusLabel(episode.status, context)),
    l10n.t("Notebook: {0}", overview.notebook === null ? l10n.t("none selected") : `${overview.notebook.root} (${overview.notebook.notebookId})`),
    l10n.t("Output language: {0}", languageLabel(episode.language, context)),
    overview.issueCount === 0 ? l10n.t("Replay issues: none") : l10n.t("Replay issues: {0}", overview.issueCount),
  ];
  if (overview.next !== "") lines.push(l10n.t("Next: {0}", overview.next));
  return lines;
}

function rootNode(input: ObserverTreeInput, context: ObserverModelContext): ObserverNode {
  const { l10n } = context;
  const overview = input.overview;
  if (overview === null) {
    return {
      kind: "observer",
      id: "observer/root",
      label: l10n.t("Observer"),
      description: input.error ?? l10n.t("unavailable"),
      tooltip: input.error ?? l10n.t("unavailable"),
      icon: "warning",
      iconColor: YELLOW,
      context: ObserverItemContext.rootUnavailable,
      children: [],
    };
  }
  const on = overview.mode === "on";
  // The mode is the label (what activating the row toggles); the Episode and the next step follow
  // in the description, which a default-width side bar may cut (the tooltip has them all).
  const label = l10n.t("Observer: {0}", modeLabel(overview.mode, context));
  const episode = l10n.t("Episode {0}", episodeStatusLabel(overview.episode.status, context));
  const description = overview.next === "" ? episode : `${episode} · ${overview.next}`;
  return {
    kind: "observer",
    id: "observer/root",
    label,
    description,
    tooltip: [...observerSummaryLines(overview, context), on ? l10n.t("Activate to turn Observer off.") : l10n.t("Activate to turn Observer on.")].join("\n"),
    icon: on ? "eye" : "eye-closed",
    context: on ? ObserverItemContext.rootOn : ObserverItemContext.rootOff,
    children: [],
    action: on ? "observer-off" : "observer-on",
    accessibilityLabel: overview.next === "" ? `${label}, ${episode}` : `${label}, ${episode}. ${overview.next}`,
  };
}

/** Tree ids must be unique; a repeated key (a hand-edited history) gets its position appended. */
function uniqueIds<T>(prefix: string, items: readonly T[], key: (item: T) => string): string[] {
  const seen = new Set<string>();
  return items.map((item, index) => {
    const id = `${prefix}/${key(item)}`;
    const unique = seen.has(id) ? `${id}#${index}` : id;
    seen.add(unique);
    return unique;
  });
}

function section(id: string, label: string, icon: string, children: ObserverNode[], extra: Partial<Pick<ObserverNode, "tooltip" | "description" | "iconColor">> = {}): ObserverNode[] {
  if (children.length === 0) return [];
  return [
    {
      kind: "observer",
      id: `observer/${id}`,
      label,
      description: extra.description ?? String(children.length),
      tooltip: extra.tooltip,
      icon,
      iconColor: extra.iconColor,
      context: id === "issues" ? ObserverItemContext.issues : ObserverItemContext.section,
      expanded: true,
      children,
    },
  ];
}

function leaf(fields: Omit<ObserverNode, "kind" | "children">): ObserverNode {
  return { kind: "observer", children: [], ...fields };
}

function issuesSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const ids = uniqueIds("observer/issues", overview.issues, (issue) => String(issue.index));
  const children = overview.issues.map((issue, index) =>
    leaf({
      id: ids[index] ?? `observer/issues/${index}`,
      label: issue.code,
      description: issue.message,
      tooltip: l10n.t("Entry {0}: {1} ({2})", issue.index, issue.message, issue.code),
      icon: "warning",
      iconColor: YELLOW,
      context: ObserverItemContext.issue,
      accessibilityLabel: l10n.t("Replay issue at entry {0}: {1}", issue.index, issue.message),
    }),
  );
  const hidden = overview.issueCount - overview.issues.length;
  return section("issues", l10n.t("Issues"), "warning", children, {
    iconColor: YELLOW,
    description: String(overview.issueCount),
    tooltip:
      hidden > 0
        ? l10n.t("Observer's history has {0} replay issues ({1} not listed); every Observer change is refused until it is repaired.", overview.issueCount, hidden)
        : l10n.t("Observer's history has {0} replay issues; every Observer change is refused until it is repaired.", overview.issueCount),
  });
}

function stagedSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const ids = uniqueIds("observer/staged", overview.staged, (result) => result.toolCallId);
  const children = overview.staged.map((result, index) => {
    const when = context.time(result.occurredAt);
    return leaf({
      id: ids[index] ?? "",
      label: result.toolName,
      description: result.isError ? l10n.t("{0} · failed", when) : when,
      tooltip: [
        l10n.t("Tool: {0}", result.toolName),
        l10n.t("Tool call: {0}", result.toolCallId),
        l10n.t("Agent: {0}", result.host),
        l10n.t("At: {0}", when),
        result.isError ? l10n.t("The tool reported an error.") : l10n.t("The tool succeeded."),
      ].join("\n"),
      icon: result.isError ? "error" : "tools",
      iconColor: result.isError ? RED : undefined,
      context: ObserverItemContext.staged,
      accessibilityLabel: result.isError ? l10n.t("{0}, failed, at {1}", result.toolName, when) : l10n.t("{0} at {1}", result.toolName, when),
    });
  });
  return section("staged", l10n.t("Waiting for nomination"), "inbox", children, {
    tooltip: l10n.t("Tool results of open agent runs that the agent may nominate as candidates."),
  });
}

function candidatesSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const ids = uniqueIds("observer/candidates", overview.candidates, (candidate) => candidate.candidateId);
  const children = overview.candidates.map((candidate, index) =>
    leaf({
      id: ids[index] ?? "",
      label: candidate.label,
      description: candidate.read ? l10n.t("{0} · read", candidate.origin) : candidate.origin,
      tooltip: [candidate.label, l10n.t("Candidate: {0}", candidate.candidateId), l10n.t("Captured: {0}", context.time(candidate.capturedAt)), "", candidate.preview].join("\n"),
      icon: candidate.read ? "mail-read" : "mail",
      context: ObserverItemContext.candidate,
    }),
  );
  return section("candidates", l10n.t("Candidates"), "files", children);
}

function readingsSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const ids = uniqueIds("observer/readings", overview.readings, (reading) => reading.readId);
  const children = overview.readings.map((reading, index) => {
    const claims = reading.claims === 1 ? l10n.t("1 claim") : l10n.t("{0} claims", reading.claims);
    return leaf({
      id: ids[index] ?? "",
      label: reading.title,
      description: reading.observed ? l10n.t("{0} · observed", claims) : claims,
      tooltip: [reading.title, l10n.t("Source: {0}", reading.sourceId), claims, "", reading.summary].join("\n"),
      icon: "book",
      context: ObserverItemContext.reading,
    });
  });
  return section("readings", l10n.t("Readings"), "library", children);
}

function observationsSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const ids = uniqueIds("observer/observations", overview.observations, (observation) => observation.observationId);
  const children = overview.observations.map((observation, index) => {
    const presentation = stanceIcon(observation.stance);
    const stance = stanceLabel(observation.stance, context);
    const source = observation.sourceId ?? observation.readId;
    const lines = [
      l10n.t("Stance: {0}", stance),
      l10n.t("Movement: {0}", observation.movement),
      l10n.t("Source: {0}", source),
      "",
      observation.rationale,
    ];
    if (observation.newHypothesis !== null) lines.push("", l10n.t("New hypothesis: {0}", observation.newHypothesis));
    lines.push("", l10n.t("Reconciled into the Memo: {0}", yesNo(observation.consumed, context)));
    return leaf({
      id: ids[index] ?? "",
      label: observation.rationale,
      description: source,
      tooltip: lines.join("\n"),
      icon: presentation.icon,
      iconColor: presentation.color,
      context: ObserverItemContext.observation,
      accessibilityLabel: l10n.t("{0}: {1} (source {2})", stance, observation.rationale, source),
    });
  });
  return section("observations", l10n.t("Observations"), "eye", children);
}

function hypothesesSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const ids = uniqueIds("observer/hypotheses", overview.hypotheses, (hypothesis) => hypothesis.observationId);
  const children = overview.hypotheses.map((hypothesis, index) => {
    const review = hypothesis.review;
    const assessment = review === null ? l10n.t("not reviewed yet") : assessmentLabel(review.assessment, context);
    // The person's own words come first, unchanged; the review is only beside them.
    const lines = [hypothesis.original];
    if (hypothesis.context !== "") lines.push("", l10n.t("Context: {0}", hypothesis.context));
    lines.push("", assessment);
    if (review !== null) {
      const clues = (title: string, items: readonly string[]): void => {
        if (items.length > 0) lines.push(title, ...items.map((item) => `• ${item}`));
      };
      clues(l10n.t("Supporting clues:"), review.supportingClues);
      clues(l10n.t("Challenging clues:"), review.challengingClues);
      clues(l10n.t("Missing information:"), review.missingInformation);
      if (review.interpretationBoundary !== "") lines.push(l10n.t("Boundary: {0}", review.interpretationBoundary));
    }
    return leaf({
      id: ids[index] ?? "",
      label: hypothesis.original,
      description: assessment,
      tooltip: lines.join("\n"),
      icon: "lightbulb",
      context: ObserverItemContext.hypothesis,
      accessibilityLabel: l10n.t("Hypothesis: {0} ({1})", hypothesis.original, assessment),
    });
  });
  return section("hypotheses", l10n.t("Hypotheses"), "lightbulb", children);
}

function memosSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const ids = uniqueIds("observer/memos", overview.memos, (memo) => memo.memoId);
  const children = overview.memos.map((memo, index) =>
    leaf({
      id: ids[index] ?? "",
      label: memo.title,
      description: memo.evidence === 1 ? l10n.t("{0} · 1 piece of evidence", memo.disposition) : l10n.t("{0} · {1} pieces of evidence", memo.disposition, memo.evidence),
      tooltip: [memo.title, l10n.t("Memo: {0}", memo.memoId), l10n.t("Disposition: {0}", memo.disposition), l10n.t("Revision: {0}", memo.revisionId)].join("\n"),
      icon: "note",
      context: ObserverItemContext.memo,
    }),
  );
  const pending = overview.pendingMemoRequest;
  if (pending !== null) {
    const count = pending.observationIds.length;
    children.push(
      leaf({
        id: `observer/memos/request/${pending.requestId}`,
        label: l10n.t("Memo reconciliation requested"),
        description: count === 1 ? l10n.t("1 observation") : l10n.t("{0} observations", count),
        tooltip: [l10n.t("Request: {0}", pending.requestId), l10n.t("The agent's next Observer commit answers it."), ...pending.observationIds].join("\n"),
        icon: "sync",
        context: ObserverItemContext.memoRequest,
      }),
    );
  }
  const last = overview.lastMemo;
  return section("memos", l10n.t("Memos"), "notebook", children, {
    description: String(overview.memos.length),
    tooltip: last === null ? undefined : [l10n.t("Last Memo revision: {0}", last.revisionId), "", last.summary].join("\n"),
  });
}

function proposalSection(overview: ObserverOverview, context: ObserverModelContext): ObserverNode[] {
  const { l10n } = context;
  const proposalId = overview.episode.proposalId;
  // A settled Episode keeps its proposal id, but nothing waits for review any more.
  if (proposalId === null || overview.episode.status !== "reviewing-save") return [];
  const lines = [l10n.t("Proposal {0}", proposalId), l10n.t("Its records are listed below in this view: open one to review it, then Save All or Discard.")];
  if (overview.episode.summary !== null) lines.push("", overview.episode.summary);
  return section("proposal", l10n.t("Proposal"), "git-pull-request", [
    leaf({
      id: `observer/proposal/${proposalId}`,
      label: l10n.t("Proposal {0}", shortProposalId(proposalId)),
      description: l10n.t("review below"),
      tooltip: lines.join("\n"),
      icon: "git-pull-request",
      context: ObserverItemContext.proposal,
    }),
  ]);
}

export function buildObserverTree(input: ObserverTreeInput, context: ObserverModelContext): ObserverNode[] {
  const root = rootNode(input, context);
  const overview = input.overview;
  if (overview === null) return [root];
  return [
    root,
    ...issuesSection(overview, context),
    ...stagedSection(overview, context),
    ...candidatesSection(overview, context),
    ...readingsSection(overview, context),
    ...observationsSection(overview, context),
    ...hypothesesSection(overview, context),
    ...memosSection(overview, context),
    ...proposalSection(overview, context),
  ];
}

/** Whether the Observer status-bar item is worth showing: a Notebook is configured or Observer was used. */
export function observerWorthShowing(overview: ObserverOverview | null, notebookConfigured: boolean): boolean {
  if (notebookConfigured) return true;
  return overview !== null && (overview.mode === "on" || overview.episode.status !== "empty" || overview.entries > 0);
}
