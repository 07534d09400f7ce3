// The language-server-style backend (`docket serve --stdio`). It owns one WorkspaceLedger,
// answers the `docket/*` requests defined in protocol/messages.ts, validates every input with
// the same schemas the extension uses, and notifies `docket/stateChanged` when the ledger moves
// (including appends by other processes, picked up by watching the file), and
// `docket/guard/changed` when the completion guard's overview may answer differently.
import fs from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import {
  createConnection,
  ProposedFeatures,
  ResponseError,
  ErrorCodes as RpcErrorCodes,
  type Connection,
  type InitializeResult,
} from "vscode-languageserver/node";
import type { z } from "zod";
import { DocketError, toDocketError } from "../errors";
import {
  BackendInitOptions,
  ErrorCodes,
  Notifications,
  Requests,
  type DocketErrorData,
  type RequestDefinition,
  type Status,
  type WorkState,
} from "../protocol/messages";
import { verifyLedgerFile, WorkspaceLedger } from "../workspace/workspaceLedger";
import { resolveLedgerPath } from "../workspace/ledgerPaths";
import { PiSessionHost } from "../pi/piSessionHost";
import type { Installation } from "../agents/installerFiles";
import type { ROUTER_MODULES, WorkspacePlanner } from "../router/workspacePlanner";
import type { NotebookRpc } from "../notebook/notebookRpc";
import { GuardRpc } from "./guardRpc";
import os from "node:os";
import type { LocalJobOutcome, LocalObserverJob, LocalObserverProcessor } from "../observer/localProcessing";
import {
  agentsStatus,
  guardReceipts,
  installerFiles,
  gitConnect,
  localProcessing,
  notebookPath,
  notebookRpc,
  observerReceipts,
  observerRuntime,
  observerSaveFlow,
  observerService,
  processingPolicy,
  skillCatalog,
  teamRequests,
  workspacePlanner,
} from "./requestModules";

const POLL_INTERVAL_MS = 300;
/** Once per process (see Backend.firstViewAnswered). */
let compileCacheFlushed = false;

/** A byte count from the environment (tests and the bench tune the start with it), else the default. */
function bytesFromEnvironment(name: string, fallback: number): number {
  const value = process.env[name];
  return value !== undefined && /^[0-9]{1,12}$/u.test(value) ? Number(value) : fallback;
}

/** A ledger up to this size is read at start (about 0.1 s of replay): the snapshot would save little. */
const READ_AT_ONCE_BYTES = bytesFromEnvironment("DOCKET_BACKEND_READ_AT_ONCE_BYTES", 1024 * 1024);
/** One background slice: about 5–15 ms of replay (more while the JIT is cold), the longest a request waits behind the read. */
const HISTORY_SLICE_BYTES = Math.max(1, bytesFromEnvironment("DOCKET_BACKEND_HISTORY_SLICE_BYTES", 64 * 1024));
/** How long the read waits for the first status or Work view answer before it starts anyway. */
const FIRST_VIEW_GRACE_MS = 1_000;

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Requests that only read: they answer beside a running local Observer job. Every other request
 * is foreground work and pauses the job (it is aborted and requeued) until the request is done;
 * reads are left out because the views poll and refresh often, and a long local model call
 * restarted on every refresh would never finish.
 */
const READ_ONLY_REQUESTS: ReadonlySet<string> = new Set(
  [
    Requests.status,
    Requests.workState,
    Requests.workHistoryPage,
    Requests.receiptsPage,
    Requests.receiptDetail,
    Requests.verifyLedger,
    Requests.policy,
    Requests.skills,
    Requests.evidenceShow,
    Requests.landingBaseline,
    Requests.agentsStatus,
    Requests.agentsPlan,
    Requests.gitPlan,
    Requests.notebookStatus,
    Requests.notebookProposals,
    Requests.notebookProposal,
    Requests.observerOverview,
    Requests.guardOverview,
    Requests.guardReceiptsPage,
    Requests.guardReceiptDetail,
    Requests.teamLandingCommits,
    Requests.teamCommitPatch,
    Requests.teamAuditRange,
    Requests.teamAudit,
  ].map((definition) => definition.method),
);

