// The Work view's Reviews section, built from the backend's guard overview: the last Stop decision
// of each agent session (with the work that remained) and every recorded review of a final answer
// (claims with their verdicts and cited sources, the whole-response judgment, Docket's problems).
// No `vscode` import, so the mapping is unit-tested: strings go through the `l10n` passed in (the
// extension passes vscode.l10n), and what a click opens is data the Work view turns into a command.
import type { GuardModeName, GuardOverview, GuardReview, GuardSource, GuardStop } from "../server/protocol/messages";

export interface Translator {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

export interface GuardModelContext {
  readonly l10n: Translator;
  /** Formats an ISO timestamp for display. */
  readonly time: (iso: string) => string;
}

/** What clicking a node opens: a workspace file (workspace-relative, POSIX) or captured evidence. */
export type GuardOpen = { readonly kind: "file"; readonly path: string } | { readonly kind: "evidence"; readonly handle: string };

/** What every Work view node shows, whoever builds it (the Work view's own nodes extend it too). */
export interface TreeNodeFields {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  readonly icon: string;
  readonly iconColor?: string;
  readonly context: string;
  readonly expanded?: boolean;
}

export interface GuardNode extends TreeNodeFields {
  readonly children: readonly GuardNode[];
  readonly open?: GuardOpen;
}

/** `contextValue`s, for `view/item/context` menus. */
export const GuardItemContext = {
  section: "docket.guard",
  empty: "docket.guard.none",
  review: "docket.guard.review",
  claim: "docket.guard.claim",
  source: "docket.guard.source",
  response: "docket.guard.response",
  problem: "docket.guard.problem",
  stop: "docket.guard.stop",
  stopReview: "docket.guard.stop.review",
  remaining: "docket.guard.remaining",
} as const;

const GREEN = "testing.iconPassed";
const RED = "testing.iconFailed";
const YELLOW = "problemsWarningIcon.foreground";

/**
 * A source path as the ledger records it is workspace-relative; anything else (absolute, `..`, a
 * backslash from a hand-edited ledger) is shown but never opened, so a click stays in the folder.
 */
export function openableWorkspacePath(recorded: string): string | null {
  if (recorded === "" || recorded.startsWith("/") || recorded.includes("\\") || recorded.includes("\0") || /^[A-Za-z]:/u.test(recorded)) return null;
  const segments = recorded.split("/");
  return segments.some((segment) => segment === "" || segment === "." || segment === "..") ? null : recorded;
}

export function modeLabel(mode: GuardModeName, { l10n }: GuardModelContext): string {
  switch (mode) {
    case "notice":
      return l10n.t("notice");
    case "block-once":
      return l10n.t("block once");
    case "off":
      return l10n.t("off");
  }
}

function modeExplanation(mode: GuardModeName, { l10n }: GuardModelContext): string {
  switch (mode) {
    case "notice":
      return l10n.t("When an agent stops without a supported review of its answer, or with work remaining, Docket adds a notice and the agent stops.");
    case "block-once":
      return l10n.t("When an agent stops without a supported review of its answer, or with work remaining, Docket asks it to continue once with the remaining work; the next stop always goes through.");
    case "off":
      return l10n.t("Docket does not check final answers when an agent stops.");
  }
}

export function hostLabel(host: string, { l10n }: GuardModelContext): string {
  switch (host) {
    case "claude":
      return l10n.t("Claude Code");
    case "codex":
      return l10n.t("Codex");
    case "vscode":
      return l10n.t("VS Code agent");
    default:
      return host;
  }
}

function reviewStatusPresentation(status: GuardReview["status"], { l10n }: GuardModelContext): { text: string; icon: string; color?: string } {
  switch (status) {
    case "supported":
      return { text: l10n.t("supported"), icon: "pass", color: GREEN };
    case "unsupported":
      return { text: l10n.t("unsupported"), icon: "error", color: RED };
    case "incomplete":
      return { text: l10n.t("incomplete"), icon: "warning", color: YELLOW };
    case "open":
      return { text: l10n.t("open"), icon: "issue-draft" };
  }
}

function claimVerdictPresentation(verdict: GuardReview["claims"][number]["verdict"], { l10n }: GuardModelContext): { text: string; icon: string; color?: string } {
  switch (verdict) {
    case "supported":
      return { text: l10n.t("supported"), icon: "pass", color: GREEN };
    case "unsupported":
      return { text: l10n.t("unsupported"), icon: "error", color: RED };
    case "partial":
      return { text: l10n.t("partly supported"), icon: "warning", color: YELLOW };
    case null:
      return { text: l10n.t("not judged yet"), icon: "circle-large-outline" };
  }
}

/** How the final answer stood against its review at Stop. */
export function stopReviewLabel(status: GuardStop["reviewStatus"], { l10n }: GuardModelContext): string {
  switch (status) {
    case "supported":
      return l10n.t("supported");
    case "unsupported":
      return l10n.t("unsupported");
    case "missing":
      return l10n.t("no review");
    case "mismatch":
      return l10n.t("the review does not match the answer");
    case "stale":
      return l10n.t("its sources changed after the review");
  }
}

function remainingPresentation(kind: GuardStop["remaining"][number]["kind"], { l10n }: GuardModelContext): { text: string; icon: string } {
  switch (kind) {
    case "open-frame":
      return { text: l10n.t("open judgment"), icon: "lightbulb" };
    case "authorized-change":
      return { text: l10n.t("authorized change"), icon: "unlock" };
    case "reroute-debt":
      return { text: l10n.t("reroute debt"), icon: "debug-step-back" };
    case "verification-debt":
      return { text: l10n.t("verification debt"), icon: "beaker" };
    case "board-finding":
      return { text: l10n.t("plan review finding"), icon: "checklist" };
    case "notebook-proposal":
      return { text: l10n.t("notebook proposal"), icon: "notebook" };
    case "unreviewed-claim":
      return { text: l10n.t("unreviewed claim"), icon: "comment-unresolved" };
  }
}

function sourceNode(base: string, sourceId: string, source: GuardSource | undefined, context: GuardModelContext): GuardNode {
  const { l10n } = context;
  const id = `${base}/source/${sourceId}`;
  if (source === undefined) {
    return { id, label: sourceId, description: l10n.t("not a sealed source"), icon: "warning", iconColor: YELLOW, context: GuardItemContext.source, children: [] };
  }
  const digest = l10n.t("SHA-256 when the review opened: {0}", source.sha256);
  switch (source.kind) {
    case "file": {
      const openable = openableWorkspacePath(source.path);
      return {
        id,
        label: source.path,
        description: l10n.t("file"),
        tooltip: [source.path, digest, l10n.t("{0} bytes", source.bytes), ...(openable === null ? [] : [l10n.t("Click to open the file as it is now.")])].join("\n"),
        icon: "file",
        context: GuardItemContext.source,
        children: [],
        ...(openable === null ? {} : { open: { kind: "file" as const, path: openable } }),
      };
    }
    case "evidence":
      // The kind first: handles are long and look alike, so the narrow view shows what the source is.
      return {
        id,
        label: l10n.t("Captured tool result"),
        description: source.handle,
        tooltip: [source.handle, digest, l10n.t("Click to read the captured tool result.")].join("\n"),
        icon: "output",
        context: GuardItemContext.source,
        children: [],
        open: { kind: "evidence", handle: source.handle },
      };
    case "user-input":
      return {
        id,
        label: l10n.t("User input"),
        description: source.sha256.slice(0, 12),
        tooltip: [l10n.t("Docket sealed the user's input by its digest only and never stores the text."), digest, l10n.t("{0} bytes", source.bytes)].join("\n"),
        icon: "person",
        context: GuardItemContext.source,
        children: [],
      };
  }
}

function claimNode(base: string, review: GuardReview, claim: GuardReview["claims"][number], context: GuardModelContext): GuardNode {
  const { l10n } = context;
  const id = `${base}/claim/${claim.claimId}`;
  const verdict = claimVerdictPresentation(claim.verdict, context);
  const sources = new Map(review.sources.map((source) => [source.sourceId, source]));
  const children = claim.citations.map((sourceId) => sourceNode(id, sourceId, sources.get(sourceId), context));
  if (children.length === 0 && claim.verdict !== null) {
    children.push({ id: `${id}/no-citations`, label: l10n.t("No source cited"), icon: "circle-slash", context: GuardItemContext.source, children: [] });
  }
  return {
    id,
    label: claim.text,
    description: verdict.text,
    tooltip: `${claim.claimId}: ${claim.text}\n${verdict.text}`,
    icon: verdict.icon,
    iconColor: verdict.color,
    context: GuardItemContext.claim,
    children,
  };
}

function reviewNode(review: GuardReview, newest: boolean, context: GuardModelContext): GuardNode {
  const { l10n, time } = context;
  // The status is part of the id so a review that gets submitted is drawn afresh.
  const base = `guard/review/${review.reviewId}/${review.status}`;
  const status = reviewStatusPresentation(review.status, context);
  const children: GuardNode[] = review.claims.map((claim) => claimNode(base, review, claim, context));
  if (review.response !== null) {
    const supported = review.response.verdict === "supported";
    children.push({
      id: `${base}/response`,
      label: l10n.t("Whole response: {0}", supported ? l10n.t("supported") : l10n.t("unsupported")),
      description: review.response.rationale,
      tooltip: review.response.rationale === "" ? undefined : review.response.rationale,
      icon: supported ? "pass" : "error",
      iconColor: supported ? GREEN : RED,
      context: GuardItemContext.response,
      children: [],
    });
  }
  if (review.problems.length > 0) {
    // Folded: most repeat the verdicts above; the rest (drift, unsealed citations) are read on demand.
    children.push({
      id: `${base}/problems`,
      label: l10n.t("Problems Docket found"),
      description: String(review.problems.length),
      icon: "warning",
      iconColor: YELLOW,
      context: GuardItemContext.problem,
      children: review.problems.map((problem, index) => ({
        id: `${base}/problem/${index}`,
        label: problem.message,
        description: problem.code,
        tooltip: `${problem.message}\n(${problem.code})`,
        icon: "warning",
        iconColor: YELLOW,
        context: GuardItemContext.problem,
        children: [],
      })),
    });
  }
  const claims = review.claims.length === 1 ? l10n.t("1 claim") : l10n.t("{0} claims", review.claims.length);
  return {
    id: base,
    label: l10n.t("Review: {0}", status.text),
    description: `${l10n.t("opened {0}", time(review.openedAt))} · ${claims}`,
    tooltip: [
      review.reviewId,
      l10n.t("Status: {0}", status.text),
      l10n.t("Opened at: {0}", time(review.openedAt)),
      ...(review.submittedAt === null ? [] : [l10n.t("Submitted at: {0}", time(review.submittedAt))]),
      l10n.t("Work scope {0}", review.workScopeId),
    ].join("\n"),
    icon: status.icon,
    iconColor: status.color,
    context: GuardItemContext.review,
    children,
    expanded: newest,
  };
}

function stopIcon(stop: GuardStop): { icon: string; color?: string } {
  if (stop.decision === "block") return { icon: "error", color: RED };
  if (stop.decision === "notice") return { icon: "warning", color: YELLOW };
  // Silent: a pass only when the answer had a supported review (silence in mode off proves nothing).
  return stop.reviewStatus === "supported" && stop.remaining.length === 0 ? { icon: "pass", color: GREEN } : { icon: "info" };
}

export function decisionLabel(decision: GuardStop["decision"], { l10n }: GuardModelContext): string {
  switch (decision) {
    case "silent":
      return l10n.t("silent");
    case "notice":
      return l10n.t("notice");
    case "block":
      return l10n.t("blocked");
  }
}

function stopNode(stop: GuardStop, context: GuardModelContext): GuardNode {
  const { l10n, time } = context;
  const base = `guard/stop/${stop.host}/${stop.sessionId}`;
  const icon = stopIcon(stop);
  const supported = stop.reviewStatus === "supported";
  const children: GuardNode[] = [
    {
      id: `${base}/review`,
      label: l10n.t("Final answer: {0}", stopReviewLabel(stop.reviewStatus, context)),
      description: stop.reviewId ?? undefined,
      icon: supported ? "pass" : "unverified",
      iconColor: supported ? GREEN : YELLOW,
      context: GuardItemContext.stopReview,
      children: [],
    },
    ...stop.remaining.map((item, index): GuardNode => {
      const kind = remainingPresentation(item.kind, context);
      return { id: `${base}/remaining/${index}`, label: item.text, description: kind.text, tooltip: `${kind.text}: ${item.text}`, icon: kind.icon, context: GuardItemContext.remaining, children: [] };
    }),
  ];
  return {
    id: base,
    label: l10n.t("Last stop: {0}", hostLabel(stop.host, context)),
    description: `${decisionLabel(stop.decision, context)} · ${time(stop.at)}`,
    tooltip: [stop.notice ?? l10n.t("Docket added nothing to this stop."), l10n.t("Session {0}", stop.sessionId)].join("\n\n"),
    icon: icon.icon,
    iconColor: icon.color,
    context: GuardItemContext.stop,
    children,
    expanded: stop.decision !== "silent",
  };
}

/** The Reviews section: Stop decisions first (what needs attention), then reviews, newest first. */
export function buildGuardSection(overview: GuardOverview, context: GuardModelContext): GuardNode {
  const { l10n } = context;
  const children: GuardNode[] = [
    ...overview.stops.map((stop) => stopNode(stop, context)),
    ...overview.reviews.map((review, index) => reviewNode(review, index === 0, context)),
  ];
  if (children.length === 0) {
    children.push({
      id: "guard/none",
      label: l10n.t("No reviews yet"),
      tooltip: l10n.t("Agents record a review of their final answer with Docket's review_open and review_submit tools; the last stop of each agent session shows here too."),
      icon: "info",
      context: GuardItemContext.empty,
      children: [],
    });
  }
  const count = overview.reviews.length === 1 ? l10n.t("1 review") : l10n.t("{0} reviews", overview.reviews.length);
  return {
    id: "guard",
    label: l10n.t("Reviews"),
    description: `${l10n.t("mode: {0}", modeLabel(overview.mode, context))} · ${count}`,
    tooltip: `${l10n.t("Completion guard mode: {0}", modeLabel(overview.mode, context))}\n${modeExplanation(overview.mode, context)}`,
    icon: "verified",
    context: GuardItemContext.section,
    children,
    expanded: true,
  };
}
