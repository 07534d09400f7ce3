// Builds the Work view's nodes from the backend's Status and WorkState: the active scope with its
// next step, frames (question, route sign, obligations, blockers, contributions, owner,
// conclusion), the active authorization, landings with their changed paths, debts and the commits
// that carry them (landingCommitsModel.ts), the
// completion guard's Reviews section (guardTreeModel.ts), closed scopes under History, and a row for
// Notebook proposals waiting for review (proposalNotice.ts). Whole tree at once, so a node never
// shows data from two revisions. A label says the essential thing in a few words, so that it is not
// cut at the default side-bar width; values and the rest go to the description and the tooltip.
import * as path from "node:path";
import * as vscode from "vscode";
import type { GuardOverview, ScopeSummary, Status, WorkFrame, WorkLanding, WorkState } from "../server/protocol/messages";
import { SHOW_EVIDENCE_COMMAND } from "./evidenceDocuments";
import { buildGuardSection, type GuardNode, type TreeNodeFields } from "./guardTreeModel";
import { buildCommitsNode, type CommitNode, type LandingCommitsState } from "./landingCommitsModel";
import { contributionText, mergeContributions, obligationText } from "./workFrameModel";
import { closedScopes, historyRows } from "./workHistory";
import { OperationCommandIds, purposeLabel } from "./operationCommands";
import { REVIEW_PROPOSAL_COMMAND, type ProposalNotice } from "./proposalNotice";
import { formatCount, formatShortTime, formatTime, phaseLabel } from "./strings";

/** `contextValue`s, for `view/item/context` menus. */
export const WorkItemContext = {
  blocked: "docket.blocked",
  ledgerProblem: "docket.ledgerProblem",
  activeScope: "docket.scope.active",
  closedScope: "docket.scope.closed",
  history: "docket.history",
  historyOlder: "docket.history.older",
  historyReading: "docket.history.reading",
  detail: "docket.detail",
  ledger: "docket.ledger",
  nextStep: "docket.nextStep",
  frameOpen: "docket.frame.open",
  frameConcluded: "docket.frame.concluded",
  obligation: "docket.obligation",
  authorization: "docket.authorization",
  landing: "docket.landing",
  landedPath: "docket.landedPath",
  piSession: "docket.piSession",
  debt: "docket.debt",
  off: "docket.off",
  proposals: "docket.proposals",
} as const;

/** Opens a commit's changes, from a landing's commit row (registered in teamCommands.ts). */
export const OPEN_LANDING_COMMIT_COMMAND = "docket.openLandingCommit";

/** What the view knows of each landing's commits; null when commits are not shown (no Git folder of this workspace). */
export type CommitsOf = ((landingId: string) => LandingCommitsState) | null;

/** Runs from the History's "Show older…" row with its cursor (registered by WorkTreeProvider). */
export const SHOW_OLDER_HISTORY_COMMAND = "docket.showOlderHistory";

export interface WorkNode extends TreeNodeFields {
  readonly children: readonly WorkNode[];
  readonly command?: vscode.Command;
  readonly resourceUri?: vscode.Uri;
  /** A landing's id, on its row: opening the row asks for its commits. */
  readonly landingId?: string;
}

export function isBlocked(status: Status): boolean {
  return status.historyMode === "blocked" || status.phase === "blocked" || status.blockedReason !== null;
}

function leaf(id: string, label: string, value: string, icon: string, context: string = WorkItemContext.detail): WorkNode {
  return { id, label, description: value, tooltip: `${label}: ${value}`, icon, context, children: [] };
}

function scopeDetails(parentId: string, scope: ScopeSummary): WorkNode[] {
  const nodes = [
    leaf(`${parentId}/id`, vscode.l10n.t("Scope ID"), scope.workScopeId, "symbol-key"),
    leaf(`${parentId}/head`, vscode.l10n.t("Head sequence"), String(scope.head), "list-ordered"),
    leaf(`${parentId}/opened`, vscode.l10n.t("Opened at"), formatTime(scope.openedAt), "calendar"),
  ];
  if (scope.closedAt !== null) nodes.push(leaf(`${parentId}/closed`, vscode.l10n.t("Closed at"), formatTime(scope.closedAt), "calendar"));
  return nodes;
}

