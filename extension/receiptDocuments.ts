// "Open in Editor" of the Receipts view: an entry's detail as a read-only Markdown document
// (`docket-receipt:/<title>.md`) in the editor area, at editor width and in the editor's theme.
// One editor serves all details: opening another closes the previous one's tab, so reading
// through receipts never piles up tabs, and nothing ever asks to be saved.
import * as vscode from "vscode";
import type { DetailDocument } from "./receiptDetailDocument";
import { ReadOnlyDocuments } from "./readOnlyDocuments";

export const RECEIPT_DOCUMENT_SCHEME = "docket-receipt";
/** Texts kept for documents VS Code may read again (a reopened tab); older ones are dropped. */
const receiptDocuments = new ReadOnlyDocuments(RECEIPT_DOCUMENT_SCHEME, 20);

function receiptTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === RECEIPT_DOCUMENT_SCHEME),
  );
}

/** Shows the detail in the editor group that shows details already (else the active one), replacing the previous detail. */
export async function showReceiptDocument(detail: DetailDocument): Promise<void> {
  const previous = receiptTabs();
  const column = previous[0]?.group.viewColumn ?? vscode.ViewColumn.Active;
  const markdown = await receiptDocuments.open(detail.title, detail.markdown);
  const uri = markdown.uri;
  await vscode.window.showTextDocument(markdown, { viewColumn: column, preview: false });
  const stale = receiptTabs().filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() !== uri.toString());
  if (stale.length > 0) await vscode.window.tabGroups.close(stale, true);
}
