// The Observer view. Empty for now: its welcome text (package.json `viewsWelcome`) says the
// Observer arrives in a later version.
import * as vscode from "vscode";

export class ObserverTreeProvider implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }

  getChildren(): never[] {
    return [];
  }
}