function rpcError(error: unknown): ResponseError<DocketErrorData> {
  const docket = toDocketError(error);
  const rpcCode = docket.code === ErrorCodes.invalidParams ? RpcErrorCodes.InvalidParams : RpcErrorCodes.InternalError;
  return new ResponseError<DocketErrorData>(rpcCode, docket.message, { code: docket.code, message: docket.message });
}

function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(params)"}: ${issue.message}`).join("; ");
    throw new DocketError(ErrorCodes.invalidParams, `Invalid parameters: ${detail}`);
  }
  return parsed.data;
}

export class Backend {
  private ledger: WorkspaceLedger | null = null;
  private options: BackendInitOptions = { workspaceFolder: null, ledgerPath: null, trusted: false };
  private lastRevision: string | null = null;
  /** Whether the last status published was the snapshot's (stillReading): its end is a change too. */
  private lastReading = false;
  /** The whole history being read behind the snapshot's answers; null once read (or never needed). */
  private historyReading: Promise<void> | null = null;
  /** Starts that read now, once the first view answer is out (null once started). */
  private startReadingNow: (() => void) | null = null;
  private lastGuardRevision: string | null = null;
  /** The editor that started this backend (LSP clientInfo), for provenance. */
  private client: string | null = null;
  private watching: string | null = null;
  private dirWatcher: fs.FSWatcher | null = null;
  /** The Router's planner for the workspace folder, created by the first `docket/plan`. */
  private planner: WorkspacePlanner | null = null;
  private plannerModules: typeof ROUTER_MODULES | null = null;
  /** Tells the planner which files changed; null until planning starts, or when watching failed. */
  private workspaceWatcher: fs.FSWatcher | null = null;
  private workspaceWatchFailed = false;
  /** Observer's local processing queue: only while the workspace is trusted and its policy is `local`. */
  private localObserverQueue: LocalObserverProcessor | null = null;
  /** Foreground requests in flight; the local queue runs only while there are none. */
  private foregroundRequests = 0;
  /** A Pi session opened read-only; while one is open it answers (or refuses) every request. */
  private readonly piSessions = new PiSessionHost(
    () => ({ workspaceFolder: this.options.workspaceFolder, trusted: this.options.trusted }),
    () => this.publishIfChanged(),
  );
  /** Notebook setup, proposals and publication; created by the first Notebook request. */
  private notebookRpc: NotebookRpc | null = null;
  /** Completion reviews and Stop decisions for the views; watches the guard's session and mode files. */
  private readonly guard = new GuardRpc(
    () => ({ workspaceFolder: this.options.workspaceFolder, trusted: this.options.trusted }),
    () => this.publishIfChanged(),
  );

  constructor(private readonly connection: Connection) {}

