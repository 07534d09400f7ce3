// How every Docket command runs: registered up front, safe while the backend is down, and a
// failure shown once, as information, a warning or an error by its code, with the actions that
// help (restart the backend, manage trust, show the output, or a caller's own action).
import * as vscode from "vscode";
import { ErrorCodes } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { ClientErrorCodes, toDocketError, type DocketError } from "./errors";
import { InputCancelled } from "./inputFlow";
import { backendUnavailableMessage } from "./strings";

export const RESTART_BACKEND_COMMAND = "docket.restartBackend";

export interface CommandRunnerOptions {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  /** Codes whose message is an expected answer: shown as information, without actions. */
  readonly informational?: ReadonlySet<string>;
  /** Codes shown as warnings; anything else is an error. */
  readonly warnings: ReadonlySet<string>;
  /** A caller's own action for a failure (e.g. Set Up Notebook… when none is configured), or null. */
  readonly extraAction?: (failure: DocketError) => { readonly label: string; readonly command: string } | null;
  /** Runs after every command, whatever happened (e.g. a view re-reading the backend). */
  readonly after?: (commandId: string) => void;
}

export interface CommandRunner {
  report(error: unknown, commandId: string): void;
  register<A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>): vscode.Disposable;
}

export function createCommandRunner(options: CommandRunnerOptions): CommandRunner {
  const { backend, log } = options;
  const informational = options.informational ?? new Set<string>();
  const showOutput = vscode.l10n.t("Show Output");
  const restart = vscode.l10n.t("Restart Backend");
  const manageTrust = vscode.l10n.t("Manage Workspace Trust");

  function report(error: unknown, commandId: string): void {
    const failure = toDocketError(error, null);
    log.warn(`${commandId} failed [${failure.code}]${failure.method === null ? "" : ` ${failure.method}`}: ${failure.message}`);
    const message = failure.code === ClientErrorCodes.backendUnavailable ? backendUnavailableMessage(backend.state) : failure.message;
    const extra = options.extraAction?.(failure) ?? null;
    const actions: string[] = [];
    if (extra !== null) actions.push(extra.label);
    if (failure.code === ClientErrorCodes.backendUnavailable && backend.state === "stopped") {
      actions.push(restart, showOutput);
    } else if (failure.code === ErrorCodes.untrusted) {
      actions.push(manageTrust);
    } else if (!informational.has(failure.code)) {
      actions.push(showOutput);
    }
    const show = informational.has(failure.code)
      ? vscode.window.showInformationMessage
      : options.warnings.has(failure.code)
        ? vscode.window.showWarningMessage
        : vscode.window.showErrorMessage;
    void show(message, ...actions).then((choice) => {
      if (extra !== null && choice === extra.label) void vscode.commands.executeCommand(extra.command);
      else if (choice === restart) void vscode.commands.executeCommand(RESTART_BACKEND_COMMAND);
      else if (choice === showOutput) log.show(true);
      else if (choice === manageTrust) void vscode.commands.executeCommand("workbench.trust.manage");
    });
  }

  function register<A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>): vscode.Disposable {
    return vscode.commands.registerCommand(id, async (...args: A): Promise<R | undefined> => {
      try {
        return await handler(...args);
      } catch (error) {
        // Escape in an input box ends the command quietly: nothing was sent.
        if (!(error instanceof InputCancelled)) report(error, id);
        return undefined;
      } finally {
        options.after?.(id);
      }
    });
  }

  return { report, register };
}
