// A judgment owner's method as a read-only virtual document (`docket-method:/<skill>.md`): it can
// be read beside the editor and closed without VS Code asking to save an "Untitled" file.
import * as vscode from "vscode";

export const METHOD_SCHEME = "docket-method";

class MethodDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Keeps the latest method text per skill; an open document of that skill shows the new text. */
  put(skillName: string, method: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: METHOD_SCHEME, path: `/${skillName}.md` });
    const key = uri.toString();
    const previous = this.texts.get(key);
    this.texts.set(key, method);
    if (previous !== undefined && previous !== method) this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }
}

let provider: MethodDocuments | undefined;

/**
 * The provider is registered on first use: the extension host drops it on shutdown, and a
 * session that never shows a method pays nothing for it.
 */
function methodDocuments(): MethodDocuments {
  if (provider === undefined) {
    provider = new MethodDocuments();
    vscode.workspace.registerTextDocumentContentProvider(METHOD_SCHEME, provider);
  }
  return provider;
}

/** Opens a skill's method beside the active editor, read-only, as Markdown. */
export async function showMethod(skillName: string, method: string): Promise<void> {
  const uri = methodDocuments().put(skillName, method);
  const document = await vscode.workspace.openTextDocument(uri);
  const markdown = document.languageId === "markdown" ? document : await vscode.languages.setTextDocumentLanguage(document, "markdown");
  await vscode.window.showTextDocument(markdown, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}