  start(): void {
    const connection = this.connection;
    connection.onInitialize((params): InitializeResult => {
      const parsed = BackendInitOptions.safeParse(params.initializationOptions ?? {});
      if (!parsed.success) {
        throw new ResponseError(RpcErrorCodes.InvalidParams, `Invalid initialization options: ${parsed.error.message}`);
      }
      const client = params.clientInfo;
      this.client = client === undefined ? null : `${client.name}${client.version === undefined ? "" : ` ${client.version}`}`.slice(0, 200);
      this.configure(parsed.data);
      return { capabilities: {}, serverInfo: { name: "docket", version: "0.1.0" } };
    });
    connection.onShutdown(() => {
      this.stopWatching();
      this.stopWatchingWorkspace();
      this.guard.stop();
      this.piSessions.close();
      this.stopLocalObserver();
    });
    this.handle(Requests.status, () => {
      const status = this.status();
      this.firstViewAnswered();
      return status;
    });
    this.handle(Requests.turnOn, async () => (await this.requireLedger()).turnOn());
    this.handle(Requests.turnOff, async (params) => (await this.requireLedger()).turnOff(params.reason));
    this.handle(Requests.receiptsPage, async (params) =>
      (await this.requireLedger()).receiptsPage(params.cursor, params.pageSize, params.from, { kinds: params.kinds, containing: params.containing }),
    );
    this.handle(Requests.receiptDetail, async (params) => (await this.requireLedger()).receiptDetail(params.eventSha256));
    this.handle(Requests.verifyLedger, async () => verifyLedgerFile((await this.requireLedger()).store.ledgerPath));
    this.handle(Requests.policy, async () => (await this.requireLedger()).policy());
    this.handle(Requests.openJudgment, async (params) => (await this.requireLedger()).openJudgment(params));
    this.handle(Requests.openContextSources, async (params) => (await this.requireLedger()).openContextSources(params));
    this.handle(Requests.concludeJudgment, async (params) => (await this.requireLedger()).concludeJudgment(params));
    this.handle(Requests.authorizeChange, async (params) => (await this.requireLedger()).authorizeChange(params));
    this.handle(Requests.recordLanding, async (params) => (await this.requireLedger()).recordLanding(params));
    this.handle(Requests.workState, () => {
      const work = this.workState();
      this.firstViewAnswered();
      return work;
    });
    this.handle(Requests.workHistoryPage, async (params) => (await this.requireLedger()).workHistoryPage(params.cursor, params.pageSize));
    this.handle(Requests.skills, async () => (await this.requireLedger()).skills());
    this.handle(Requests.evidenceShow, async (params) => (await this.requireLedger()).showEvidence(params.branchResultId));
    this.handle(Requests.landingBaseline, async (params) => (await this.requireLedger()).landingBaseline(params.landingId, params.path));
    this.handle(Requests.piSessionOpen, (params) => {
      this.piSessions.open(params.path);
      return this.status();
    });
    this.handle(Requests.piSessionClose, () => {
      this.piSessions.close();
      return this.status();
    });
    this.handle(Requests.agentsPlan, (params) => installerFiles().connectPlan(this.agentInstallation(params.host, false, params.readOnlyTools)));
    this.handle(Requests.agentsApply, (params) => installerFiles().applyConnect(this.agentInstallation(params.host, true, params.readOnlyTools), params.planSha256));
    this.handle(Requests.agentsDisconnect, (params) => installerFiles().applyDisconnect(this.agentInstallation(params.host, true)));
    this.handle(Requests.gitPlan, (params) => gitConnect().planGit(this.gitInstallation(false), params.mode));
    this.handle(Requests.gitApply, (params) => gitConnect().applyGit(this.gitInstallation(true), params.mode, params.planSha256));
    this.handle(Requests.agentsStatus, () => agentsStatus().agentsStatus(this.requireWorkspaceFolder()));
    this.handle(Requests.plan, (params) => this.workspacePlanner().plan(params.task, params.mode ?? null));
    this.handle(Requests.notebookStatus, (params) => this.notebook().status(params));
    this.handle(Requests.notebookSetup, (params) => this.notebook().setup(params));
    this.handle(Requests.notebookProposals, () => this.notebook().proposals());
    this.handle(Requests.notebookProposal, (params) => this.notebook().proposal(params.proposalId));
    // Observer's own proposal is saved and returned through the Observer ledger (observerSaveFlow.ts).
    this.handle(Requests.notebookPublish, async (params) => {
      const folder = this.options.workspaceFolder;
      if (this.ledger !== null && folder !== null && (await observerSaveFlow().isObserverProposalUnderReview(this.ledger, params.proposalId))) {
        return observerSaveFlow().publishObserverSave(this.ledger, folder, params.proposalId, () => this.notebook().publish(params));
      }
      return this.notebook().publish(params);
    });
    this.handle(Requests.notebookDiscard, async (params) => {
      const folder = this.options.workspaceFolder;
      if (this.ledger !== null && folder !== null && (await observerSaveFlow().isObserverProposalUnderReview(this.ledger, params.proposalId))) {
        return observerSaveFlow().returnObserverSaveToReview(this.ledger, folder, params.proposalId, () => this.notebook().discard(params.proposalId));
      }
      return this.notebook().discard(params.proposalId);
    });
    // Observer (server/observer/observerService.ts): reading needs a folder; every change also needs trust.
    const observerWriter = async (): Promise<{ ledger: WorkspaceLedger; workspaceFolder: string }> => {
      const ledger = await this.requireLedger();
      if (!this.options.trusted) {
        throw new DocketError(ErrorCodes.untrusted, "This workspace is in Restricted Mode: Docket does not change Observer's history. Trust the workspace to continue.");
      }
      return { ledger, workspaceFolder: ledger.options.workspaceFolder };
    };
    this.handle(Requests.observerOverview, async () => {
      const ledger = await this.requireLedger();
      // The editor's refresh brings files in line with the ledger after an interrupted save (trusted only: it writes).
      if (this.options.trusted) await observerSaveFlow().synchronizeObserverSave(ledger, ledger.options.workspaceFolder).catch(() => null);
      const overview = await observerService().observerOverview(ledger, ledger.options.workspaceFolder);
      // Local mode: what the overview shows waiting is queued for the local model (once per history and staged set).
      const local = this.localObserver();
      if (local !== null && localProcessing().localWorkPending(overview)) local.offer(localProcessing().routineJob(overview));
      return overview;
    });
    this.handle(Requests.observerSetMode, async (params) => {
      const { ledger, workspaceFolder } = await observerWriter();
      if (!params.on) return observerService().setObserverMode(ledger, workspaceFolder, { on: false, notebookRoot: null });
      if (params.notebookPath === null) {
        throw new DocketError(ErrorCodes.notebookNotConfigured, "Observer needs a Notebook: set one up (Docket: Set Up Notebook…) or set docket.notebookPath, then turn Observer on.");
      }
      // The same reading of the path as the Notebook requests (relative to the workspace folder, ~ to home).
      const resolved = notebookPath().resolveNotebookPath(params.notebookPath, workspaceFolder, os.homedir());
      if (!resolved.ok) throw new DocketError(ErrorCodes.notebookNotConfigured, `${resolved.message} (${resolved.code})`);
      return observerService().setObserverMode(ledger, workspaceFolder, { on: true, notebookRoot: resolved.path });
    });
    this.handle(Requests.observerAddHypothesis, async (params) => {
      const { ledger, workspaceFolder } = await observerWriter();
      return observerService().addUserHypothesis(ledger, workspaceFolder, params);
    });
    this.handle(Requests.observerReconcileMemo, async () => {
      const { ledger, workspaceFolder } = await observerWriter();
      return observerService().requestMemoReconciliation(ledger, workspaceFolder);
    });
    this.handle(Requests.observerReviewSave, async () => {
      const { ledger, workspaceFolder } = await observerWriter();
      return observerService().requestReviewAndSave(ledger, workspaceFolder);
    });
    this.handle(Requests.observerReviewMaterial, async (params) => {
      const { ledger, workspaceFolder } = await observerWriter();
      const result = await observerService().requestMaterialReview(ledger, workspaceFolder, params);
      const local = this.localObserver();
      if (local === null) return result;
      // Local mode: the review is the local model's job; asking again for a pending review retries it.
      const pending = await ledger.readCaughtUp((store) => observerRuntime().pendingMaterialReviewOf(observerRuntime().observerLogOf(store)));
      if (pending === null) return result;
      const queued = local.offer(localProcessing().materialJob(pending.requestId));
      return {
        ...result,
        message: queued
          ? `Material review ${pending.requestId} is queued for Observer's local model; the Observer view refreshes when its reading is recorded. Review the same material again to retry, or cancel the review.`
          : `Material review ${pending.requestId} is already with Observer's local model.`,
      };
    });
    this.handle(Requests.observerCancelMaterial, async () => {
      const { ledger, workspaceFolder } = await observerWriter();
      const result = await observerService().cancelMaterialReview(ledger, workspaceFolder);
      // The review is gone: a local job reading it stops, and nothing it finishes is applied.
      this.localObserverQueue?.reset();
      return result;
    });
    this.handle(Requests.guardOverview, async (params) => this.guard.overview((await this.requireLedger()).store.guardLines, params.limit));
    this.handle(Requests.guardSetMode, (params) => this.guard.setMode(params.mode));
    this.handle(Requests.guardReceiptsPage, async (params) => {
      const ledger = await this.requireLedger();
      return guardReceipts().guardReceiptsPage(ledger.store.guardLines, ledger.status().revision, params);
    });
    this.handle(Requests.guardReceiptDetail, async (params) => guardReceipts().guardReceiptDetail((await this.requireLedger()).store.guardLines, params.lineSha256));
    this.handle(Requests.observerReceiptsPage, async (params) => {
      const ledger = await this.requireLedger();
      return observerReceipts().observerReceiptsPage(ledger.store.observerLines, ledger.status().revision, params);
    });
    this.handle(Requests.observerReceiptDetail, async (params) => observerReceipts().observerReceiptDetailFromStore((await this.requireLedger()).store, params.lineSha256));
    // Team provenance (issue 17): reads of Git and the ledger for the Work view and "Audit Branch…".
    this.handle(Requests.teamLandingCommits, (params) => teamRequests().landingCommits(this.requireGitFolder(), params));
    this.handle(Requests.teamCommitPatch, (params) => teamRequests().showCommit(this.requireGitFolder(), params.sha));
    this.handle(Requests.teamAuditRange, () => teamRequests().auditRange(this.requireGitFolder()));
    this.handle(Requests.teamAudit, async (params) => {
      const ledger = await this.requireLedger();
      return teamRequests().audit(ledger.options.workspaceFolder, ledger.store.ledgerPath, params.range);
    });
    connection.listen();
  }

