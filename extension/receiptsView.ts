// Host side of the Receipts webview view: serves the HTML (strict CSP, nonce per render),
// relays validated messages between the webview and the backend (pages and details of the
// developer/v8 receipts, of the completion guard's review entries and of Observer's entries), runs
// "Verify Ledger" for the view's button, copies canonical JSON, hashes and ids to the clipboard and
// opens an entry's detail in an editor.
import * as vscode from "vscode";
import { webviewHtml } from "./webviewHtml";
import { Requests } from "../server/protocol/messages";
import { HostToReceipts, ReceiptsToHost, type ReceiptsTab } from "../server/protocol/webviewMessages";
import type { Backend } from "./backend";
import { workspaceState } from "./config";
import { ClientErrorCodes, toDocketError } from "./errors";
import { backendUnavailableMessage, receiptsStrings } from "./strings";
import { isBlocked } from "./workTree";
import { SHOW_EVIDENCE_COMMAND } from "./evidenceDocuments";
import { observerDocument, receiptDocument, reviewDocument, type DetailDocument, type DetailDocumentStrings } from "./receiptDetailDocument";
import { showReceiptDocument } from "./receiptDocuments";

export const RECEIPTS_VIEW_ID = "docket.receipts";
const PAGE_SIZE = 100;
/** Review entries per page (newest first). */
const REVIEWS_PAGE_SIZE = 50;
/** Observer entries per page (newest first). */
const OBSERVER_PAGE_SIZE = 50;

type LoadPage = Extract<ReceiptsToHost, { type: "loadPage" }>;
type LoadObserver = Extract<ReceiptsToHost, { type: "loadObserver" }>;

/** Runs "Verify Ledger", which reports its progress back through notifyVerify*(). */
export type VerifyRunner = () => Thenable<unknown>;


