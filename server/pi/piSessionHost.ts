// The backend's hold on a Pi session opened read-only (`docket/piSession/open` / `close`). While
// one is open it takes over every request: the reads are answered from the session's history,
// and every other request — every write, and any request added later — is refused with
// `docket.read-only-source`, so nothing can reach the workspace ledger by accident.
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { DocketError } from "../errors";
import { ErrorCodes, Requests, type RequestDefinition } from "../protocol/messages";
import { PiSessionSource, type PiSessionContext } from "./piSessionSource";
import { guardReceiptDetail, guardReceiptsPage } from "../guard/guardReceipts";
import { observerReceiptsPage } from "../observer/observerReceipts";

const POLL_INTERVAL_MS = 300;

type Route = (params: unknown) => unknown;

/**
 * Requests that always run the backend's own handler: those that manage the source itself, and
 * the Router's plan, which reads workspace files only and never the ledger.
 */
const SOURCE_CONTROL = new Set<string>([Requests.piSessionOpen.method, Requests.piSessionClose.method, Requests.plan.method]);

export class PiSessionHost {
  private sessionValue: PiSessionSource | null = null;
  private readonly routes = new Map<string, Route>();

  constructor(
    private readonly context: () => PiSessionContext,
    private readonly onChange: () => void,
  ) {
    this.route(Requests.status, (session) => session.status());
    this.route(Requests.receiptsPage, (session, params) =>
      session.receiptsPage(params.cursor, params.pageSize, params.from, { kinds: params.kinds, containing: params.containing }),
    );
    this.route(Requests.receiptDetail, (session, params) => session.receiptDetail(params.eventSha256));
    this.route(Requests.verifyLedger, (session) => session.verify());
    this.route(Requests.policy, (session) => session.policy());
    this.route(Requests.workState, (session) => session.workState());
    // A Pi session has no completion guard stream: its guard pages are empty.
    this.route(Requests.guardReceiptsPage, (session, params) => guardReceiptsPage([], session.status().revision, params));
    this.route(Requests.guardReceiptDetail, (_session, params) => guardReceiptDetail([], params.lineSha256));
    // Nor a Docket Observer stream (its Observer history is read with `docket observer replay`).
    this.route(Requests.observerReceiptsPage, (session, params) => observerReceiptsPage([], session.status().revision, params));
    this.route(Requests.observerReceiptDetail, () => {
      throw new DocketError(ErrorCodes.receiptNotFound, "A Pi session has no Docket Observer entries; `docket observer replay FILE` reads its Observer history.");
    });
  }

  private route<P extends z.ZodType, R extends z.ZodType>(
    definition: RequestDefinition<P, R>,
    answer: (session: PiSessionSource, params: z.output<P>) => z.input<R>,
  ): void {
    // The backend parsed the params with this same definition before routing them here.
    this.routes.set(definition.method, (params) => {
      const session = this.requireSession();
      session.refresh();
      return answer(session, params as z.output<P>);
    });
  }

  get session(): PiSessionSource | null {
    return this.sessionValue;
  }

  /** Replaces any open session; throws DocketError (nothing changes) when it cannot be read. */
  open(sessionPath: string): PiSessionSource {
    if (!path.isAbsolute(sessionPath)) {
      throw new DocketError(ErrorCodes.invalidParams, `The Pi session path must be absolute: ${sessionPath}`);
    }
    const session = new PiSessionSource(path.normalize(sessionPath), this.context());
    this.close();
    this.sessionValue = session;
    fs.watchFile(session.path, { interval: POLL_INTERVAL_MS, persistent: false }, this.onChange);
    return session;
  }

  close(): void {
    if (this.sessionValue === null) return;
    fs.unwatchFile(this.sessionValue.path, this.onChange);
    this.sessionValue = null;
  }

  /**
   * How a request runs while a session is open: answered from it, or refused as a write.
   * Null when no session is open or the request manages the source (the backend's handler runs).
   */
  intercept(method: string): Route | null {
    const session = this.sessionValue;
    if (session === null || SOURCE_CONTROL.has(method)) return null;
    const route = this.routes.get(method);
    if (route !== undefined) return route;
    return () => {
      throw new DocketError(
        ErrorCodes.readOnlySource,
        `Docket is showing the Pi session ${session.path} read-only and writes nothing while it is open (${method} refused). Close the Pi session to work on the workspace ledger again.`,
      );
    };
  }

  private requireSession(): PiSessionSource {
    if (this.sessionValue === null) throw new DocketError(ErrorCodes.internal, "No Pi session is open.");
    return this.sessionValue;
  }
}