/** The next step in a few words (the row's label) and what else there is to say about it. */
function operationText(operation: WorkState["nextAction"], state: WorkState): { label: string; detail?: string } {
  switch (operation) {
    case "open_judgment":
      return { label: vscode.l10n.t("Open a judgment"), detail: purposeLabel(state.purpose) };
    case "open_context_sources":
    case "conclude_judgment":
      return { label: vscode.l10n.t("Conclude the judgment") };
    case "authorize_change":
      return { label: vscode.l10n.t("Authorize the change") };
    case "record_landing":
      return { label: vscode.l10n.t("Record the landing"), detail: vscode.l10n.t("edit the files first") };
    case null:
      return { label: vscode.l10n.t("Nothing is due") };
  }
}

/** "1 unresolved conclusion" / "2 unresolved conclusions", through the locale's plural rules. */
function unresolvedRecorded(count: number): string {
  return new Intl.PluralRules(vscode.env.language).select(count) === "one"
    ? vscode.l10n.t("{0} unresolved conclusion recorded", count)
    : vscode.l10n.t("{0} unresolved conclusions recorded", count);
}

function nextStepNode(state: WorkState): WorkNode {
  const next = operationText(state.nextAction, state);
  // After a verified landing the cycle is complete; authorizing again (from the verification
  // frame) or opening a new judgment are both legal, so say that instead of "next".
  const done = state.phase === "done";
  return {
    id: "active/next",
    label: done ? vscode.l10n.t("Cycle complete") : vscode.l10n.t("Next: {0}", next.label),
    description: done ? vscode.l10n.t("the landing is verified") : next.detail,
    tooltip: done
      ? vscode.l10n.t("The landing is verified. Nothing is due: you may authorize another change, open a new judgment, or turn Docket off.")
      : vscode.l10n.t("Run the next legal operation. Legal now: {0}", state.legalOperations.join(", ") || vscode.l10n.t("none")),
    icon: state.nextAction === null ? "check-all" : "arrow-right",
    context: WorkItemContext.nextStep,
    children: [],
    command: state.nextAction === null ? undefined : { command: OperationCommandIds.nextStep, title: next.label },
  };
}

function roleLabel(role: WorkFrame["role"]): string {
  switch (role) {
    case "work":
      return vscode.l10n.t("Judgment");
    case "reroute":
      return vscode.l10n.t("Reroute judgment");
    case "verification":
      return vscode.l10n.t("Verification judgment");
  }
}

function roleIcon(role: WorkFrame["role"]): string {
  switch (role) {
    case "work":
      return "lightbulb";
    case "reroute":
      return "debug-step-back";
    case "verification":
      return "beaker";
  }
}

function drivenByNode(base: string, actor: NonNullable<WorkFrame["drivenBy"]>): WorkNode {
  const how =
    actor.kind === "vscode"
      ? vscode.l10n.t("the editor")
      : actor.kind === "mcp"
        ? vscode.l10n.t("an agent (MCP)")
        : actor.kind === "hook"
          ? vscode.l10n.t("an agent hook")
          : vscode.l10n.t("the terminal");
  // Who drove it first; the client's name and version after it, where a narrow row may cut them.
  const who = actor.client === null ? how : `${how} (${actor.client})`;
  const value = actor.session === null ? who : vscode.l10n.t("{0}, session {1}", who, actor.session);
  return leaf(`${base}/driven-by`, vscode.l10n.t("Driven by"), value, actor.kind === "vscode" ? "person" : actor.kind === "terminal" ? "terminal" : "hubot");
}

