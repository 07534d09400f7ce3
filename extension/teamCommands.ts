// Team provenance in the editor (issue 17): a landing's commit opened from the Work view, and
// "Docket: Audit Branch…" showing the backend's Markdown report in a preview. A commit opens in
// VS Code's Git extension (its multi-file commit view) when that extension has the folder's
// repository; otherwise the backend's `git show --stat --patch` of it opens as a read-only `diff`
// document. Opening a diff is presentation: what a landing or an audit is stays in the backend.
import * as vscode from "vscode";
import { ErrorCodes, Requests, RevisionRange, type AuditRangeSuggestion, type AuditReport } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { firstFolder } from "./config";
import { DocketError } from "./errors";
import { InputCancelled } from "./inputFlow";
import { ReadOnlyDocuments } from "./readOnlyDocuments";
import { noFolderMessage } from "./strings";
import { OPEN_LANDING_COMMIT_COMMAND } from "./workTreeModel";

export const TeamCommandIds = {
  auditBranch: "docket.auditBranch",
  copyAuditMarkdown: "docket.copyAuditMarkdown",
  openLandingCommit: OPEN_LANDING_COMMIT_COMMAND,
} as const;

export const AUDIT_DOCUMENT_SCHEME = "docket-audit";
export const COMMIT_DOCUMENT_SCHEME = "docket-commit";
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u;

type Register = <A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>) => vscode.Disposable;

/** The part of the Git extension's API (extensions/git/src/api/git.d.ts) used here. */
interface GitExtensionApi {
  getRepository(uri: vscode.Uri): { readonly rootUri: vscode.Uri } | null;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitExtensionApi;
}

/**
 * Shows the commit with the Git extension's own "view commit" (a multi-file diff) when the Git
 * extension is enabled and has the folder's repository; false when it cannot, so the caller
 * falls back. `git.viewCommit` is the command the Git extension's own hovers and blame use.
 */
async function viewWithGitExtension(folder: string, sha: string): Promise<boolean> {
  try {
    const extension = vscode.extensions.getExtension<GitExtension>("vscode.git");
    if (extension === undefined) return false;
    const git = extension.isActive ? extension.exports : await extension.activate();
    if (!git.enabled) return false;
    const repository = git.getAPI(1).getRepository(vscode.Uri.file(folder));
    if (repository === null) return false;
    if (!(await vscode.commands.getCommands(true)).includes("git.viewCommit")) return false;
    await vscode.commands.executeCommand("git.viewCommit", repository.rootUri, sha);
    return true;
  } catch {
    return false;
  }
}

function basisText(suggestion: AuditRangeSuggestion): string {
  switch (suggestion.basis) {
    case "origin-head":
      return vscode.l10n.t("From the remote's default branch to HEAD: the commits a pull request of this branch would hold.");
    case "remote-main":
      return vscode.l10n.t("From the remote's main branch to HEAD: the commits a pull request of this branch would hold.");
    case "upstream":
      return vscode.l10n.t("From this branch's upstream to HEAD: the commits not pushed yet.");
    case "local-main":
      return vscode.l10n.t("From the local main branch to HEAD (no remote branch was found).");
    case "no-base":
      return vscode.l10n.t("No main or upstream branch was found: every commit up to HEAD.");
  }
}

/** A title safe in a URI path: a slash shown as "∕" (so `origin/main` still reads as such), no control characters, short. */
function documentName(text: string): string {
  return text.replace(/[/\\]/gu, "\u2215").replace(/[\u0000-\u001f\u007f]+/gu, " ").trim().slice(0, 80);
}

