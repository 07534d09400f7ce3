// One workspace's ledger as the backend and the CLI see it: the store, its receipt projection,
// the derived status, and the write operations. Time is injected; everything else is derived
// from the ledger file.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { describeHistory, resultSummary, runtimeFacts, type HistoryView, type ResultSummary } from "../developer/history";
import { ReceiptProjection } from "../developer/receipts";
import { historyPolicy, historyReceiptsPage, historyStatus, statusRevision } from "./historyStatus";
import { readReceiptDetail, type ReceiptPageQuery } from "./receiptQueries";
import { persistReceiptHead } from "./receiptHead";
import { receiptsPageFromHead } from "./receiptWindow";
import { turnOffBatch, turnOnBatch } from "../developer/scopeOperations";
import { activeAuthorizationOf, authorizeChangeBatch, recordLandingBatch } from "../developer/operations/changeOperations";
import { requireActiveScope } from "../developer/operations/common";
import { concludeJudgmentBatch, openJudgmentBatch, type ConcludeJudgmentInput, type OpenJudgmentInput } from "../developer/operations/judgmentOperations";
import { openContextSourcesBatch, type OpenContextSourcesInput } from "../developer/operations/contextSources";
import { NO_EVIDENCE, type EvidenceLookup } from "../developer/operations/evidence";
import { workspaceEvidence } from "../evidence/evidenceStore";
import { prepareJudgment, usesJudgmentEngine, type PreparedJudgment } from "../developer/operations/judgmentContext";
import { findPackageRoot, loadSkillCatalog, type SkillCatalog } from "../developer/operations/skillCatalog";
import { checkAuthorization, reconcileLanding, workspaceDelta, type WorkspaceRefusal, type WorkspaceSnapshot } from "../developer/workspaceDelta";
import { inForceBaselineKey, loadBaseline, saveBaseline, saveBaselineSync, type BaselineKey } from "./baselineStore";
import { readFileAtCommit, takeWorkspaceSnapshot } from "./gitObservation";
import { redactPersistedInput } from "../evidence/persistedText";
import { containmentRootFor } from "./ledgerPaths";
import { ledgerHealth, lineOfReplayIndex } from "./ledgerHealth";
import { sweepStateTemporaries } from "./docketFolder";
import { describeWorkState, rememberClosedScopeHistory, type FrameActor } from "../developer/workState";
import { readProvenance, recordProvenance, type Actor } from "./provenanceStore";
import { describeSkills } from "../developer/operations/skillListing";
import { DocketError, toDocketError } from "../errors";
import { LedgerStore } from "../ledger/store";
import type { AcceptedEvent } from "../ledger/replay";
import type { GuardEntry } from "../guard/guardEntry";
import type { ObserverLedgerEntry } from "../observer/observerEntry";
import { writeCheckpoint } from "../hooks/checkpointState";
import { appendFromSnapshot, readSnapshotReading, readSnapshotView, type SnapshotReading, type WriteView } from "./snapshotWrites";
import { snapshotStatus, snapshotWorkState } from "./snapshotStatus";
import { cursorStart, WORK_HISTORY_FIRST_PAGE, workHistoryPage, type HistoryPageSource } from "./historyPage";
import { checkpointAnswer, checkpointPolicy } from "./checkpointPolicy";
import {
  ErrorCodes,
  type LandingBaseline,
  type CapturedEvidence,
  type SkillsResult,
  type LedgerHealth,
  type OpenContextSourcesResult,
  type OpenJudgmentResult,
  type ReceiptDetail,
  type ReceiptsPage,
  type Status,
  type ToolPolicyResult,
  type WorkHistoryPage,
  type WorkState,
} from "../protocol/messages";

// `docket ledger verify` loads only the store, not this file: it lives in ledgerVerify.ts.
export { verifyLedgerBytes, verifyLedgerFile } from "./ledgerVerify";