  private handle<P extends z.ZodType, R extends z.ZodType>(
    definition: RequestDefinition<P, R>,
    handler: (params: z.output<P>) => z.input<R> | Promise<z.input<R>>,
  ): void {
    const foreground = !READ_ONLY_REQUESTS.has(definition.method);
    this.connection.onRequest(definition.method, async (params: unknown) => {
      if (foreground) this.beginForeground();
      try {
        const run = this.piSessions.intercept(definition.method) ?? handler;
        const result = definition.result.parse(await run(parseParams(definition.params, params)));
        this.publishIfChanged();
        return result;
      } catch (error) {
        this.publishIfChanged();
        return rpcError(error);
      } finally {
        if (foreground) this.endForeground();
      }
    });
  }

  configure(options: BackendInitOptions): void {
    this.stopLocalObserver();
    this.options = options;
    this.stopWatching();
    this.stopWatchingWorkspace();
    this.guard.watch(options.workspaceFolder);
    this.planner = null;
    this.workspaceWatchFailed = false;
    this.historyReading = null;
    this.startReadingNow = null;
    if (options.workspaceFolder === null) {
      this.ledger = null;
      return;
    }
    const ledgerPath = options.ledgerPath ?? resolveLedgerPath(options.workspaceFolder, null);
    this.ledger = new WorkspaceLedger({
      workspaceFolder: options.workspaceFolder,
      ledgerPath,
      trusted: options.trusted,
      // The person at the editor: recorded beside the ledger as who drove each frame.
      actor: { kind: "vscode", client: this.client, session: null },
    });
    // A large ledger's first answers come from the verified snapshot when it proves the ledger's
    // state; the whole history is read behind them, a slice at a time (docs/performance.md
    // "Extension start on a large ledger"). A small one, or one without a snapshot, is read now.
    if (fileSize(ledgerPath) <= READ_AT_ONCE_BYTES) this.ledger.refresh();
    const status = this.status();
    this.lastRevision = status.revision;
    this.lastReading = status.stillReading === true;
    this.lastGuardRevision = this.guard.revision(this.lastRevision);
    this.startWatching(ledgerPath);
    this.readHistoryBehind(this.ledger);
  }