function obligationNode(base: string, frame: WorkFrame, obligation: WorkFrame["obligations"][number]): WorkNode {
  const look =
    obligation.state === "discharged"
      ? { icon: "pass", color: "testing.iconPassed" }
      : obligation.state === "blocked"
        ? { icon: "error", color: "testing.iconFailed" }
        : { icon: "circle-large-outline", color: undefined };
  const text = obligationText(obligation, frame, vscode.l10n);
  return {
    id: `${base}/obligation/${obligation.obligationId}`,
    label: obligation.statement,
    description: text.description,
    tooltip: text.tooltip,
    icon: look.icon,
    iconColor: look.color,
    context: WorkItemContext.obligation,
    children: [],
  };
}

/** The owning Skill with the subquestion and expected contribution it was given when the frame opened. */
function ownerNode(base: string, owner: NonNullable<WorkFrame["owner"]>): WorkNode {
  const id = `${base}/owner`;
  return {
    ...leaf(id, vscode.l10n.t("Owning Skill"), `${owner.skillName} (${owner.status})`, "tools"),
    expanded: true,
    children: [
      leaf(`${id}/subquestion`, vscode.l10n.t("Subquestion"), owner.subquestion, "question"),
      leaf(`${id}/expected`, vscode.l10n.t("Expected contribution"), owner.expectedContribution, "target"),
    ],
  };
}

/** @param prefix keeps ids unique when a closed scope's frames are shown under History. */
function frameNode(frame: WorkFrame, prefix = ""): WorkNode {
  // The status is part of the id so a frame that concludes starts collapsed (VS Code remembers
  // expansion per id).
  const base = `${prefix}frame/${frame.status}/${frame.frameId}`;
  const route = frame.routeSign ?? frame.routeDefinitionId;
  const children: WorkNode[] = [leaf(`${base}/route`, vscode.l10n.t("Route"), route, "compass")];
  if (frame.drivenBy !== null) children.push(drivenByNode(base, frame.drivenBy));
  if (frame.owner !== null) children.push(ownerNode(base, frame.owner));
  children.push(...frame.obligations.map((obligation) => obligationNode(base, frame, obligation)));
  for (const blocker of frame.blockers) {
    children.push({
      ...leaf(`${base}/blocker/${blocker.blockerId}`, vscode.l10n.t("Blocker"), `${blocker.kind} → ${blocker.targetObligationIds.join(", ")}`, "circle-slash"),
      iconColor: "testing.iconFailed",
    });
  }
  // The owner Skill's return and the judgment result restating it are one claim: one entry, both sources in its tooltip.
  for (const contribution of mergeContributions(frame.contributions)) {
    const text = contributionText(contribution, vscode.l10n);
    children.push({
      ...leaf(`${base}/contribution/${contribution.sources[0].contributionId}`, vscode.l10n.t("Contribution"), text.description, "note"),
      tooltip: text.tooltip,
    });
  }
  if (frame.unresolvedAttempts > 0) {
    children.push({
      ...leaf(`${base}/unresolved`, vscode.l10n.t("Waiting on evidence"), unresolvedRecorded(frame.unresolvedAttempts), "question"),
      iconColor: "problemsWarningIcon.foreground",
    });
  }
  if (frame.conclusion !== null) {
    children.push({ ...leaf(`${base}/conclusion`, vscode.l10n.t("Conclusion"), frame.conclusion.text, "check"), tooltip: `${frame.conclusion.text}\n${frame.conclusion.eventSha256}` });
  }
  const open = frame.status === "open";
  const settled = frame.obligations.filter((obligation) => obligation.state === "discharged").length;
  const state = open ? vscode.l10n.t("open · {0}/{1} settled", settled, frame.obligations.length) : vscode.l10n.t("concluded");
  // The state first: the role shows in the icon (and for a work judgment goes without saying), the route in a child row.
  return {
    id: base,
    label: frame.question,
    description: frame.role === "work" ? state : `${state} · ${roleLabel(frame.role)}`,
    tooltip: [frame.question, `${roleLabel(frame.role)} — ${route}`, state, frame.frameId].join("\n"),
    icon: roleIcon(frame.role),
    iconColor: open ? "charts.yellow" : undefined,
    context: open ? WorkItemContext.frameOpen : WorkItemContext.frameConcluded,
    children,
    expanded: open,
  };
}