export interface Clock {
  /** Current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
  now(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };

/** Draws the nonce a new scope id is bound to (docs/ledger-format.md, "Identifiers"). */
export type ScopeNonceSource = () => string;

export const systemScopeNonce: ScopeNonceSource = () => randomBytes(16).toString("hex");

export interface WorkspaceLedgerOptions {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  readonly trusted: boolean;
  readonly clock?: Clock;
  /** Randomness for new scope ids; tests pin it to get reproducible ids. */
  readonly scopeNonce?: ScopeNonceSource;
  readonly lockTimeoutMs?: number;
  /** Folder holding Docket's `skills/`; found from the running code when omitted. */
  readonly packageRoot?: string;
  /** Captured evidence handles conclusions may nominate; defaults to the workspace's evidence store (`.docket/evidence/`). */
  readonly evidence?: EvidenceLookup;
  /**
   * Who writes through this instance; recorded beside the ledger (provenanceStore.ts) when given.
   * A function when the writer learns its client late (an MCP client names itself on initialize).
   */
  readonly actor?: Actor | (() => Actor);
}

type BatchBuild = (view: WriteView) => { drafts: ReturnType<typeof turnOnBatch>["drafts"]; context: string };

function refusalError(refusal: WorkspaceRefusal): DocketError {
  return new DocketError(refusal.code, refusal.message);
}

/** The captured evidence a conclusion nominated, for its provenance record. */
function nominatedEvidence(input: ConcludeJudgmentInput): string[] {
  if (input.disposition !== "judgment") return [];
  return (input.nominations ?? []).flatMap((nomination) =>
    nomination.kind === "tool-result" ? [nomination.branchResultId] : nomination.kind === "user-decision" ? ["user-decision"] : [],
  );
}

export class WorkspaceLedger {
  readonly store: LedgerStore;
  private projectionGeneration: number;
  private projectionState: ReceiptProjection;
  private readonly clock: Clock;
  private readonly evidence: EvidenceLookup;
  private writeQueue: Promise<unknown> = Promise.resolve();
  private sweptTemporaries = false;
  /** The frame a frame-opening event opened, by accepted ordinal (null: its payload names none). */
  private frameOpenings: { generation: number; byOrdinal: Map<number, string | null> } = { generation: -1, byOrdinal: new Map() };
  /**
   * Whether the store has read the ledger. Until then writes start from the verified snapshot
   * (snapshotWrites.ts) and only readers that need the whole history replay it, once, when asked.
   */
  private loaded = false;

  constructor(readonly options: WorkspaceLedgerOptions) {
    // The Work view's History summarises every closed scope; it is taken as each scope closes.
    // Receipts are projected as replay accepts each event, so nothing is read twice.
    this.store = new LedgerStore(options.ledgerPath, {
      root: containmentRootFor(options.workspaceFolder, options.ledgerPath),
      onScopeClosed: rememberClosedScopeHistory,
      onAccepted: (event, ordinal) => {
        this.syncGeneration();
        this.projectionState.take(event, ordinal);
      },
    });
    this.clock = options.clock ?? systemClock;
    this.evidence = options.evidence ?? (options.workspaceFolder === "" ? NO_EVIDENCE : workspaceEvidence(options.workspaceFolder));
    this.projectionState = new ReceiptProjection();
    this.projectionGeneration = this.store.generation;
  }

  /** Catches up with the file; true when anything visible changed. */
  refresh(): boolean {
    const { changed } = this.store.refresh();
    this.loaded = true;
    this.syncProjection();
    return changed;
  }

  /** The whole history, replayed the first time a reader needs it. */
  private ensureLoaded(): void {
    if (!this.loaded) this.refresh();
  }

  /** Whether the whole history has been read (else the views answer from the snapshot). */
  get historyRead(): boolean {
    return this.loaded;
  }

  /**
   * Reads the whole history a slice of the file at a time, calling `pause` between slices so the
   * backend answers requests meanwhile (each waits one slice at most). A reader that needs the
   * whole history before it is done reads the rest at once (ensureLoaded), from where this stopped.
   */
  async readHistoryInSlices(pause: () => Promise<void>, sliceBytes: number): Promise<void> {
    let slice = sliceBytes;
    // Never inside the caller's turn: the answer it is giving goes out first.
    await pause();
    while (!this.loaded) {
      const before = { generation: this.store.generation, offset: this.store.offset };
      try {
        this.store.refresh({ readAtMost: slice });
      } catch {
        // An unreadable file: the full read reports it as it always has.
        break;
      }
      if (this.store.readToEnd) break;
      // A line longer than the slice: the next slice is larger, so the read always moves on.
      const moved = this.store.generation !== before.generation || this.store.offset > before.offset;
      slice = moved ? sliceBytes : slice * 2;
      await pause();
    }
    if (!this.loaded) this.refresh();
  }

  /** The snapshot a view may show before the history is read, or null (then the full read answers). */
  private snapshotReading(): SnapshotReading | null {
    return this.loaded ? null : readSnapshotReading(this.store.root, this.store.ledgerPath);
  }

  /**
   * The status the views show: from the verified snapshot while the history is still being read
   * (marked `stillReading`), else the full replay's. A snapshot that proves nothing means the
   * full read, now.
   */
  viewStatus(): Status {
    const reading = this.snapshotReading();
    if (reading !== null) {
      return snapshotStatus({ workspaceFolder: this.options.workspaceFolder, trusted: this.options.trusted, ledgerPath: this.store.ledgerPath, reading });
    }
    this.refresh();
    return this.status();
  }

  /** The Work view's state: from the snapshot while reading, else the active scope and the newest History page. */
  viewWorkState(): WorkState {
    const reading = this.snapshotReading();
    if (reading !== null) return snapshotWorkState(reading);
    this.refresh();
    const history = this.history();
    const active = history.activeScope;
    const openOnly: HistoryView = { mode: history.mode, blockedReason: history.blockedReason, activeScope: active, scopes: active === null ? [] : [active] };
    const drivenBy = this.frameActors(active?.workScopeId ?? null);
    const page = workHistoryPage(this.historyPageSource(drivenBy), 0, WORK_HISTORY_FIRST_PAGE);
    return { ...describeWorkState(openOnly, drivenBy), history: page.entries, historyNextCursor: page.nextCursor };
  }