export class ReceiptsViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly backend: Backend,
    private readonly log: vscode.LogOutputChannel,
    private readonly verify: VerifyRunner,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, "dist", "webview");
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, "media");
    view.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot, mediaRoot] };
    view.webview.html = this.html(view.webview, webviewRoot, mediaRoot);
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.disposeView();
        }
      }),
    );
  }

  /** Sends the current backend/workspace state; the webview decides whether to reload. */
  postState(): void {
    const status = this.backend.status;
    this.post({
      type: "state",
      backend: this.backend.state,
      workspace: workspaceState(),
      on: status !== null && status.activeScope !== null,
      blocked: status !== null && isBlocked(status),
      projectionSha256: status?.projectionSha256 ?? null,
      receiptCount: status?.receiptCount ?? null,
      revision: status?.revision ?? null,
    });
  }

  /** "Refresh Receipts": show the newest page. */
  showLatest(): void {
    this.post({ type: "showLatest" });
  }

  notifyVerifyStarted(): void {
    this.post({ type: "verifyStarted" });
  }

  notifyVerifyResult(ok: boolean, message: string): void {
    this.post({ type: "verifyResult", ok, message });
  }

  dispose(): void {
    this.disposeView();
    this.view = undefined;
  }

  private disposeView(): void {
    for (const disposable of this.viewDisposables.splice(0)) {
      disposable.dispose();
    }
  }

  private post(message: HostToReceipts): void {
    const view = this.view;
    if (view === undefined) {
      return;
    }
    const parsed = HostToReceipts.safeParse(message);
    if (!parsed.success) {
      this.log.error("receipts: refusing to post an invalid message to the webview", parsed.error.issues);
      return;
    }
    void view.webview.postMessage(parsed.data);
  }

  private receive(raw: unknown): void {
    const parsed = ReceiptsToHost.safeParse(raw);
    if (!parsed.success) {
      this.log.warn("receipts: ignored an invalid message from the webview", parsed.error.issues);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case "ready":
        this.postState();
        break;
      case "loadPage":
        void this.loadPage(message);
        break;
      case "loadDetail":
        void this.loadDetail(message.requestId, message.eventSha256);
        break;
      case "verify":
        void this.runVerify();
        break;
      case "copy":
        void this.copy(message.text);
        break;
      case "openEvidence":
        void vscode.commands.executeCommand(SHOW_EVIDENCE_COMMAND, message.branchResultId);
        break;
      case "loadReviews":
        void this.loadReviews(message.requestId, message.cursor);
        break;
      case "loadReviewDetail":
        void this.loadReviewDetail(message.requestId, message.lineSha256);
        break;
      case "loadObserver":
        void this.loadObserver(message);
        break;
      case "loadObserverDetail":
        void this.loadObserverDetail(message.requestId, message.lineSha256);
        break;
      case "openInEditor":
        void this.openInEditor(message.tab, message.sha256);
        break;
    }
  }

  private failure(error: unknown, method: string): { code: string; message: string } {
    const failure = toDocketError(error, method);
    const message =
      failure.code === ClientErrorCodes.backendUnavailable ? backendUnavailableMessage(this.backend.state) : failure.message;
    return { code: failure.code, message };
  }

  private async loadPage(request: LoadPage): Promise<void> {
    const { requestId, cursor, from, kinds, containing } = request;
    try {
      const page = await this.backend.request(Requests.receiptsPage, {
        cursor,
        pageSize: PAGE_SIZE,
        from,
        ...(kinds === null ? {} : { kinds }),
        ...(containing === null ? {} : { containing }),
      });
      this.post({ type: "page", requestId, page });
    } catch (error) {
      this.post({ type: "pageError", requestId, ...this.failure(error, Requests.receiptsPage.method) });
    }
  }

  private async loadDetail(requestId: number, eventSha256: string): Promise<void> {
    try {
      const detail = await this.backend.request(Requests.receiptDetail, { eventSha256 });
      this.post({ type: "detail", requestId, detail });
    } catch (error) {
      this.post({ type: "detailError", requestId, ...this.failure(error, Requests.receiptDetail.method) });
    }
  }

  private async loadReviews(requestId: number, cursor: number | null): Promise<void> {
    try {
      const page = await this.backend.request(Requests.guardReceiptsPage, { order: "newest", cursor, pageSize: REVIEWS_PAGE_SIZE });
      this.post({ type: "reviews", requestId, page });
    } catch (error) {
      this.post({ type: "reviewsError", requestId, ...this.failure(error, Requests.guardReceiptsPage.method) });
    }
  }

  private async loadReviewDetail(requestId: number, lineSha256: string): Promise<void> {
    try {
      const detail = await this.backend.request(Requests.guardReceiptDetail, { lineSha256 });
      this.post({ type: "reviewDetail", requestId, detail });
    } catch (error) {
      this.post({ type: "reviewDetailError", requestId, ...this.failure(error, Requests.guardReceiptDetail.method) });
    }
  }

  private async loadObserver({ requestId, cursor, filter }: LoadObserver): Promise<void> {
    try {
      const page = await this.backend.request(Requests.observerReceiptsPage, { order: "newest", cursor, pageSize: OBSERVER_PAGE_SIZE, ...filter });
      this.post({ type: "observerEntries", requestId, page });
    } catch (error) {
      this.post({ type: "observerEntriesError", requestId, ...this.failure(error, Requests.observerReceiptsPage.method) });
    }
  }

  private async loadObserverDetail(requestId: number, lineSha256: string): Promise<void> {
    try {
      const detail = await this.backend.request(Requests.observerReceiptDetail, { lineSha256 });
      this.post({ type: "observerDetail", requestId, detail });
    } catch (error) {
      this.post({ type: "observerDetailError", requestId, ...this.failure(error, Requests.observerReceiptDetail.method) });
    }
  }

  private async copy(text: string): Promise<void> {
    try {
      await vscode.env.clipboard.writeText(text);
      this.post({ type: "copyResult", ok: true });
    } catch (error) {
      this.log.warn("receipts: copying to the clipboard failed", error);
      this.post({ type: "copyResult", ok: false });
    }
  }

  /** Reads the entry's detail from the backend (the webview only names it) and shows it in an editor. */
  private async openInEditor(tab: ReceiptsTab, sha256: string): Promise<void> {
    try {
      await showReceiptDocument(await this.detailDocument(tab, sha256));
    } catch (error) {
      const method = tab === "receipts" ? Requests.receiptDetail.method : tab === "reviews" ? Requests.guardReceiptDetail.method : Requests.observerReceiptDetail.method;
      const failure = this.failure(error, method);
      this.log.warn(`receipts: opening a detail in an editor failed (${failure.code})`, failure.message);
      void vscode.window.showErrorMessage(vscode.l10n.t("Could not open the details in an editor: {0}", failure.message));
    }
  }

  private async detailDocument(tab: ReceiptsTab, sha256: string): Promise<DetailDocument> {
    const strings = receiptsStrings();
    const labels: DetailDocumentStrings = {
      reviewTitle: vscode.l10n.t("Review entry, line {0} · {1}"),
      observerTitle: vscode.l10n.t("Observer entry, line {0} · {1}"),
      formatted: vscode.l10n.t("Indented for reading"),
      formattedHint: vscode.l10n.t("The same JSON with line breaks and indentation. Only the exact text above is hashed."),
    };
    switch (tab) {
      case "receipts":
        return receiptDocument(await this.backend.request(Requests.receiptDetail, { eventSha256: sha256 }), strings, labels);
      case "reviews":
        return reviewDocument(await this.backend.request(Requests.guardReceiptDetail, { lineSha256: sha256 }), strings, labels);
      case "observer":
        return observerDocument(await this.backend.request(Requests.observerReceiptDetail, { lineSha256: sha256 }), strings, labels);
    }
  }

  private async runVerify(): Promise<void> {
    try {
      await this.verify();
    } catch (error) {
      this.log.error("receipts: running Verify Ledger failed", error);
    }
  }

  private html(webview: vscode.Webview, webviewRoot: vscode.Uri, mediaRoot: vscode.Uri): string {
    return webviewHtml(webview, { webviewRoot, mediaRoot, script: "receipts.js", stylesheet: "receipts.css", title: vscode.l10n.t("Receipts"), strings: receiptsStrings() });
  }
}