function authorizationNode(authorization: NonNullable<WorkState["authorization"]>): WorkNode {
  const base = `authorization/${authorization.authorizationId}`;
  return {
    id: base,
    label: vscode.l10n.t("Authorized change"),
    description: authorization.movement,
    tooltip: `${authorization.movement}\n${authorization.authorizationId}`,
    icon: "unlock",
    iconColor: "charts.green",
    context: WorkItemContext.authorization,
    expanded: true,
    children: [
      leaf(`${base}/movement`, vscode.l10n.t("Movement"), authorization.movement, "arrow-swap"),
      leaf(`${base}/landing`, vscode.l10n.t("Stable landing"), authorization.stableLanding, "target"),
      leaf(`${base}/verification`, vscode.l10n.t("Verification target"), authorization.verificationTarget, "beaker"),
      leaf(`${base}/frame`, vscode.l10n.t("From frame"), authorization.frameId, "symbol-key"),
    ],
  };
}

function commitWorkNode(node: CommitNode): WorkNode {
  const { open, children, ...shown } = node;
  const command =
    open === undefined ? undefined : { command: OPEN_LANDING_COMMIT_COMMAND, title: vscode.l10n.t("Show Commit Changes"), arguments: [open.sha, open.subject] };
  return { ...shown, children: children.map(commitWorkNode), command };
}

/** @param workspaceFolder null when the history is not this workspace's (no files to compare, no commits to look up). */
function landingNode(landing: WorkLanding, workspaceFolder: string | null, commitsOf: CommitsOf, prefix = ""): WorkNode {
  const base = `${prefix}landing/${landing.landingId}`;
  const paths: WorkNode[] = landing.changedPaths.map((changed) => ({
    id: `${base}/path/${changed}`,
    label: changed,
    tooltip: workspaceFolder === null ? changed : vscode.l10n.t("Show {0}: before the change ⇄ now", changed),
    icon: workspaceFolder === null ? "file" : "diff",
    context: workspaceFolder === null ? WorkItemContext.detail : WorkItemContext.landedPath,
    children: [],
    resourceUri: workspaceFolder === null ? undefined : vscode.Uri.joinPath(vscode.Uri.file(workspaceFolder), ...changed.split("/")),
    command:
      workspaceFolder === null
        ? undefined
        : { command: OperationCommandIds.openLandingDiff, title: vscode.l10n.t("Show Changes"), arguments: [landing.landingId, changed] },
  }));
  const debt = (key: string, label: string, pending: boolean): WorkNode => ({
    ...leaf(`${base}/${key}`, label, pending ? vscode.l10n.t("pending") : vscode.l10n.t("cleared"), pending ? "warning" : "pass", WorkItemContext.debt),
    iconColor: pending ? "problemsWarningIcon.foreground" : "testing.iconPassed",
  });
  return {
    id: base,
    label: landing.result,
    description:
      landing.changedPaths.length === 1 ? vscode.l10n.t("1 path changed") : vscode.l10n.t("{0} paths changed", landing.changedPaths.length),
    tooltip: `${landing.result}\n${landing.landingId}`,
    icon: "git-commit",
    landingId: landing.landingId,
    context: WorkItemContext.landing,
    expanded: landing.reroutePending || landing.verificationPending,
    children: [
      ...paths,
      ...(workspaceFolder === null || commitsOf === null ? [] : [commitWorkNode(buildCommitsNode(base, commitsOf(landing.landingId), vscode.l10n))]),
      ...landing.verification.map((entry, index) => leaf(`${base}/check/${index}`, vscode.l10n.t("Check"), entry, "checklist")),
      debt("reroute", vscode.l10n.t("Reroute debt"), landing.reroutePending),
      debt("verification", vscode.l10n.t("Verification debt"), landing.verificationPending),
    ],
  };
}