  /** Older History entries from a cursor the Work view was given (newest first). */
  workHistoryPage(cursor: string, pageSize: number): WorkHistoryPage {
    this.ensureLoaded();
    const source = this.historyPageSource(this.frameActors(null));
    return workHistoryPage(source, cursorStart(cursor, source.revision), pageSize);
  }

  private historyPageSource(drivenBy: FrameActor): HistoryPageSource {
    const replayer = this.store.replayer;
    return { listings: replayer.scopeListings(), stateOf: (workScopeId) => replayer.scope(workScopeId), drivenBy, revision: this.revision() };
  }

  /** Who opened each frame of the active scope: its opening event, looked up in Docket's provenance records; any other frame's is unknown. */
  private frameActors(activeScopeId: string | null): FrameActor {
    if (activeScopeId === null) return () => null;
    const openedBy = this.framesOpenedIn(activeScopeId);
    const provenance = readProvenance(this.options.workspaceFolder);
    return (frameId) => {
      const eventSha256 = openedBy.get(frameId);
      return eventSha256 === undefined ? null : (provenance.get(eventSha256)?.actor ?? null);
    };
  }

  /**
   * What a write's checks and batch start from: the verified snapshot while the store has not
   * read the ledger, else the caught-up store.
   */
  private currentView(): WriteView {
    if (!this.loaded) {
      const view = readSnapshotView(this.store.root, this.store.ledgerPath);
      if (view !== null) return view;
    }
    this.refresh();
    return this.storeView();
  }

  private storeView(): WriteView {
    return { history: this.storeHistory(), lineCount: this.store.lineCount, headLineSha256: this.store.headLineSha256 };
  }

  /** A rewritten ledger (a new store generation) starts a new projection. */
  private syncGeneration(): void {
    if (this.store.generation !== this.projectionGeneration) {
      this.projectionState = new ReceiptProjection();
      this.projectionGeneration = this.store.generation;
    }
  }

  private syncProjection(): void {
    this.syncGeneration();
    this.projectionState.follow(this.store.replayer);
  }

  history(): HistoryView {
    this.ensureLoaded();
    return this.storeHistory();
  }

  private storeHistory(): HistoryView {
    const history = describeHistory(this.store.replayer);
    const fault = this.store.fault;
    if (fault === null) return history;
    return { ...history, mode: "blocked", blockedReason: `ledger line ${fault.line + 1}: ${fault.code}: ${fault.message}`, activeScope: null };
  }

  health(): LedgerHealth {
    this.ensureLoaded();
    return ledgerHealth(this.store);
  }

  lineOfReplayIndex(index: number): number | null {
    this.ensureLoaded();
    return lineOfReplayIndex(this.store, index);
  }

  status(): Status {
    this.ensureLoaded();
    return historyStatus({
      workspaceFolder: this.options.workspaceFolder,
      trusted: this.options.trusted,
      history: this.history(),
      health: this.health(),
      revision: this.revision(),
      projection: this.projectionState,
      source: { kind: "workspace" },
    });
  }

  private revision(): string {
    return statusRevision({ headLineSha256: this.store.headLineSha256, lines: this.store.lineCount, tornTailBytes: this.store.tornTail, fault: this.store.fault?.code ?? null });
  }

  /**
   * The replay-current tool policy (what an agent may do right now). An active authorization counts
   * only when a Docket writer on this machine anchored it for this very ledger file — the rule the
   * hooks apply (server/hooks/allowProof.ts), so `docket status` never says "allow" where the gate denies.
   */
  policy(): ToolPolicyResult {
    // Before any full read, the checkpoint answers where it proves what a replay would say.
    if (!this.loaded) {
      const fromCheckpoint = checkpointPolicy(this.options.workspaceFolder, this.store.ledgerPath);
      if (fromCheckpoint !== null) return fromCheckpoint;
    }
    const history = this.history();
    const policy = historyPolicy(history);
    // §9.2 says a blocked history governs nothing; Docket's hooks fail closed on it instead (an
    // agent that damaged the ledger must not get its tools back), and the policy says so too.
    if (history.mode === "blocked") {
      return {
        ...policy,
        shell: "deny",
        edit: "deny",
        reason: `The ledger cannot be trusted (${history.blockedReason ?? "its history is blocked"}), so Docket's hooks deny shell, edit and unknown tools. Run \`docket ledger verify\` and restore the ledger or move it aside.`,
      };
    }
    if (policy.shell === "deny" || !runtimeFacts(history).authorizationActive || this.authorizationAnchoredHere()) return policy;
    return {
      ...policy,
      shell: "deny",
      edit: "deny",
      reason:
        "This ledger's change authorization was not recorded by Docket on this machine for this file (its head anchor is missing, belongs to another copy, or ends before the authorization). If you trust the ledger, check it with `docket ledger verify` and adopt it with `docket ledger anchor`.",
    };
  }

