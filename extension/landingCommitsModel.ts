// The "Commits" row of a landing in the Work view (issue 17): the commits that carry the landing
// (a `Docket-Landing:` trailer or a refs/notes/docket note), one row each with the short id and the
// subject, a click opening the commit's diff. The backend is asked only once a landing's row is
// open, so before that the row says it is looking. No `vscode` import, so the mapping is
// unit-tested: strings go through the `l10n` passed in, and what a click opens is data the Work view
// turns into a command.
import type { LinkedCommitRow } from "../server/protocol/messages";
import type { TreeNodeFields, Translator } from "./guardTreeModel";

/** What the Work view knows of one landing's commits. */
export type LandingCommitsState =
  | { readonly kind: "unknown" }
  | { readonly kind: "known"; readonly commits: readonly LinkedCommitRow[] }
  | { readonly kind: "failed"; readonly message: string };

/** What clicking a commit row opens. */
export interface CommitOpen {
  readonly sha: string;
  readonly subject: string;
}

export interface CommitNode extends TreeNodeFields {
  readonly children: readonly CommitNode[];
  readonly open?: CommitOpen;
}

/** `contextValue`s, for `view/item/context` menus. */
export const CommitItemContext = {
  commits: "docket.landing.commits",
  commit: "docket.landing.commit",
} as const;

/** The length of a commit id as the row shows it (Git's own default abbreviation). */
export const SHORT_SHA_LENGTH = 7;

function sourceText(source: LinkedCommitRow["source"], l10n: Translator): string {
  return source === "trailer"
    ? l10n.t("Linked by the commit message's Docket-Landing trailer")
    : l10n.t("Linked by a note under refs/notes/docket (docket link)");
}

function commitRow(parentId: string, commit: LinkedCommitRow, l10n: Translator): CommitNode {
  const short = commit.sha.slice(0, SHORT_SHA_LENGTH);
  return {
    // The source is part of the id: a trailer and a note on the same commit would be two rows.
    id: `${parentId}/${commit.sha}/${commit.source}`,
    label: short,
    description: commit.subject,
    tooltip: [commit.subject, commit.sha, sourceText(commit.source, l10n), l10n.t("Click to show the commit's changes")].join("\n"),
    icon: commit.source === "trailer" ? "git-commit" : "note",
    context: CommitItemContext.commit,
    children: [],
    open: { sha: commit.sha, subject: commit.subject },
  };
}

/**
 * The landing's "Commits" row. `landingBase` is the landing node's id. No commit yet is one quiet
 * row rather than nothing, so a reviewer can tell "not committed" from "not looked up".
 */
export function buildCommitsNode(landingBase: string, state: LandingCommitsState, l10n: Translator): CommitNode {
  const id = `${landingBase}/commits`;
  const label = l10n.t("Commits");
  // The rows before an answer have ids of their own: VS Code keeps an id's collapsed state, and the
  // answered row must open with its commits showing, not inherit the childless row's state.
  switch (state.kind) {
    case "unknown":
      return { id: `${id}-looking`, label, description: l10n.t("looking up…"), tooltip: l10n.t("Looking up the commits that carry this landing…"), icon: "loading~spin", context: CommitItemContext.commits, children: [] };
    case "failed":
      return {
        id: `${id}-failed`,
        label,
        description: l10n.t("could not be read"),
        tooltip: l10n.t("Docket could not read the commits that carry this landing: {0}", state.message),
        icon: "warning",
        iconColor: "problemsWarningIcon.foreground",
        context: CommitItemContext.commits,
        children: [],
      };
    case "known": {
      if (state.commits.length === 0) {
        return {
          id,
          label,
          description: l10n.t("not committed yet"),
          tooltip: l10n.t(
            "No commit reachable from HEAD names this landing yet. A commit made while Docket is on gets a Docket-Landing trailer for the landings whose paths it contains; `docket link` adds a note to an existing commit.",
          ),
          icon: "git-commit",
          iconColor: "disabledForeground",
          context: CommitItemContext.commits,
          children: [],
        };
      }
      const count = state.commits.length === 1 ? l10n.t("1 commit") : l10n.t("{0} commits", state.commits.length);
      return {
        id,
        label,
        description: count,
        tooltip: l10n.t("The commits reachable from HEAD that carry this landing, newest first ({0})", count),
        icon: "git-commit",
        context: CommitItemContext.commits,
        expanded: true,
        children: state.commits.map((commit) => commitRow(id, commit, l10n)),
      };
    }
  }
}
