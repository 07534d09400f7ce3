// Owns the backend process (`dist/docket.js serve --stdio`) through a vscode-languageclient
// LanguageClient: start, restart on demand, automatic restart after a crash (languageclient's
// default policy: up to 4 restarts within 3 minutes), the validated request helper, and the
// latest `Status` from `docket/status` and `docket/stateChanged`.
import * as fs from "node:fs";
import * as vscode from "vscode";
import {
  CloseAction,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  LanguageClient,
  type LanguageClientOptions,
  type Message,
  RevealOutputChannelOn,
  type ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import type { z } from "zod";
import {
  BackendInitOptions,
  Notifications,
  type RequestDefinition,
  Requests,
  type Status,
} from "../server/protocol/messages";
import type { BackendState } from "../server/protocol/webviewMessages";
import { ClientErrorCodes, DocketError, toDocketError } from "./errors";
import { sinceActivate } from "./startTimeline";
import { versionedCacheFolder } from "./versionedCache";

/** languageclient's default; restated so the policy is explicit here. */
const MAX_RESTARTS = 4;
/** A backend that has not answered `initialize` by then is killed (and so restarted). */
const START_TIMEOUT_MS = 30_000;
/** How long a request waits for a starting or restarting backend before giving up. */
const READY_WAIT_MS = 10_000;

/**
 * Keeps languageclient's default error handler (and so its restart policy) but reports each
 * decision, so the status bar can say "restarting" and a final give-up is surfaced once.
 */
class ObservedErrorHandler implements ErrorHandler {
  private delegate: ErrorHandler | undefined;

  constructor(private readonly onClosed: (willRestart: boolean) => void) {}

  attach(client: LanguageClient): void {
    this.delegate = client.createDefaultErrorHandler(MAX_RESTARTS);
  }

  async error(error: Error, message: Message | undefined, count: number | undefined): Promise<ErrorHandlerResult> {
    if (this.delegate === undefined) {
      throw new Error("error handler used before attach()");
    }
    return this.delegate.error(error, message, count);
  }

  async closed(): Promise<CloseHandlerResult> {
    if (this.delegate === undefined) {
      throw new Error("error handler used before attach()");
    }
    const result = await this.delegate.closed();
    const willRestart = result.action === CloseAction.Restart;
    this.onClosed(willRestart);
    // We surface both outcomes ourselves (status bar, localized notification).
    return { ...result, handled: true };
  }
}

export class Backend implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private generation = 0;
  private stopping = false;
  private restartPending = false;
  private _state: BackendState = "stopped";
  private _status: Status | null = null;
  /** Bumped by every notification, so an older `docket/status` answer never overwrites it. */
  private statusSequence = 0;
  private options: BackendInitOptions | undefined;
  /** Settles once the status asked for right after the latest start has been answered (or failed). */
  private firstStatus: Promise<void> = Promise.resolve();
  /** Settles once the status asked for after the first start has been answered (or failed). */
  private settleFirstStart: () => void = () => undefined;
  private readonly firstStart = new Promise<void>((resolve) => (this.settleFirstStart = resolve));
  /** Serializes start/stop so settings changes in quick succession cannot interleave. */
  private lifecycle: Promise<void> = Promise.resolve();

  private readonly stateEmitter = new vscode.EventEmitter<BackendState>();
  private readonly statusEmitter = new vscode.EventEmitter<Status | null>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDidChangeStatus = this.statusEmitter.event;
  private readonly guardEmitter = new vscode.EventEmitter<void>();
  /** `docket/guard/changed`: the guard overview may answer differently now. */
  readonly onDidChangeGuard = this.guardEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get state(): BackendState {
    return this._state;
  }

  /** Last known status (kept while the backend restarts after a crash), or null. */
  get status(): Status | null {
    return this._status;
  }

  /**
   * Settles when the status asked for right after the latest start has its answer (applied) or
   * failed: the Work view asks for its own state from that status, so the other views wait for
   * it before sending theirs.
   */
  get statusAfterStart(): Promise<void> {
    return this.firstStatus;
  }

  /** Settles once the status asked for after the backend's first start has its answer (or failed). */
  get firstStartSettled(): Promise<void> {
    return this.firstStart;
  }

  get initOptions(): BackendInitOptions | undefined {
    return this.options;
  }

  /** Starts the backend, or restarts it with new options when one is running. */
  start(options: BackendInitOptions): Promise<void> {
    return this.enqueue(async () => {
      await this.stopClient(false);
      await this.startClient(options);
    });
  }

  /** Restarts with the current options (e.g. after the automatic restarts gave up). */
  restart(): Promise<void> {
    const options = this.options;
    return options === undefined ? Promise.resolve() : this.start(options);
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.stopClient(true));
  }

  dispose(): Promise<void> {
    const done = this.stop();
    void done.finally(() => {
      this.stateEmitter.dispose();
      this.statusEmitter.dispose();
      this.guardEmitter.dispose();
    });
    return done;
  }

  /**
   * Sends one `docket/*` request: params are validated before sending and the result after
   * receiving (strict schemas: unknown fields are errors). Rejects only with DocketError.
   */
  async request<P extends z.ZodType, R extends z.ZodType>(
    definition: RequestDefinition<P, R>,
    params: z.input<P>,
    token?: vscode.CancellationToken,
  ): Promise<z.output<R>> {
    await this.whenReady(READY_WAIT_MS);
    const client = this.client;
    if (client === undefined || this._state !== "ready") {
      throw new DocketError(ClientErrorCodes.backendUnavailable, `backend is ${this._state}`, definition.method);
    }
    const parsedParams = definition.params.safeParse(params);
    if (!parsedParams.success) {
      this.log.error(`${definition.method}: refusing to send invalid params`, parsedParams.error.issues);
      throw new DocketError(ClientErrorCodes.invalidParams, parsedParams.error.message, definition.method);
    }
    let raw: unknown;
    try {
      raw =
        token === undefined
          ? await client.sendRequest(definition.method, parsedParams.data)
          : await client.sendRequest(definition.method, parsedParams.data, token);
    } catch (error) {
      const failure = toDocketError(error, definition.method);
      this.log.warn(`${definition.method} failed [${failure.code}]: ${failure.message}`);
      throw failure;
    }
    const result = definition.result.safeParse(raw);
    if (!result.success) {
      this.log.error(`${definition.method}: the backend's answer does not match the protocol`, result.error.issues);
      throw new DocketError(
        ClientErrorCodes.protocolMismatch,
        vscode.l10n.t("Docket's backend sent an answer this version of the extension does not understand."),
        definition.method,
      );
    }
    return result.data;
  }

  /**
   * Resolves once the backend is ready, or after `timeoutMs` while it is starting or restarting
   * (a command run right after start-up should not fail for that). Resolves at once otherwise;
   * the caller checks the state.
   */
  whenReady(timeoutMs: number): Promise<void> {
    if (this._state !== "starting" && this._state !== "restarting") {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const listener = this.onDidChangeState((state) => {
        if (state === "ready" || state === "stopped") done();
      });
    });
  }

  /** Asks for `docket/status` and applies it unless a newer notification arrived meanwhile. */
  async refreshStatus(): Promise<Status> {
    const sequence = this.statusSequence;
    const status = await this.request(Requests.status, {});
    if (sequence === this.statusSequence) {
      this.applyStatus(status);
    }
    return status;
  }

  // -------------------------------------------------------------------------------------------

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.lifecycle.then(step, step);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  private setState(state: BackendState): void {
    if (this._state !== state) {
      this._state = state;
      this.log.info(`backend ${state}${sinceActivate()}`);
      this.stateEmitter.fire(state);
    }
  }

  private applyStatus(status: Status | null): void {
    this._status = status;
    this.statusEmitter.fire(status);
  }

  private async startClient(requested: BackendInitOptions): Promise<void> {
    const options = BackendInitOptions.parse(requested);
    const generation = ++this.generation;
    const current = (): boolean => generation === this.generation;
    const optionsChanged = this.options === undefined || JSON.stringify(this.options) !== JSON.stringify(options);
    this.options = options;
    if (optionsChanged) {
      this.applyStatus(null);
    }
    this.restartPending = false;
    this.setState("starting");

    const serverModule = this.context.asAbsolutePath("dist/docket.js");
    if (!fs.existsSync(serverModule)) {
      this.log.error(`backend not found at ${serverModule}`);
      this.setState("stopped");
      void this.announceStopped();
      return;
    }
    // Node (22.1 and later, as in every VS Code this extension supports) keeps the compiled code of
    // the backend's bundles in this folder of the extension's own storage: from the second start on,
    // Node skips parsing and compiling several MB of JavaScript before the first answer. The cache is
    // checked against each file's content, so an updated extension never runs stale code from it.
    const forkOptions = { env: { NODE_COMPILE_CACHE: this.compileCacheFolder() } };
    const serverOptions: ServerOptions = {
      run: { module: serverModule, transport: TransportKind.stdio, args: ["serve"], options: forkOptions },
      debug: { module: serverModule, transport: TransportKind.stdio, args: ["serve"], options: forkOptions },
    };
    const errorHandler = new ObservedErrorHandler((willRestart) => {
      if (!current()) return;
      this.restartPending = willRestart;
      if (!willRestart) {
        this.log.error("the backend crashed too often; it will not be restarted automatically");
      }
    });
    const clientOptions: LanguageClientOptions = {
      documentSelector: [],
      outputChannel: this.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: options,
      errorHandler,
      connectionOptions: { maxRestartCount: MAX_RESTARTS },
      initializationFailedHandler: (error: unknown) => {
        this.log.error("the backend failed to initialize", error);
        return false;
      },
    };
    const client = new LanguageClient("docket", "Docket", serverOptions, clientOptions);
    errorHandler.attach(client);
    this.client = client;
    this.log.info(`starting backend with ${JSON.stringify(options)}`);

    let startTimer: ReturnType<typeof setTimeout> | undefined;
    const watchStart = (): void => {
      clearTimeout(startTimer);
      startTimer = setTimeout(() => {
        if (!current() || client.state !== State.Starting) return;
        this.log.error(`the backend did not answer within ${START_TIMEOUT_MS / 1000} s; stopping its process`);
        client.serverProcess?.kill();
      }, START_TIMEOUT_MS);
    };
    watchStart();
    client.onDidChangeState((event) => {
      if (event.newState !== State.Starting) clearTimeout(startTimer);
      if (!current() || this.stopping) return;
      switch (event.newState) {
        case State.Starting:
          watchStart();
          this.setState(this._state === "ready" || this.restartPending ? "restarting" : "starting");
          break;
        case State.Running: {
          this.restartPending = false;
          let answered: () => void = () => undefined;
          this.firstStatus = new Promise((resolve) => (answered = resolve));
          this.setState("ready");
          const readyAt = performance.now();
          this.refreshStatus()
            .then(() => {
              // One line per start: how long the first view waited on the backend after it was ready.
              this.log.info(`status answered ${Math.round(performance.now() - readyAt)} ms after the backend was ready${sinceActivate()}`);
            })
            .catch((error: unknown) => {
              this.log.warn("docket/status after start failed", error);
            })
            .finally(() => {
              answered();
              this.settleFirstStart();
            });
          break;
        }
        case State.Stopped:
          this.setState(this.restartPending ? "restarting" : "stopped");
          if (!this.restartPending) {
            void this.announceStopped();
          }
          break;
      }
    });
    client.onNotification(Notifications.stateChanged.method, (params: unknown) => {
      if (!current()) return;
      const parsed = Notifications.stateChanged.params.safeParse(params);
      if (!parsed.success) {
        this.log.error(`${Notifications.stateChanged.method}: ignored a notification that does not match the protocol`, parsed.error.issues);
        return;
      }
      this.statusSequence++;
      this.applyStatus(parsed.data);
    });

    client.onNotification(Notifications.guardChanged.method, (params: unknown) => {
      if (!current()) return;
      if (!Notifications.guardChanged.params.safeParse(params).success) {
        this.log.error(`${Notifications.guardChanged.method}: ignored a notification that does not match the protocol`);
        return;
      }
      this.guardEmitter.fire();
    });

    try {
      await client.start();
    } catch (error) {
      if (current()) {
        this.log.error("the backend did not start", error);
        if (!this.restartPending) {
          this.setState("stopped");
        }
      }
    }
  }

  /** The backend's compile cache: this version's folder in the extension's storage (extension/versionedCache.ts). */
  private compileCacheFolder(): string {
    return versionedCacheFolder(this.context, "node-compile-cache");
  }

  private async announceStopped(): Promise<void> {
    const restart = vscode.l10n.t("Restart Backend");
    const output = vscode.l10n.t("Show Output");
    const choice = await vscode.window.showErrorMessage(
      vscode.l10n.t("Docket's backend stopped and will not restart on its own."),
      restart,
      output,
    );
    if (choice === restart) {
      await vscode.commands.executeCommand("docket.restartBackend");
    } else if (choice === output) {
      this.log.show(true);
    }
  }

  /** Stops the current client; `final` = no new client follows (so the state becomes "stopped"). */
  private async stopClient(final: boolean): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.generation++;
    if (client === undefined) {
      return;
    }
    this.stopping = true;
    try {
      if (client.state === State.Starting) {
        // languageclient can only stop a running client: let the start settle first.
        await Promise.race([client.start().catch(() => undefined), delay(5000)]);
      }
      await client.dispose(2000);
    } catch (error) {
      this.log.warn("stopping the backend failed", error);
      client.serverProcess?.kill();
    } finally {
      this.stopping = false;
    }
    if (final) {
      this.setState("stopped");
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