  /**
   * The tool policy and the purpose `open_judgment` must echo, as an agent is told after every
   * call: from the verified checkpoint while this ledger has not read the file (no replay), else
   * caught up with the file.
   */
  agentPolicy(): { policy: ToolPolicyResult; purpose: WorkState["purpose"] } {
    if (!this.loaded) {
      const answer = checkpointAnswer(this.options.workspaceFolder, this.store.ledgerPath);
      if (answer !== null) return { policy: answer.policy, purpose: answer.state.purpose };
    }
    this.refresh();
    return { policy: this.policy(), purpose: this.workState().purpose };
  }

  /** The active scope's landings now (what a landing's result shows), without a replay when the snapshot answers. */
  landingsNow(): WorkState["landings"] {
    return describeWorkState(this.currentView().history).landings;
  }

  /** The active authorization's event lies within a head anchor bound to this ledger file. */
  private authorizationAnchoredHere(): boolean {
    const vouched = this.store.vouchedBytes;
    const replayer = this.store.replayer;
    const ordinal = replayer.lastOrdinalOfKind("change-authorized");
    const storedIndex = ordinal === undefined ? undefined : replayer.storedIndexOf(ordinal);
    if (storedIndex === undefined) return false;
    const line = this.lineOfReplayIndex(storedIndex);
    const record = line === null ? undefined : this.store.lineRecord(line);
    return record !== undefined && record.offset + record.length <= vouched;
  }

  /** What the Work view shows: frames, authorization, landings and debts of the active scope. */
  workState(): WorkState {
    const history = this.history();
    return describeWorkState(history, this.frameActors(history.activeScope?.workScopeId ?? null));
  }

  /**
   * The event that opened each frame of an open scope (frameId → eventSha256), read from the
   * ledger once per frame-opening event and remembered: only those events of the scope are read.
   */
  private framesOpenedIn(workScopeId: string): Map<string, string> {
    const replayer = this.store.replayer;
    if (this.frameOpenings.generation !== this.store.generation) this.frameOpenings = { generation: this.store.generation, byOrdinal: new Map() };
    const remembered = this.frameOpenings.byOrdinal;
    const openedBy = new Map<string, string>();
    for (const ordinal of replayer.openScopeOrdinals(workScopeId) ?? []) {
      if (replayer.kindOf(ordinal) !== "route-frame-opened") continue;
      let frameId = remembered.get(ordinal);
      if (frameId === undefined) {
        const frame = ((replayer.acceptedEvent(ordinal) as AcceptedEvent).envelope.payload as { frame?: { frameId?: unknown } }).frame;
        frameId = typeof frame?.frameId === "string" ? frame.frameId : null;
        remembered.set(ordinal, frameId);
      }
      if (frameId !== null && !openedBy.has(frameId)) openedBy.set(frameId, replayer.eventSha256Of(ordinal));
    }
    return openedBy;
  }