  /** A view's first answer is going out: what was held back for it may start. */
  private firstViewAnswered(): void {
    this.startReadingNow?.();
    if (compileCacheFlushed) return;
    compileCacheFlushed = true;
    // Node writes its compile cache (NODE_COMPILE_CACHE, set by the extension) only when the
    // process exits; a backend that is killed (a crashed editor, a kill of the process group)
    // would leave none, and every next start would compile the bundle again. Written once, after
    // the answer has gone out.
    const flush = (nodeModule as { flushCompileCache?: () => void }).flushCompileCache;
    // A cache that cannot be written (a full disk, a read-only profile) costs only the next start's compile.
    if (flush !== undefined)
      setImmediate(() => {
        try {
          flush();
        } catch {
          // nothing to undo: the answer is out, and Node reads no partial cache entry
        }
      });
  }

  /** Reads the whole history between requests; when done, the views hear of it (they re-ask and show it all). */
  private readHistoryBehind(ledger: WorkspaceLedger): void {
    if (ledger.historyRead) {
      this.historyReading = null;
      return;
    }
    const superseded = new Error("superseded");
    const pause = (): Promise<void> =>
      new Promise((resolve, reject) => setImmediate(() => (this.ledger === ledger ? resolve() : reject(superseded))));
    // The first view answers go first: the read starts once the first status or Work view answer
    // is sent (the views render from them), or after a grace period for a client that asks for
    // neither. Requests that need the whole history wait for the read either way.
    const begin = new Promise<void>((resolve) => {
      this.startReadingNow = resolve;
      setTimeout(resolve, FIRST_VIEW_GRACE_MS).unref();
    });
    const reading = begin
      .then(() => {
        this.startReadingNow = null;
        return ledger.readHistoryInSlices(pause, HISTORY_SLICE_BYTES);
      })
      .then(
        () => undefined,
        () => undefined,
      );
    this.historyReading = reading;
    void reading.then(() => {
      if (this.historyReading === reading) this.historyReading = null;
      if (this.ledger === ledger) this.publishIfChanged();
    });
  }

