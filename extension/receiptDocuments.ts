// "Open in Editor" of the Receipts view: an entry's detail as a read-only Markdown document
// (`docket-receipt:/<title>.md`) in the editor area, at editor width and in the editor's theme.
// One editor serves all details: opening another closes the previous one's tab, so reading
// through receipts never piles up tabs, and nothing ever asks to be saved.
import * as vscode from "vscode";
import type { DetailDocument } from "./receiptDetailDocument";

export const RECEIPT_DOCUMENT_SCHEME = "docket-receipt";
/** Texts kept for documents VS Code may read again (a reopened tab); older ones are dropped. */
const KEPT_TEXTS = 20;

class ReceiptDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  put(document: DetailDocument): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RECEIPT_DOCUMENT_SCHEME, path: `/${document.title}.md` });
    const key = uri.toString();
    const previous = this.texts.get(key);
    // Re-inserted as the newest, so the oldest text is the one dropped.
    this.texts.delete(key);
    this.texts.set(key, document.markdown);
    for (const old of this.texts.keys()) {
      if (this.texts.size <= KEPT_TEXTS) break;
      this.texts.delete(old);
    }
    if (previous !== undefined && previous !== document.markdown) this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }
}

let provider: ReceiptDocuments | undefined;

/** Registered on first use: a session that never opens a detail in an editor pays nothing for it. */
function receiptDocuments(): ReceiptDocuments {
  if (provider === undefined) {
    provider = new ReceiptDocuments();
    vscode.workspace.registerTextDocumentContentProvider(RECEIPT_DOCUMENT_SCHEME, provider);
  }
  return provider;
}

function receiptTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === RECEIPT_DOCUMENT_SCHEME),
  );
}

/** Shows the detail in the editor group that shows details already (else the active one), replacing the previous detail. */
export async function showReceiptDocument(detail: DetailDocument): Promise<void> {
  const uri = receiptDocuments().put(detail);
  const previous = receiptTabs();
  const column = previous[0]?.group.viewColumn ?? vscode.ViewColumn.Active;
  const opened = await vscode.workspace.openTextDocument(uri);
  const markdown = opened.languageId === "markdown" ? opened : await vscode.languages.setTextDocumentLanguage(opened, "markdown");
  await vscode.window.showTextDocument(markdown, { viewColumn: column, preview: false });
  const stale = receiptTabs().filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() !== uri.toString());
  if (stale.length > 0) await vscode.window.tabGroups.close(stale, true);
}
