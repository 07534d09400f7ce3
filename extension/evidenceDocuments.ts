// Captured tool results as read-only documents: a receipt's "Nominated evidence" link opens what
// the conclusion cited, exactly as Docket stored it (redacted and bounded), under the
// `docket-evidence:` scheme so it can never be edited or saved over anything.
import * as vscode from "vscode";
import { Requests } from "../server/protocol/messages";
import type { Backend } from "./backend";

export const SHOW_EVIDENCE_COMMAND = "docket.showEvidence";
const SCHEME = "docket-evidence";

type Register = <A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>) => vscode.Disposable;

export function registerEvidenceDocuments(backend: Backend, register: Register): vscode.Disposable[] {
  const contents = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  return [
    changed,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => contents.get(uri.toString()) ?? "",
    }),
    register(SHOW_EVIDENCE_COMMAND, async (branchResultId: unknown) => {
      if (typeof branchResultId !== "string") return undefined;
      const evidence = await backend.request(Requests.evidenceShow, { branchResultId });
      const flags = [evidence.isError ? vscode.l10n.t("error") : null, evidence.truncated ? vscode.l10n.t("truncated") : null].filter((flag) => flag !== null);
      const title = vscode.l10n.t("Captured {0} ({1})", evidence.toolName, [branchResultId, ...flags].join(", "));
      const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${title}.txt` });
      contents.set(uri.toString(), evidence.text);
      changed.fire(uri);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
      return evidence;
    }),
  ];
}