  /**
   * The planner keeps the workspace snapshot between plans; a recursive watcher on the folder
   * (started with the first plan, so a backend that never plans watches nothing) says which
   * files changed. Where the watcher cannot run (no recursive watch, too many folders for the
   * system's limit), every plan rescans instead: slower, never stale.
   */
  private workspacePlanner(): WorkspacePlanner {
    const folder = this.options.workspaceFolder;
    if (folder === null) throw new DocketError(ErrorCodes.noWorkspace, "Open a folder to plan a task: Docket plans against the folder's files and skills.");
    // Restricted Mode writes nothing, so an untrusted workspace's snapshot stays in memory (no Router index).
    const router = workspacePlanner();
    const modules = this.options.trusted ? router.ROUTER_MODULES : router.READ_ONLY_ROUTER_MODULES;
    if (this.planner === null || this.planner.workspaceRoot !== folder || this.plannerModules !== modules) {
      this.stopWatchingWorkspace();
      this.planner = new router.WorkspacePlanner(folder, skillCatalog().findPackageRoot(__dirname), modules);
      this.plannerModules = modules;
      this.watchWorkspace(folder, this.planner);
    }
    if (this.workspaceWatchFailed) {
      // From now on nobody keeps the snapshot up to date, so each plan rebuilds it.
      this.planner = new router.WorkspacePlanner(folder, this.planner.packageRoot, modules, "rescan");
      this.workspaceWatchFailed = false;
    }
    return this.planner;
  }

  private watchWorkspace(folder: string, planner: WorkspacePlanner): void {
    const fail = (): void => {
      this.workspaceWatchFailed = true;
      this.stopWatchingWorkspace();
    };
    try {
      const watcher = fs.watch(folder, { recursive: true, persistent: false }, (event, filename) => {
        // No name means the platform lost track of what changed: rescan everything next time.
        if (filename === null) return fail();
        const name = filename.toString();
        // Docket's own appends (ledger, evidence, reviews) change contents, never what a plan reads.
        if (event === "change" && name.startsWith(`.docket${path.sep}`)) return;
        planner.invalidate([path.join(folder, name)]);
      });
      watcher.on("error", fail);
      this.workspaceWatcher = watcher;
    } catch {
      fail();
    }
  }

