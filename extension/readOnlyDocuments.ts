// Read-only virtual Markdown documents under one URI scheme (a Skill's method, a receipt's detail):
// they can be read in the editor area and closed without VS Code asking to save an "Untitled" file.
// The provider is registered on first use, so a session that never opens one pays nothing for it;
// the extension host drops it on shutdown.
import * as vscode from "vscode";

class ReadOnlyDocumentProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly keptTexts: number) {}

  /** Keeps the latest text of `uri` as the newest; an open document of it shows the new text. */
  put(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    const previous = this.texts.get(key);
    this.texts.delete(key);
    this.texts.set(key, text);
    // Map iteration starts at the oldest insertion, so the oldest texts are the ones dropped.
    for (const old of this.texts.keys()) {
      if (this.texts.size <= this.keptTexts) break;
      this.texts.delete(old);
    }
    if (previous !== undefined && previous !== text) this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }
}

export class ReadOnlyDocuments {
  private provider: ReadOnlyDocumentProvider | undefined;

  /** `keptTexts`: texts kept for documents VS Code may read again (a reopened tab). */
  constructor(
    readonly scheme: string,
    private readonly keptTexts: number,
  ) {}

  /** Stores `markdown` as `<scheme>:/<name>.md` and opens it as a Markdown document (not shown yet). */
  async open(name: string, markdown: string): Promise<vscode.TextDocument> {
    if (this.provider === undefined) {
      this.provider = new ReadOnlyDocumentProvider(this.keptTexts);
      vscode.workspace.registerTextDocumentContentProvider(this.scheme, this.provider);
    }
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name}.md` });
    this.provider.put(uri, markdown);
    const document = await vscode.workspace.openTextDocument(uri);
    return document.languageId === "markdown" ? document : vscode.languages.setTextDocumentLanguage(document, "markdown");
  }
}