function activeScopeNode(scope: ScopeSummary, status: Status, work: WorkState | null, commitsOf: CommitsOf): WorkNode {
  const children: WorkNode[] = [];
  // Work state of another scope (a reply that crossed a Turn Off/On) is not shown under this one.
  const current = work !== null && work.workScopeId === scope.workScopeId ? work : null;
  if (current !== null) {
    // What needs attention first: the next step, the open frame, the authorization, then the
    // landings (newest first) and the concluded judgments folded away in opening order.
    // A Pi session is read-only: there is no next step to take from here.
    if (status.source.kind === "workspace") children.push(nextStepNode(current));
    children.push(...current.frames.filter((frame) => frame.status === "open").map((frame) => frameNode(frame)));
    if (current.authorization !== null) children.push(authorizationNode(current.authorization));
    const files = status.source.kind === "workspace" ? status.workspaceFolder : null;
    children.push(...[...current.landings].reverse().map((landing) => landingNode(landing, files, commitsOf)));
    const concluded = current.frames.filter((frame) => frame.status === "concluded");
    if (concluded.length > 0) {
      children.push({
        id: "active/concluded",
        label: vscode.l10n.t("Concluded judgments"),
        description: String(concluded.length),
        icon: "checklist",
        context: WorkItemContext.detail,
        children: concluded.map((frame) => frameNode(frame)),
      });
    }
  }
  const details = scopeDetails("active/details", scope);
  if (status.ledger !== null) details.push(leaf("active/details/ledger", vscode.l10n.t("Ledger"), status.ledger.path, "database", WorkItemContext.ledger));
  children.push({
    id: "active/details",
    label: vscode.l10n.t("Scope details"),
    tooltip: vscode.l10n.t("Work scope {0}", scope.workScopeId),
    icon: "info",
    context: WorkItemContext.detail,
    children: details,
  });
  const purpose = current?.purpose;
  return {
    id: "active",
    label: vscode.l10n.t("Work scope"),
    description: phaseLabel(status.phase),
    tooltip: [
      vscode.l10n.t("Work scope {0}", scope.workScopeId),
      vscode.l10n.t("Phase: {0}", phaseLabel(status.phase)),
      ...(purpose === undefined || purpose === null ? [] : [vscode.l10n.t("Decision purpose: {0}", purposeLabel(purpose))]),
      vscode.l10n.t("Head sequence: {0}", scope.head),
      vscode.l10n.t("Opened at: {0}", formatTime(scope.openedAt)),
    ].join("\n"),
    icon: "checklist",
    context: WorkItemContext.activeScope,
    children,
    expanded: true,
  };
}

/** A closed scope's landings (newest first) and judgments, all collapsed, above its details. */
function closedScopeChildren(scope: ScopeSummary, recorded: WorkState["history"][number] | undefined, workspaceFolder: string | null, commitsOf: CommitsOf): WorkNode[] {
  const base = `closed/${scope.workScopeId}`;
  const details = scopeDetails(base, scope);
  if (recorded === undefined) return details;
  const prefix = `${base}/`;
  const landings = [...recorded.landings].reverse().map((landing) => ({ ...landingNode(landing, workspaceFolder, commitsOf, prefix), expanded: false }));
  const frames = recorded.frames.map((frame) => ({ ...frameNode(frame, prefix), expanded: false }));
  return [...landings, ...frames, ...details];
}

/**
 * A closed scope's row says what it did, which its id cannot: its last landing, else its first
 * judgment's question; the id only when the work state did not come (yet).
 */
function closedScopeLabel(scope: ScopeSummary, recorded: WorkState["history"][number] | undefined): string {
  return recorded?.landings.at(-1)?.result ?? recorded?.frames[0]?.question ?? scope.workScopeId;
}