  private stopWatchingWorkspace(): void {
    this.workspaceWatcher?.close();
    this.workspaceWatcher = null;
  }

  /** The Notebook's requests; its modules load with the first of them. */
  private notebook(): NotebookRpc {
    if (this.notebookRpc === null) {
      const notebook = notebookRpc();
      this.notebookRpc = new notebook.NotebookRpc(
        () => ({ workspaceFolder: this.options.workspaceFolder, trusted: this.options.trusted }),
        notebook.createNotebookPorts(),
      );
    }
    return this.notebookRpc;
  }

  private requireWorkspaceFolder(): string {
    if (this.options.workspaceFolder === null) {
      throw new DocketError(ErrorCodes.noWorkspace, "Open a folder to connect an agent: its configuration lives in the workspace folder.");
    }
    return this.options.workspaceFolder;
  }

  private requireGitFolder(): string {
    if (this.options.workspaceFolder === null) {
      throw new DocketError(ErrorCodes.noWorkspace, "Open a folder to see its commits: Docket reads them from the folder's Git repository.");
    }
    return this.options.workspaceFolder;
  }

  /** The backend runs from the extension's installed dist/docket.js: that is what hosts will run. */
  private gitInstallation(writing: boolean): { workspaceFolder: string; runtimePath: string; nodePath: string } {
    const workspaceFolder = this.requireWorkspaceFolder();
    if (writing && !this.options.trusted) {
      throw new DocketError(ErrorCodes.untrusted, "This workspace is not trusted, so Docket will not change its Git configuration.");
    }
    return { workspaceFolder, runtimePath: installerFiles().resolveRuntimePath(process.argv[1]), nodePath: process.execPath };
  }

  private agentInstallation(host: Installation["host"], writing: boolean, readOnlyTools: readonly string[] = []): Installation {
    const workspaceFolder = this.requireWorkspaceFolder();
    if (writing && !this.options.trusted) {
      throw new DocketError(ErrorCodes.untrusted, "This workspace is not trusted, so Docket will not change its agent configuration.");
    }
    return { host, workspaceFolder, runtimePath: installerFiles().resolveRuntimePath(process.argv[1]), ledgerPath: this.options.ledgerPath, readOnlyTools };
  }

  /** Foreground wins: the local Observer job stops (and is requeued) while the editor's request runs. */
  private beginForeground(): void {
    this.foregroundRequests += 1;
    this.localObserverQueue?.pause();
  }

  private endForeground(): void {
    this.foregroundRequests -= 1;
    if (this.foregroundRequests === 0) this.localObserverQueue?.resume();
  }

  /**
   * The local Observer queue, when the trusted workspace's policy is `local` (read each time: the
   * CLI may change it while the backend runs); otherwise none, and a queue left from before is
   * disposed with whatever it held.
   */
  private localObserver(): LocalObserverProcessor | null {
    const ledger = this.ledger;
    const folder = this.options.workspaceFolder;
    if (ledger === null || folder === null || !this.options.trusted || processingPolicy().readProcessingPolicy(folder).policy.mode !== "local") {
      this.stopLocalObserver();
      return null;
    }
    if (this.localObserverQueue === null || this.localObserverQueue.ledger !== ledger) {
      this.stopLocalObserver();
      this.localObserverQueue = new (localProcessing().LocalObserverProcessor)(ledger, folder, { settled: (job, outcome) => this.localJobSettled(job, outcome) });
      if (this.foregroundRequests === 0) this.localObserverQueue.resume();
    }
    return this.localObserverQueue;
  }

  private stopLocalObserver(): void {
    this.localObserverQueue?.dispose();
    this.localObserverQueue = null;
  }