export function registerTeamCommands(backend: Backend, log: vscode.LogOutputChannel, register: Register): vscode.Disposable[] {
  // Commit patches: read-only virtual documents in the `diff` language.
  const patches = new Map<string, string>();
  const patchChanged = new vscode.EventEmitter<vscode.Uri>();
  const audits = new ReadOnlyDocuments(AUDIT_DOCUMENT_SCHEME, 10);
  let lastAudit: AuditReport | null = null;
  const copyMarkdown = vscode.l10n.t("Copy Markdown");

  function requireFolder(): string {
    const folder = backend.status?.workspaceFolder ?? firstFolder()?.uri.fsPath ?? null;
    if (folder === null) throw new DocketError(ErrorCodes.noWorkspace, noFolderMessage());
    return folder;
  }

  async function showPatch(sha: string, subject: string): Promise<void> {
    const patch = await backend.request(Requests.teamCommitPatch, { sha });
    const name = documentName(`${sha.slice(0, 7)} ${subject}`);
    const uri = vscode.Uri.from({ scheme: COMMIT_DOCUMENT_SCHEME, path: `/${name}.diff`, query: new URLSearchParams({ sha }).toString() });
    const note = patch.truncated ? `\n${vscode.l10n.t("[Docket: the patch is longer than the editor is given; run git show {0} for all of it.]", sha)}\n` : "";
    patches.set(uri.toString(), patch.text + note);
    patchChanged.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    const diff = document.languageId === "diff" ? document : await vscode.languages.setTextDocumentLanguage(document, "diff");
    await vscode.window.showTextDocument(diff, { preview: true });
  }

  async function showAudit(report: AuditReport): Promise<void> {
    lastAudit = report;
    const document = await audits.open(documentName(vscode.l10n.t("Docket audit {0}", report.range)), report.markdown);
    try {
      await vscode.commands.executeCommand("markdown.showPreview", document.uri);
    } catch {
      // The built-in Markdown extension is disabled: the report's text is still worth reading.
      await vscode.window.showTextDocument(document, { preview: true });
    }
    const summary =
      report.commits === 1 ? vscode.l10n.t("Docket audited {0}: 1 commit.", report.range) : vscode.l10n.t("Docket audited {0}: {1} commits.", report.range, report.commits);
    void vscode.window.showInformationMessage(summary, copyMarkdown).then((choice) => {
      if (choice === copyMarkdown) void vscode.commands.executeCommand(TeamCommandIds.copyAuditMarkdown);
    });
  }

  return [
    patchChanged,
    vscode.workspace.registerTextDocumentContentProvider(COMMIT_DOCUMENT_SCHEME, {
      onDidChange: patchChanged.event,
      provideTextDocumentContent: (uri) => patches.get(uri.toString()) ?? "",
    }),

    register(TeamCommandIds.openLandingCommit, async (sha: unknown, subject: unknown) => {
      if (typeof sha !== "string" || !COMMIT_ID.test(sha)) return undefined;
      const folder = requireFolder();
      if (await viewWithGitExtension(folder, sha)) {
        log.info(`commit ${sha}: shown by the Git extension`);
        return "git";
      }
      await showPatch(sha, typeof subject === "string" ? subject : "");
      log.info(`commit ${sha}: shown as git show text (the Git extension does not have ${folder})`);
      return "patch";
    }),

    register(TeamCommandIds.auditBranch, async (given?: unknown) => {
      requireFolder();
      let range: string;
      if (typeof given === "string") {
        range = given.trim();
      } else {
        const suggestion = await backend.request(Requests.teamAuditRange, {});
        const answer = await vscode.window.showInputBox({
          title: vscode.l10n.t("Docket: Audit Branch"),
          prompt: vscode.l10n.t("The revision range to audit. {0}", basisText(suggestion)),
          value: suggestion.range,
          placeHolder: "origin/main..HEAD",
          ignoreFocusOut: true,
          validateInput: (value) => (RevisionRange.safeParse(value.trim()).success ? null : vscode.l10n.t("A revision range such as origin/main..HEAD: no spaces, and no side starting with '-'.")),
        });
        if (answer === undefined) throw new InputCancelled();
        range = answer.trim();
      }
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Docket: auditing {0}…", range), cancellable: true },
        async (_progress, token) => {
          try {
            return await backend.request(Requests.teamAudit, { range }, token);
          } catch (error) {
            // Cancelled: the answer is dropped (the backend finishes reading on its own); nothing to report.
            if (token.isCancellationRequested) throw new InputCancelled();
            throw error;
          }
        },
      );
      log.info(`audit ${range}: ${report.commits} commits`);
      await showAudit(report);
      return report;
    }),

    register(TeamCommandIds.copyAuditMarkdown, async (shown?: unknown) => {
      // From the title of an audit document: that report, whichever audit ran last.
      if (shown instanceof vscode.Uri && shown.scheme === AUDIT_DOCUMENT_SCHEME) {
        const markdown = (await vscode.workspace.openTextDocument(shown)).getText();
        await vscode.env.clipboard.writeText(markdown);
        void vscode.window.showInformationMessage(vscode.l10n.t("The audit is on the clipboard as Markdown."));
        return markdown;
      }
      if (lastAudit === null) {
        void vscode.window.showInformationMessage(vscode.l10n.t("No audit to copy yet: run Docket: Audit Branch… first."));
        return undefined;
      }
      await vscode.env.clipboard.writeText(lastAudit.markdown);
      void vscode.window.showInformationMessage(vscode.l10n.t("The audit of {0} is on the clipboard as Markdown.", lastAudit.range));
      return lastAudit.markdown;
    }),
  ];
}
