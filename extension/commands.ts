// Every Docket command, registered once at activation (rust-analyzer style): while the backend
// is starting, restarting or stopped a command says so instead of failing, and no command ever
// throws to VS Code. Commands return their result (or undefined) for tests and other callers.
import * as vscode from "vscode";
import { ErrorCodes, Requests, type Status, type VerifyResult } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { backendInitOptions, hasFolder } from "./config";
import { ClientErrorCodes, DocketError, toDocketError } from "./errors";
import { createCommandRunner, RESTART_BACKEND_COMMAND } from "./commandRunner";
import { registerEvidenceDocuments } from "./evidenceDocuments";
import { registerNotebookCommands } from "./notebookCommands";
import type { ProposalDocuments } from "./proposalDocuments";
import type { ProposalTreeProvider } from "./proposalTree";
import { registerOperationCommands } from "./operationCommands";
import { registerPlanCommand } from "./planPanel";
import type { ReceiptsViewProvider } from "./receiptsView";
import { registerTeamCommands } from "./teamCommands";
import {
  backendUnavailableMessage,
  noFolderMessage,
  phaseLabel,
  untrustedMessage,
} from "./strings";

export const CommandIds = {
  turnOn: "docket.turnOn",
  turnOff: "docket.turnOff",
  showStatus: "docket.showStatus",
  verifyLedger: "docket.verifyLedger",
  refreshReceipts: "docket.receipts.refresh",
  showOutput: "docket.showOutput",
  restartBackend: RESTART_BACKEND_COMMAND,
} as const;

interface Dependencies {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  readonly receipts: ReceiptsViewProvider;
  /** Where the webview scripts and bundled skills are (the Plan panel). */
  readonly extensionUri: vscode.Uri;
  /** The Observer view's notebook and proposals, and the proposal documents its diffs show. */
  readonly notebook: { readonly tree: ProposalTreeProvider; readonly documents: ProposalDocuments };
}

/** Codes whose backend message is an expected answer rather than a failure. */
const INFORMATIONAL = new Set<string>([ErrorCodes.alreadyOn, ErrorCodes.alreadyOff]);
const WARNINGS = new Set<string>([
  ErrorCodes.untrusted,
  ErrorCodes.noWorkspace,
  ErrorCodes.historyBlocked,
  ErrorCodes.ledgerLocked,
  ErrorCodes.preflightRejected,
  ErrorCodes.operationNotLegal,
  ErrorCodes.readOnlySource,
  ErrorCodes.unknownSkill,
  ErrorCodes.unknownContextSource,
  ErrorCodes.contextSourceChanged,
  ErrorCodes.unknownEvidenceHandle,
  ErrorCodes.judgmentRejected,
  ErrorCodes.purposeMismatch,
  ErrorCodes.verificationRouteRequired,
  ErrorCodes.changedBeforeAuthorization,
  ErrorCodes.gitHeadChanged,
  ErrorCodes.landingEmpty,
  ErrorCodes.landingPathsMismatch,
  ErrorCodes.landingPathsRequired,
  ErrorCodes.taskInvalid,
  ErrorCodes.snapshotUnavailable,
  ErrorCodes.commitNotFound,
  ClientErrorCodes.backendUnavailable,
]);