/** The History while the backend still reads the ledger: it says so instead of listing part of it. */
function historyReadingNode(status: Status): WorkNode {
  const text = vscode.l10n.t("Still reading the history…");
  return {
    id: "history",
    label: vscode.l10n.t("History"),
    description: text,
    tooltip: vscode.l10n.t("Docket shows the current scope from its verified checkpoint and is reading the rest of the ledger; closed scopes and receipts appear when it is done."),
    icon: "history",
    context: WorkItemContext.history,
    expanded: status.phase === "off",
    children: [{ id: "history/reading", label: text, icon: "loading~spin", context: WorkItemContext.historyReading, children: [] }],
  };
}

/** The row that loads the next page of older scopes (Enter or a click runs it). */
function olderHistoryNode(shown: number, total: number, cursor: string): WorkNode {
  const label = vscode.l10n.t("Show older…");
  return {
    id: "history/older",
    label,
    description: vscode.l10n.t("{0} of {1} shown", formatCount(shown), formatCount(total)),
    tooltip: vscode.l10n.t("Show the next page of older closed scopes"),
    icon: "fold-down",
    context: WorkItemContext.historyOlder,
    command: { command: SHOW_OLDER_HISTORY_COMMAND, title: label, arguments: [cursor] },
    children: [],
  };
}

function historyNode(status: Status, work: WorkState | null, commitsOf: CommitsOf): WorkNode {
  const files = status.source.kind === "workspace" ? status.workspaceFolder : null;
  const { rows, total, olderCursor } = historyRows(status, work);
  const older = olderCursor === null ? [] : [olderHistoryNode(rows.length, total, olderCursor)];
  return {
    id: "history",
    label: vscode.l10n.t("History"),
    description: total === 1 ? vscode.l10n.t("1 closed scope") : vscode.l10n.t("{0} closed scopes", formatCount(total)),
    icon: "history",
    context: WorkItemContext.history,
    // While off the History is all there is to see, so it starts open (its scopes stay folded).
    expanded: status.phase === "off",
    children: [...rows.map(({ scope, recorded }) => {
      return {
        id: `closed/${scope.workScopeId}`,
        label: closedScopeLabel(scope, recorded),
        description: scope.closedAt === null ? "" : vscode.l10n.t("closed {0}", formatShortTime(scope.closedAt)),
        tooltip: [
          vscode.l10n.t("Work scope {0}", scope.workScopeId),
          vscode.l10n.t("Head sequence: {0}", scope.head),
          vscode.l10n.t("Opened at: {0}", formatTime(scope.openedAt)),
          ...(scope.closedAt === null ? [] : [vscode.l10n.t("Closed at: {0}", formatTime(scope.closedAt))]),
        ].join("\n"),
        icon: "archive",
        context: WorkItemContext.closedScope,
        children: closedScopeChildren(scope, recorded, files, commitsOf),
      };
    }), ...older],
  };
}

/** Shown first while the views show a Pi session's history instead of the workspace ledger. */
function piSessionNode(source: Extract<Status["source"], { kind: "pi-session" }>): WorkNode {
  return {
    id: "pi-session",
    label: vscode.l10n.t("Pi session (read-only)"),
    description: `${path.basename(source.path)} · ${vscode.l10n.t("{0} entries on the active branch", String(source.entries))}`,
    tooltip: vscode.l10n.t("Docket shows this Pi session's Developer history read-only and writes nothing until it is closed: {0}", source.path),
    icon: "history",
    context: WorkItemContext.piSession,
    children: [],
    resourceUri: vscode.Uri.file(source.path),
  };
}

function offNode(): WorkNode {
  return {
    id: "off",
    label: vscode.l10n.t("Docket is off"),
    description: vscode.l10n.t("Turn On"),
    tooltip: vscode.l10n.t("Docket is off. Turn it on to open a work scope; the History below shows what earlier scopes decided and landed."),
    icon: "debug-start",
    context: WorkItemContext.off,
    children: [],
    command: { command: "docket.turnOn", title: vscode.l10n.t("Turn On") },
  };
}