  /**
   * The "before" side of a landed path: the file at the HEAD its authorization baseline recorded.
   * A path that was already modified before the authorization has no recoverable before-image.
   */
  async landingBaseline(landingId: string, relativePath: string): Promise<LandingBaseline> {
    const history = this.history();
    // The first scope (by id) that landed it, found without rebuilding every closed scope's records.
    const landedIn = this.store.replayer.scopesWithLanding(landingId)[0];
    const scope = history.scopes.find((entry) => entry.workScopeId === landedIn);
    const landing = scope?.root.landings.find((entry) => entry.landingId === landingId);
    if (scope === undefined || landing === undefined) {
      throw new DocketError(ErrorCodes.unknownLanding, `No accepted landing ${landingId} is in the ledger.`);
    }
    if (!landing.changedPaths.includes(relativePath)) {
      throw new DocketError(ErrorCodes.invalidParams, `Landing ${landingId} did not change ${relativePath}.`);
    }
    const absolutePath = path.join(this.options.workspaceFolder, ...relativePath.split("/"));
    const unavailable = (note: string): LandingBaseline => ({ path: relativePath, absolutePath, source: "unavailable", content: null, note });
    const baseline = await this.loadSnapshot({ workScopeId: scope.workScopeId, role: "authorization", authorizationId: landing.authorizationId });
    if (baseline === null) return unavailable("The workspace baseline of this change is no longer stored.");
    if (baseline.kind !== "git") return unavailable(`The workspace was not observed through Git: ${baseline.reason}`);
    if (baseline.dirty.some((entry) => entry.path === relativePath)) {
      return unavailable("This file already had uncommitted changes before the change was authorized; Docket keeps only its hash.");
    }
    if (baseline.head === null) return { path: relativePath, absolutePath, source: "absent", content: "", note: null };
    try {
      const file = await readFileAtCommit(baseline.root, baseline.cwd, baseline.head, relativePath);
      if (file.kind === "absent") return { path: relativePath, absolutePath, source: "absent", content: "", note: null };
      if (file.kind === "too-large") return unavailable(`The file had ${file.size} bytes before the change; too large to show.`);
      return { path: relativePath, absolutePath, source: "git-head", content: file.bytes.toString("utf8"), note: null };
    } catch (error) {
      return unavailable(`Git could not read the file at ${baseline.head}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private requireTrusted(): void {
    if (!this.options.trusted) {
      throw new DocketError(ErrorCodes.untrusted, "This workspace is not trusted, so Docket shows its state read-only and writes nothing.");
    }
  }

  private serialize<T>(action: () => Promise<T>): Promise<T> {
    const run = this.writeQueue.then(action, action);
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  async turnOn(): Promise<ResultSummary> {
    // The clock is read once per operation: a batch built again after the snapshot could not be
    // proven is the same batch.
    const occurredAt = this.clock.now();
    // Drawn once too: a batch rebuilt after catching up keeps its nonce (the id still follows the
    // position it finally opens at).
    const nonce = (this.options.scopeNonce ?? systemScopeNonce)();
    const summary = await this.write((view) => {
      const result = turnOnBatch(view.history, { lineCount: view.lineCount, headLineSha256: view.headLineSha256 }, occurredAt, nonce);
      return { drafts: result.drafts, context: result.workScopeId };
    }, "turning Docket on");
    // The scope baseline is what "unchanged before authorization" is measured against (§6.3).
    // The scope is already on the ledger, so a failed capture must not report the turn-on as
    // failed: authorizeChange captures the baseline on first use when it is missing, and reports
    // a corrupt one as docket.baseline-missing.
    if (summary.workScopeId !== null) await this.inForceBaseline({ workScopeId: summary.workScopeId, role: "scope" }).catch(() => undefined);
    return summary;
  }

  /** Snapshot of the workspace without Docket's own files, which change on every append. */
  private snapshot(): Promise<WorkspaceSnapshot> {
    const folder = this.options.workspaceFolder;
    return takeWorkspaceSnapshot(folder, {
      excludedPaths: [path.dirname(this.options.ledgerPath), path.join(folder, ".docket")],
    });
  }

  private async loadSnapshot(key: BaselineKey): Promise<WorkspaceSnapshot | null> {
    const loaded = await loadBaseline(this.options.workspaceFolder, key);
    if (loaded.ok) return loaded.baseline.snapshot;
    if (loaded.problem === "missing") return null;
    throw new DocketError(ErrorCodes.baselineMissing, `The ${key.role} baseline cannot be used (${loaded.problem}): ${loaded.message}`);
  }

  /**
   * The persisted baseline in force (inForceBaselineKey), captured now if this is the first time
   * any process needs it (§6.3 "first seen"); persisted so a restarted backend measures against
   * the same state.
   */
  private async inForceBaseline(key: BaselineKey): Promise<WorkspaceSnapshot> {
    const existing = await this.loadSnapshot(key);
    if (existing !== null) return existing;
    const snapshot = await this.snapshot();
    await saveBaseline(this.options.workspaceFolder, { ...key, snapshot });
    return snapshot;
  }

  /**
   * The bundled skills, read again for every operation so an edited skill is noticed. When
   * `required` is false a catalogue that cannot be loaded is simply absent (zero-owner paths
   * work without it); the builders refuse owner work without one.
   */
  private async skillCatalog(required: boolean): Promise<SkillCatalog | undefined> {
    try {
      return await loadSkillCatalog(this.options.packageRoot ?? findPackageRoot());
    } catch (error) {
      if (!required) return undefined;
      throw new DocketError(ErrorCodes.internal, `Docket's bundled skills cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  openJudgment(raw: OpenJudgmentInput): Promise<OpenJudgmentResult> {
    return this.serialize(async () => {
      this.requireTrusted();
      const input = redactPersistedInput(raw).value;
      const catalog = await this.skillCatalog(input.ownerSkill !== undefined);
      let extras: Pick<OpenJudgmentResult, "routeSign" | "owner" | "contextSources"> = { routeSign: "", owner: null, contextSources: [] };
      const occurredAt = this.clock.now();
      const summary = await this.writeUnqueued((view) => {
        const result = openJudgmentBatch(view.history, input, occurredAt, catalog);
        extras = { routeSign: result.routeSign, owner: result.owner, contextSources: [...result.contextSources] };
        return { drafts: result.drafts, context: result.workScopeId };
      }, "opening a judgment");
      return { ...summary, ...extras };
    });
  }

  /** A captured tool result, for reading what a conclusion nominated (reads only). */
  showEvidence(branchResultId: string): CapturedEvidence {
    const record = this.evidence.toolResult(branchResultId);
    if (record === undefined) {
      throw new DocketError(ErrorCodes.unknownEvidenceHandle, `${branchResultId} is not a captured tool result in this workspace (it may have been rotated out).`);
    }
    const text = record.parts
      .map((part) => (part.kind === "text" ? part.text : `[${part.kind} ${part.mediaType}, sha256 ${part.contentSha256}]`))
      .join("\n\n");
    return { branchResultId, toolName: record.toolName, isError: record.isError, truncated: record.truncated, text };
  }

  /** The bundled skills and their relation to the open frame (read-only; nothing is written). */
  async skills(): Promise<SkillsResult> {
    const catalog = await this.skillCatalog(true);
    if (catalog === undefined) throw new DocketError(ErrorCodes.internal, "Docket's bundled skills cannot be loaded.");
    return describeSkills(this.currentView().history, catalog);
  }

  /** Opens bundled skills as material of the open frame; ids already open are reported, not rewritten. */
  openContextSources(input: OpenContextSourcesInput): Promise<OpenContextSourcesResult> {
    return this.serialize(async () => {
      this.requireTrusted();
      const catalog = await this.skillCatalog(true);
      if (catalog === undefined) throw new DocketError(ErrorCodes.internal, "Docket's bundled skills cannot be loaded.");
      const occurredAt = this.clock.now();
      const current = this.currentView().history;
      const planned = openContextSourcesBatch(current, input, catalog, occurredAt);
      if (planned.drafts.length === 0) {
        return { ...resultSummary(current, null, []), opened: [], skipped: planned.skipped };
      }
      let extras: Pick<OpenContextSourcesResult, "opened" | "skipped"> = { opened: [], skipped: [] };
      const summary = await this.writeUnqueued((view) => {
        const result = openContextSourcesBatch(view.history, input, catalog, occurredAt);
        extras = { opened: result.opened, skipped: result.skipped };
        return { drafts: result.drafts, context: result.workScopeId };
      }, "opening context sources");
      return { ...summary, ...extras };
    });
  }

  /** With Judgment-engine fields the engine runs first (it reads nominated files), then the batch is built. */
  concludeJudgment(raw: ConcludeJudgmentInput): Promise<ResultSummary> {
    return this.serialize(async () => {
      this.requireTrusted();
      const input = redactPersistedInput(raw).value;
      const current = this.currentView().history;
      const engine = input.disposition === "judgment" && usesJudgmentEngine(input);
      const catalog = await this.skillCatalog(engine);
      let prepared: PreparedJudgment | undefined;
      if (engine && catalog !== undefined) prepared = await prepareJudgment(current, input, catalog, this.evidence);
      const occurredAt = this.clock.now();
      return this.writeUnqueued((view) => {
        const result = concludeJudgmentBatch(view.history, input, occurredAt, {
          ...(catalog === undefined ? {} : { catalog }),
          ...(prepared === undefined ? {} : { prepared }),
        });
        return { drafts: result.drafts, context: result.workScopeId };
      }, "concluding a judgment", nominatedEvidence(input));
    });
  }

  /**
   * Authorizes from the latest concluded frame after checking that the workspace still equals the
   * scope baseline; the snapshot taken now is persisted as the authorization baseline so the
   * landing (maybe from a restarted backend or another process) can compute the delta.
   */
  authorizeChange(raw: { movement: string; stableLanding: string; verificationTarget: string }): Promise<ResultSummary> {
    return this.serialize(async () => {
      this.requireTrusted();
      const input = redactPersistedInput(raw).value;
      const history = this.currentView().history;
      const scope = requireActiveScope(history);
      // One time for the pre-check and the write, so the clock is read once per operation.
      const occurredAt = this.clock.now();
      // Refuse illegal calls before touching Git (nothing is written either way).
      authorizeChangeBatch(history, input, occurredAt);
      const inForce = inForceBaselineKey(scope.workScopeId, scope.root.landings.at(-1)?.authorizationId ?? null);
      const baseline = await this.inForceBaseline(inForce).catch((error: unknown) => {
        throw error instanceof DocketError ? error : new DocketError(ErrorCodes.baselineMissing, `The scope baseline could not be captured: ${error instanceof Error ? error.message : String(error)}`);
      });
      const current = await this.snapshot();
      const check = checkAuthorization(baseline, current);
      if (!check.ok) throw refusalError(check);
      return this.writeUnqueued((view) => {
        const result = authorizeChangeBatch(view.history, input, occurredAt);
        // Saved under the lock before the authorization is appended: a crash in between leaves an
        // unused baseline file, never an authorization whose landing cannot be reconciled.
        this.saveBaselineBeforeAppend({ workScopeId: scope.workScopeId, role: "authorization", authorizationId: result.authorization.authorizationId, snapshot: current });
        return { drafts: result.drafts, context: result.workScopeId };
      }, "authorizing a change");
    });
  }

  /** A baseline a batch depends on, saved under the ledger lock before the batch; a failure refuses the batch. */
  private saveBaselineBeforeAppend(baseline: Parameters<typeof saveBaselineSync>[1]): void {
    try {
      saveBaselineSync(this.options.workspaceFolder, baseline);
    } catch (error) {
      const coded = toDocketError(error);
      if (coded.code === ErrorCodes.unsafePath) throw coded;
      throw new DocketError(ErrorCodes.baselineMissing, `The workspace baseline could not be saved, so nothing was written: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Records the landing of the active authorization with the paths Git observed since it. */
  recordLanding(raw: { changedPaths?: readonly string[]; result: string; verification: readonly string[] }): Promise<ResultSummary> {
    return this.serialize(async () => {
      this.requireTrusted();
      const input = redactPersistedInput(raw).value;
      const { scope, authorization } = activeAuthorizationOf(this.currentView().history);
      // An authorization baseline lost after its authorization (removed, or left unsaved by an
      // older Docket) falls back to the baseline that was in force when it was authorized: the
      // workspace had to equal it then, so Git observes the same delta. It is never the file this
      // landing saves (a landing has its own), so a failed attempt cannot hide a path. With both
      // gone the landing is refused: declared paths are never trusted where Git observes.
      const baseline =
        (await this.loadSnapshot({ workScopeId: scope.workScopeId, role: "authorization", authorizationId: authorization.authorizationId })) ??
        (await this.loadSnapshot(inForceBaselineKey(scope.workScopeId, scope.root.landings.at(-1)?.authorizationId ?? null)));
      if (baseline === null) {
        throw new DocketError(
          ErrorCodes.baselineMissing,
          `No workspace baseline was saved for authorization ${authorization.authorizationId} or the state it was authorized from, so Docket cannot tell which paths it changed; restore .docket/baselines/ from a copy.`,
        );
      }
      const current = await this.snapshot();
      const reconciled = reconcileLanding(workspaceDelta(baseline, current), input.changedPaths);
      if (!reconciled.ok) throw refusalError(reconciled);
      const occurredAt = this.clock.now();
      return this.writeUnqueued((view) => {
        const result = recordLandingBatch(view.history, {
            changedPaths: reconciled.changedPaths,
            result: input.result,
            verification: input.verification,
            expectedAuthorizationId: authorization.authorizationId,
          }, occurredAt);
        // §6.3: the post-landing state is the baseline of the next authorization. Saved under the
        // lock before the landing is appended, as its own file (inForceBaselineKey): it is in force
        // only once the landing is on the ledger, so a crash can neither strand a stale baseline
        // nor leave one that a retried landing would read.
        this.saveBaselineBeforeAppend({ workScopeId: scope.workScopeId, role: "landing", authorizationId: authorization.authorizationId, snapshot: current });
        return { drafts: result.drafts, context: result.workScopeId };
      }, "recording a landing");
    });
  }

  turnOff(rawReason?: string): Promise<ResultSummary> {
    const reason = rawReason === undefined ? undefined : redactPersistedInput(rawReason).value;
    const occurredAt = this.clock.now();
    return this.write((view) => {
      const result = turnOffBatch(view.history, reason, occurredAt);
      return { drafts: result.drafts, context: result.workScopeId };
    }, "turning Docket off");
  }

  /** Captured evidence handles (what a review may seal as a source). */
  get evidenceLookup(): EvidenceLookup {
    return this.evidence;
  }

  now(): string {
    return this.clock.now();
  }

  /**
   * Appends completion-guard entries (`docket/guard/v1`) through the same queue, lock, preflight
   * and checkpoint as every other write. `build` runs under the lock against the caught-up store
   * and may throw to refuse; `afterAppend` runs under the lock once the lines are committed.
   */
  appendGuard<T>(
    build: (store: LedgerStore, history: HistoryView) => { entries: GuardEntry[]; context: T },
    purpose: string,
    afterAppend?: (store: LedgerStore, context: T) => void,
  ): Promise<T> {
    return this.appendStreams(
      (store, history) => {
        const { entries, context } = build(store, history);
        return { guardEntries: entries, context };
      },
      purpose,
      afterAppend,
    );
  }

  /**
   * Appends Observer entries (`observer/v1`) the same way. `build` sees the caught-up Observer
   * stream (store.observerLines) under the lock, so what it proves by replay is what is appended.
   */
  appendObserver<T>(
    build: (store: LedgerStore) => { entries: readonly ObserverLedgerEntry[]; context: T },
    purpose: string,
    afterAppend?: (store: LedgerStore, context: T) => void,
  ): Promise<T> {
    return this.appendStreams(
      (store) => {
        const { entries, context } = build(store);
        return { observerEntries: entries, context };
      },
      purpose,
      afterAppend,
    );
  }

  /** Reads the caught-up store under the queue (no lock): what the Observer view and status show. */
  readCaughtUp<T>(read: (store: LedgerStore) => T): Promise<T> {
    return this.serialize(async () => {
      this.refresh();
      return read(this.store);
    });
  }

  private appendStreams<T>(
    build: (store: LedgerStore, history: HistoryView) => { guardEntries?: readonly GuardEntry[]; observerEntries?: readonly ObserverLedgerEntry[]; context: T },
    purpose: string,
    afterAppend?: (store: LedgerStore, context: T) => void,
  ): Promise<T> {
    return this.serialize(async () => {
      this.requireTrusted();
      if (!this.sweptTemporaries && this.options.workspaceFolder !== "") {
        this.sweptTemporaries = true;
        sweepStateTemporaries(this.options.workspaceFolder);
      }
      let built: T | undefined;
      try {
        // Guard and Observer batches are proven against their own streams, which only a full read holds.
        this.loaded = true;
        const result = await this.store.append(
          (store) => {
            const { guardEntries, observerEntries, context } = build(store, this.storeHistory());
            built = context;
            return { drafts: [], context, guardEntries, observerEntries };
          },
          {
            purpose,
            lockTimeoutMs: this.options.lockTimeoutMs,
            afterAppend: (store) => {
              writeCheckpoint(store);
              if (afterAppend !== undefined && built !== undefined) afterAppend(store, built);
            },
          },
        );
        this.syncProjection();
        return result.context;
      } catch (error) {
        this.syncProjection();
        throw toDocketError(error);
      }
    });
  }

  private write(build: BatchBuild, purpose: string): Promise<ResultSummary> {
    return this.serialize(async () => {
      this.requireTrusted();
      return this.writeUnqueued(build, purpose);
    });
  }

  /** Appends under the ledger lock with preflight; the caller already holds the write queue. */
  private async writeUnqueued(build: BatchBuild, purpose: string, nominations: readonly string[] = []): Promise<ResultSummary> {
    if (!this.sweptTemporaries && this.options.workspaceFolder !== "") {
      this.sweptTemporaries = true;
      sweepStateTemporaries(this.options.workspaceFolder);
    }
    let fromSnapshot: HistoryView | null = null;
    try {
      // The hook checkpoint is refreshed under the lock so hooks answer without a replay (docs/hooks.md).
      const result = await this.store.append(() => build(this.storeView()), {
        purpose,
        lockTimeoutMs: this.options.lockTimeoutMs,
        afterAppend: writeCheckpoint,
        fromSnapshot: this.loaded
          ? undefined
          : (sweep) => {
              const written = appendFromSnapshot(this.store.root, this.store.ledgerPath, build, sweep);
              // Not proven: the store reads the whole ledger next, under this lock, and writes.
              if (written === null) this.loaded = true;
              else fromSnapshot = written.history;
              return written;
            },
      });
      if (this.loaded) this.syncProjection();
      this.recordActor(result.envelopes.map((envelope) => envelope.eventSha256), nominations);
      return resultSummary(fromSnapshot ?? this.storeHistory(), result.context, result.envelopes.map((envelope) => envelope.eventId));
    } catch (error) {
      if (this.loaded) this.syncProjection();
      throw toDocketError(error);
    }
  }

  /** Best effort: the batch is on the ledger either way, and provenance is informative only. */
  private recordActor(eventSha256s: readonly string[], nominations: readonly string[]): void {
    const option = this.options.actor;
    if (option === undefined || eventSha256s.length === 0) return;
    const actor = typeof option === "function" ? option() : option;
    try {
      recordProvenance(this.options.workspaceFolder, { eventSha256s: [...eventSha256s], actor, nominations: [...nominations] });
    } catch {
      // An unwritable .docket/ shows as "driven by: unknown" in the views.
    }
  }

  receiptsPage(
    cursor: string | null,
    pageSize: number,
    from: "start" | "end" = "start",
    filter: Pick<ReceiptPageQuery, "kinds" | "containing"> = {},
  ): ReceiptsPage {
    // Before the whole history is read, the newest pages come from the persisted receipt head
    // where it proves them (receiptWindow.ts); anything else waits for the replay.
    if (!this.loaded) {
      const early = receiptsPageFromHead(this.store.root, this.store.ledgerPath, { cursor, pageSize, from, ...filter });
      if (early !== null) return early;
    }
    this.ensureLoaded();
    const page = historyReceiptsPage(this.projectionState, cursor, pageSize, from, filter);
    if (this.options.trusted) persistReceiptHead(this.store, this.projectionState);
    return page;
  }

  receiptDetail(eventSha256: string): ReceiptDetail {
    this.ensureLoaded();
    const detail = readReceiptDetail(this.projectionState, eventSha256);
    const record = readProvenance(this.options.workspaceFolder).get(eventSha256);
    return record === undefined ? detail : { ...detail, provenance: { actor: record.actor, nominations: [...record.nominations] } };
  }
}
