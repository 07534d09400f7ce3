// The one HTML shell every Docket webview loads: a strict content security policy with a fresh
// nonce for the bundled script, the codicon font, the view's stylesheet, and the localized strings
// the script reads from `data-strings` (webviews have no vscode.l10n of their own).
import * as crypto from "node:crypto";
import * as vscode from "vscode";

export interface WebviewPage {
  /** dist/webview/ (the bundled scripts and codicon.css). */
  readonly webviewRoot: vscode.Uri;
  /** media/ (the stylesheets). */
  readonly mediaRoot: vscode.Uri;
  readonly script: string;
  readonly stylesheet: string;
  readonly title: string;
  readonly strings: unknown;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/gu, "&amp;").replace(/"/gu, "&quot;").replace(/'/gu, "&#39;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;");
}

export function webviewHtml(webview: vscode.Webview, page: WebviewPage): string {
  const nonce = crypto.randomBytes(18).toString("base64url");
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  const script = webview.asWebviewUri(vscode.Uri.joinPath(page.webviewRoot, page.script));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(page.webviewRoot, "codicon.css"));
  const styles = webview.asWebviewUri(vscode.Uri.joinPath(page.mediaRoot, page.stylesheet));
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(vscode.env.language)}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${codicons.toString()}" id="vscode-codicon-stylesheet">
  <link rel="stylesheet" href="${styles.toString()}">
  <title>${escapeAttribute(page.title)}</title>
</head>
<body data-strings="${escapeAttribute(JSON.stringify(page.strings))}">
  <script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