export function registerCommands({ backend, log, receipts, extensionUri, notebook }: Dependencies): vscode.Disposable[] {
  const showOutput = vscode.l10n.t("Show Output");
  // A refusal because of the phase offers the operation that is legal instead.
  const nextStepAction = (failure: DocketError): { label: string; command: string } | null =>
    failure.code === ErrorCodes.operationNotLegal ? { label: vscode.l10n.t("Next Step…"), command: "docket.nextStep" } : null;
  const { register } = createCommandRunner({ backend, log, informational: INFORMATIONAL, warnings: WARNINGS, extraAction: nextStepAction });

  /** The sentence a user sees for a failure. */
  function userMessage(failure: DocketError): string {
    return failure.code === ClientErrorCodes.backendUnavailable ? backendUnavailableMessage(backend.state) : failure.message;
  }

  /** Turn On/Off change the ledger: they need a folder and a trusted workspace. */
  function requireWritableWorkspace(): void {
    if (!hasFolder()) {
      throw new DocketError(ErrorCodes.noWorkspace, noFolderMessage());
    }
    if (!vscode.workspace.isTrusted) {
      throw new DocketError(ErrorCodes.untrusted, untrustedMessage());
    }
  }

  async function refreshedStatus(): Promise<Status | null> {
    try {
      return await backend.refreshStatus();
    } catch {
      return backend.status;
    }
  }

  function logStatus(status: Status): void {
    const ledger = status.ledger;
    const lines = [
      "status",
      `  workspace folder: ${status.workspaceFolder ?? "(none)"}`,
      `  trusted: ${status.trusted}`,
      `  phase: ${status.phase}`,
      `  history: ${status.historyMode}`,
      `  blocked reason: ${status.blockedReason ?? "(none)"}`,
      `  active scope: ${
        status.activeScope === null
          ? "(none)"
          : `${status.activeScope.workScopeId} (head ${status.activeScope.head}, opened ${status.activeScope.openedAt})`
      }`,
      `  scopes: ${status.scopes.length} (${status.scopes.filter((scope) => scope.status === "closed").length} closed)`,
      `  ledger: ${
        ledger === null
          ? "(none)"
          : `${ledger.path} (exists ${ledger.exists}, ${ledger.bytes} bytes, ${ledger.lines} lines, ${ledger.accepted} accepted, ${ledger.rejected} rejected, torn tail ${ledger.tornTailBytes} bytes)`
      }`,
      `  ledger problem: ${
        ledger?.problem ? `[${ledger.problem.code}] line ${ledger.problem.line ?? "-"}: ${ledger.problem.message}` : "(none)"
      }`,
      `  receipts: ${status.stillReading === true ? "(still reading the history: receipts, closed scopes and ledger problems are not known yet)" : status.receiptCount}`,
      `  revision: ${status.revision}`,
      `  projection: ${status.projectionSha256}`,
    ];
    log.info(lines.join("\n"));
  }

  function statusSummary(status: Status): string {
    const parts = [vscode.l10n.t("Docket: {0}", phaseLabel(status.phase))];
    parts.push(
      status.activeScope === null
        ? vscode.l10n.t("No open work scope")
        : vscode.l10n.t("Work scope: {0}", status.activeScope.workScopeId),
    );
    parts.push(status.stillReading === true ? vscode.l10n.t("Receipts: still reading the history…") : vscode.l10n.t("Receipts: {0}", status.receiptCount));
    if (status.ledger !== null) {
      parts.push(vscode.l10n.t("Ledger: {0}", status.ledger.path));
    }
    if (status.blockedReason !== null) {
      parts.push(vscode.l10n.t("Blocked: {0}", status.blockedReason));
    }
    if (!status.trusted) {
      parts.push(vscode.l10n.t("Restricted Mode: read-only."));
    }
    return parts.join(" · ");
  }

  function verifyMessage(result: VerifyResult): string {
    if (result.ok) {
      const message =
        result.accepted === 1
          ? vscode.l10n.t("Ledger verified: 1 entry, chain intact")
          : vscode.l10n.t("Ledger verified: {0} entries, chain intact", result.accepted);
      return result.tornTailBytes > 0
        ? `${message} ${vscode.l10n.t("({0} bytes of an unfinished last line were ignored.)", result.tornTailBytes)}`
        : message;
    }
    const fault = result.firstFault;
    return fault === null
      ? vscode.l10n.t("Ledger verification failed: {0} of {1} lines rejected.", result.rejected, result.lines)
      : vscode.l10n.t("Ledger verification failed at line {0}: {1} ({2})", fault.line, fault.message, fault.code);
  }

  function logVerify(result: VerifyResult): void {
    const fault = result.firstFault;
    log.info(
      [
        `verify ${result.ok ? "ok" : "FAILED"}: ${result.path}`,
        `  lines: ${result.lines}, accepted: ${result.accepted}, rejected: ${result.rejected}, torn tail: ${result.tornTailBytes} bytes`,
        `  head line sha256: ${result.headLineSha256 ?? "(none)"}`,
        `  head anchor: ${result.anchor}${result.missingLines === null ? "" : `, missing lines ${result.missingLines.from}–${result.missingLines.to}`}`,
        `  git: ${result.git.state}${result.git.commit === null ? "" : ` (${result.git.commit.slice(0, 12)})`}${result.git.note === null ? "" : ` — ${result.git.note}`}`,
        `  first fault: ${
          fault === null ? "(none)" : `line ${fault.line}${fault.index === null ? "" : ` (entry ${fault.index})`} [${fault.code}] ${fault.message}`
        }`,
      ].join("\n"),
    );
  }

  const operations = registerOperationCommands({ backend, log, register, requireWritableWorkspace, refreshStatus: refreshedStatus });
  const evidence = registerEvidenceDocuments(backend, register);
  const team = registerTeamCommands(backend, log, register);
  const plan = registerPlanCommand({ extensionUri, backend, log, register });
  const notebookCommands = registerNotebookCommands({ backend, log, register, tree: notebook.tree, documents: notebook.documents });

  return [
    ...operations,
    ...evidence,
    ...team,
    ...plan,
    ...notebookCommands,
    register(CommandIds.turnOn, async () => {
      requireWritableWorkspace();
      const result = await backend.request(Requests.turnOn, {});
      const status = await refreshedStatus();
      const scopeId = result.workScopeId ?? status?.activeScope?.workScopeId ?? null;
      log.info(`turned on: work scope ${scopeId ?? "(unknown)"}; next action: ${result.nextAction ?? "(none)"}`);
      void vscode.window.showInformationMessage(
        scopeId === null ? vscode.l10n.t("Docket is on.") : vscode.l10n.t("Docket is on: work scope {0}", scopeId),
      );
      return result;
    }),

    register(CommandIds.turnOff, async (reason?: unknown) => {
      requireWritableWorkspace();
      const params = typeof reason === "string" && reason.trim() !== "" ? { reason } : {};
      const closing = backend.status?.activeScope?.workScopeId ?? null;
      const result = await backend.request(Requests.turnOff, params);
      await refreshedStatus();
      const scopeId = result.workScopeId ?? closing;
      log.info(`turned off: work scope ${scopeId ?? "(unknown)"} closed`);
      void vscode.window.showInformationMessage(
        scopeId === null
          ? vscode.l10n.t("Docket is off.")
          : vscode.l10n.t("Docket is off: work scope {0} is closed.", scopeId),
      );
      return result;
    }),

    register(CommandIds.showStatus, async () => {
      const status = await backend.refreshStatus();
      logStatus(status);
      void vscode.window.showInformationMessage(statusSummary(status), showOutput).then((choice) => {
        if (choice === showOutput) log.show(true);
      });
      return status;
    }),

    register(CommandIds.verifyLedger, async () => {
      receipts.notifyVerifyStarted();
      try {
        const result = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t("Verifying the Docket ledger…"),
            cancellable: true,
          },
          (_progress, token) => backend.request(Requests.verifyLedger, {}, token),
        );
        logVerify(result);
        const message = verifyMessage(result);
        receipts.notifyVerifyResult(result.ok, message);
        if (result.ok) {
          void vscode.window.showInformationMessage(message);
        } else {
          void vscode.window.showWarningMessage(message, showOutput).then((choice) => {
            if (choice === showOutput) log.show(true);
          });
        }
        return result;
      } catch (error) {
        const failure = toDocketError(error, Requests.verifyLedger.method);
        receipts.notifyVerifyResult(false, userMessage(failure));
        throw failure;
      }
    }),

    register(CommandIds.refreshReceipts, async () => {
      receipts.postState();
      receipts.showLatest();
    }),

    register(CommandIds.showOutput, async () => {
      log.show();
    }),

    register(CommandIds.restartBackend, async () => {
      await backend.start(backendInitOptions());
      return backend.state;
    }),
  ];
}