  /** A committed job moved the ledger: the views hear it as any other change. A deferred one is logged with its code. */
  private localJobSettled(job: LocalObserverJob, outcome: LocalJobOutcome): void {
    if (outcome.status === "deferred") this.connection.console.warn(`Observer local job ${job.id} deferred: ${outcome.code}: ${outcome.message}`);
    if (outcome.status === "completed") this.connection.console.info(`Observer local job ${job.id} recorded ${outcome.appended} entries. ${outcome.followUps.join(" ")}`.trim());
    this.publishIfChanged();
  }

  /**
   * The ledger caught up with the file. While the history is still read in slices, a request that
   * needs the whole of it waits for the read (asynchronously, so the Work view's snapshot answers
   * are not held up behind it).
   */
  private async requireLedger(): Promise<WorkspaceLedger> {
    const ledger = this.ledger;
    if (ledger === null) {
      throw new DocketError(ErrorCodes.noWorkspace, "Open a folder to use Docket: its ledger lives in the workspace folder.");
    }
    if (this.historyReading !== null) await this.historyReading;
    ledger.refresh();
    return ledger;
  }

  status(): Status {
    const piSession = this.piSessions.session;
    if (piSession !== null) {
      piSession.refresh();
      return piSession.status();
    }
    if (this.ledger === null) {
      return {
        workspaceFolder: null,
        trusted: this.options.trusted,
        phase: "off",
        historyMode: "empty",
        blockedReason: null,
        activeScope: null,
        scopes: [],
        ledger: null,
        revision: "no-workspace",
        receiptCount: 0,
        projectionSha256: "9c336f04305dfbbc460eef0adc28f05bda06d3c9b86ecaf0c295f70d433d7475",
        source: { kind: "workspace" },
        legalOperations: [],
      };
    }
    return this.ledger.viewStatus();
  }

  /** The Work view: the active scope and the newest History page (from the snapshot while the history is read). */
  workState(): WorkState {
    if (this.ledger === null) {
      return { phase: "off", workScopeId: null, purpose: null, legalOperations: [], nextAction: null, frames: [], authorization: null, landings: [], history: [] };
    }
    return this.ledger.viewWorkState();
  }

  private publishIfChanged(): void {
    let status: Status;
    try {
      status = this.status();
    } catch {
      return;
    }
    const reading = status.stillReading === true;
    if (status.revision !== this.lastRevision || reading !== this.lastReading) {
      this.lastRevision = status.revision;
      this.lastReading = reading;
      void this.connection.sendNotification(Notifications.stateChanged.method, Notifications.stateChanged.params.parse(status));
    }
    // After the status, so a view that re-reads both on the guard notification sees the new history.
    const guardRevision = this.guard.revision(status.revision);
    if (guardRevision === this.lastGuardRevision) return;
    this.lastGuardRevision = guardRevision;
    void this.connection.sendNotification(Notifications.guardChanged.method, Notifications.guardChanged.params.parse({ revision: guardRevision }));
  }

  // Polling catches appends from other processes on every file system (including network and
  // container mounts where fs.watch is silent); the directory watcher only makes it prompt.
  private startWatching(ledgerPath: string): void {
    this.watching = ledgerPath;
    fs.watchFile(ledgerPath, { interval: POLL_INTERVAL_MS, persistent: false }, () => this.publishIfChanged());
    this.watchDirectory(path.dirname(ledgerPath));
  }

  private watchDirectory(directory: string): void {
    try {
      this.dirWatcher = fs.watch(directory, { persistent: false }, () => this.publishIfChanged());
      this.dirWatcher.on("error", () => undefined);
    } catch {
      this.dirWatcher = null; // directory does not exist yet; polling covers it
    }
  }

  private stopWatching(): void {
    if (this.watching !== null) fs.unwatchFile(this.watching);
    this.watching = null;
    this.dirWatcher?.close();
    this.dirWatcher = null;
  }
}

export function serveStdio(): void {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  // Anything a library logs must not corrupt the JSON-RPC stream on stdout.
  console.log = (...args: unknown[]) => connection.console.log(args.map(String).join(" "));
  new Backend(connection).start();
}