/** A guard node with what it opens turned into a command; files only inside the workspace folder. */
function guardWorkNode(node: GuardNode, workspaceFolder: string | null): WorkNode {
  const { open, children, ...shown } = node;
  let command: vscode.Command | undefined;
  let resourceUri: vscode.Uri | undefined;
  if (open?.kind === "file" && workspaceFolder !== null) {
    resourceUri = vscode.Uri.joinPath(vscode.Uri.file(workspaceFolder), ...open.path.split("/"));
    command = { command: "vscode.open", title: vscode.l10n.t("Open File"), arguments: [resourceUri] };
  } else if (open?.kind === "evidence") {
    command = { command: SHOW_EVIDENCE_COMMAND, title: vscode.l10n.t("Show Captured Evidence"), arguments: [open.handle] };
  }
  return { ...shown, children: children.map((child) => guardWorkNode(child, workspaceFolder)), command, resourceUri };
}

/** Notebook proposals wait for review: one click opens the first in the Observer view. */
function proposalsNode(notice: ProposalNotice): WorkNode {
  return {
    id: "proposals",
    label: notice.label,
    description: notice.description,
    tooltip: notice.tooltip,
    icon: "git-pull-request",
    iconColor: "notificationsInfoIcon.foreground",
    context: WorkItemContext.proposals,
    children: [],
    command: { command: REVIEW_PROPOSAL_COMMAND, title: vscode.l10n.t("Review Notebook Proposal"), arguments: [notice.proposalId] },
  };
}

/**
 * The root nodes; empty while Docket is off with nothing to show, so the view's welcome content
 * (Turn On) shows. `proposals`: Notebook proposals waiting for review, whether Docket is on or off.
 * `commitsOf`: what is known of each landing's commits (each landing then has a Commits row).
 */
export function buildWorkTree(
  status: Status | null,
  work: WorkState | null,
  guard: GuardOverview | null = null,
  proposals: ProposalNotice | null = null,
  commitsOf: CommitsOf = null,
): WorkNode[] {
  if (status === null) return [];
  const nodes: WorkNode[] = [];
  if (status.source.kind === "pi-session") nodes.push(piSessionNode(status.source));
  if (isBlocked(status)) {
    const reason = status.blockedReason ?? vscode.l10n.t("The ledger's history is blocked.");
    nodes.push({
      id: "blocked",
      label: vscode.l10n.t("History is blocked"),
      description: reason,
      tooltip: reason,
      icon: "error",
      iconColor: "errorForeground",
      context: WorkItemContext.blocked,
      children: [],
    });
  } else if (status.ledger?.problem) {
    const problem = status.ledger.problem;
    nodes.push({
      id: "ledger-problem",
      label: vscode.l10n.t("Ledger problem"),
      description: problem.message,
      tooltip: problem.line === null ? `${problem.message}\n(${problem.code})` : `${vscode.l10n.t("Line {0}: {1}", problem.line, problem.message)}\n(${problem.code})`,
      icon: "warning",
      iconColor: "problemsWarningIcon.foreground",
      context: WorkItemContext.ledgerProblem,
      children: [],
    });
  }
  const closed = closedScopes(status);
  // Off with nothing to report: leave the view empty so its welcome content (Turn On) shows.
  if (status.phase === "off" && nodes.length === 0 && closed.length === 0 && status.stillReading !== true && proposals === null) return [];
  // Off with a history or a proposal: the welcome content no longer shows, so the tree offers Turn On itself.
  if (status.phase === "off" && status.source.kind === "workspace" && !isBlocked(status)) nodes.push(offNode());
  if (proposals !== null) nodes.push(proposalsNode(proposals));
  if (status.activeScope !== null) nodes.push(activeScopeNode(status.activeScope, status, work, commitsOf));
  // Reviews belong to this workspace's ledger: not shown over a Pi session's history.
  if (guard !== null && status.source.kind === "workspace") {
    nodes.push(guardWorkNode(buildGuardSection(guard, { l10n: vscode.l10n, time: formatTime }), status.workspaceFolder));
  }
  if (status.stillReading === true) nodes.push(historyReadingNode(status));
  else if (closed.length > 0) nodes.push(historyNode(status, work, commitsOf));
  return nodes;
}
