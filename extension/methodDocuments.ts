// A judgment owner's method as a read-only virtual document (`docket-method:/<skill>.md`): it can
// be read beside the editor and closed without VS Code asking to save an "Untitled" file.
import * as vscode from "vscode";
import { ReadOnlyDocuments } from "./readOnlyDocuments";

export const METHOD_SCHEME = "docket-method";
/** One text per Skill is enough: there are few Skills and a method is small. */
const methodDocuments = new ReadOnlyDocuments(METHOD_SCHEME, 100);

/** Opens a skill's method beside the active editor, read-only, as Markdown. */
export async function showMethod(skillName: string, method: string): Promise<void> {
  const document = await methodDocuments.open(skillName, method);
  await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}
