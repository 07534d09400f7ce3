// The five developer/v8 operations as palette commands, so a person can drive a whole cycle
// without an agent: each asks for its inputs step by step (or takes ready params from a caller),
// sends one backend request, and says what was recorded and what comes next. The backend decides
// legality and builds the events; these commands only collect text and show answers.
import * as vscode from "vscode";
import {
  ErrorCodes,
  Requests,
  type AuthorizeChangeParams,
  type ConcludeJudgmentParams,
  type OpenContextSourcesParams,
  type OpenJudgmentParams,
  type OpenJudgmentResult,
  type SkillsResult,
  type RecordLandingParams,
  type WorkFrame,
  type ProtocolOperationName,
  type WorkState,
  type WriteResult,
} from "../server/protocol/messages";
import type { Backend } from "./backend";
import { DocketError } from "./errors";
import { showMethod } from "./methodDocuments";
import { askList, askText, InputCancelled, pickOne, type Step } from "./inputFlow";
import { phaseLabel } from "./strings";
import { nextSentence, notLegalMessage, obligationsOpened, routeItems, VERIFICATION_ROUTE_ID } from "./operationGuidance";

export const OperationCommandIds = {
  openJudgment: "docket.openJudgment",
  concludeJudgment: "docket.concludeJudgment",
  authorizeChange: "docket.authorizeChange",
  recordLanding: "docket.recordLanding",
  nextStep: "docket.nextStep",
  openLandingDiff: "docket.openLandingDiff",
  openContextSources: "docket.openContextSources",
} as const;

/** The backend opens at most this many context sources per call (developer/v8 §3.3 b). */
const MAX_CONTEXT_SOURCES = 4;

/** URI scheme of the read-only "before" side of a landing diff. */
export const BASELINE_SCHEME = "docket-baseline";

type Register = <A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>) => vscode.Disposable;

interface Dependencies {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  readonly register: Register;
  readonly requireWritableWorkspace: () => void;
  readonly refreshStatus: () => Promise<unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function purposeLabel(purpose: WorkState["purpose"]): string {
  switch (purpose) {
    case "reroute-decision":
      return vscode.l10n.t("reroute decision");
    case "verification-decision":
      return vscode.l10n.t("verification decision");
    case "work-decision":
      return vscode.l10n.t("work decision");
    case null:
      return vscode.l10n.t("none");
  }
}

function openFrame(state: WorkState): WorkFrame | undefined {
  return state.frames.find((frame) => frame.status === "open");
}

export function registerOperationCommands({ backend, log, register, requireWritableWorkspace, refreshStatus }: Dependencies): vscode.Disposable[] {
  async function workState(): Promise<WorkState> {
    return backend.request(Requests.workState, {});
  }

  async function announce(summary: string, result: WriteResult): Promise<void> {
    log.info(`${summary}; events: ${result.eventIds.join(", ") || "(none)"}; next: ${result.nextAction ?? "(none)"}`);
    const phase = (await workState()).phase;
    void vscode.window.showInformationMessage(`${summary} ${nextSentence(result, phase)}`);
  }

  /**
   * The state, once the backend says `operation` is legal in it; otherwise the refusal, before a
   * single prompt is shown (the runner offers Next Step… beside it).
   */
  async function requireLegal(operation: ProtocolOperationName): Promise<WorkState> {
    const state = await workState();
    if (!state.legalOperations.includes(operation)) throw new DocketError(ErrorCodes.operationNotLegal, notLegalMessage(operation, state));
    return state;
  }

  /**
   * What a person typed for a command the backend then refused, offered again next time so a
   * refusal never costs the typing; cleared when the command succeeds.
   */
  const drafts = new Map<string, Record<string, unknown>>();
  function draftOf(commandId: string): Record<string, unknown> {
    return drafts.get(commandId) ?? {};
  }
  /** The write in flight: Next Step waits for it, so a quick second step never sees the state before it. */
  let writing: Promise<void> = Promise.resolve();
  async function sendKeepingDraft<T>(commandId: string, params: object, send: () => PromiseLike<T>): Promise<T> {
    const sent = Promise.resolve(send());
    writing = sent.then(
      () => undefined,
      () => undefined,
    );
    try {
      const result = await sent;
      drafts.delete(commandId);
      return result;
    } catch (error) {
      drafts.set(commandId, { ...params });
      throw error;
    }
  }
  function draftText(commandId: string, key: string): string | undefined {
    const value = draftOf(commandId)[key];
    return typeof value === "string" ? value : undefined;
  }

  async function skills(): Promise<SkillsResult["skills"]> {
    return (await backend.request(Requests.skills, {})).skills;
  }

  async function openJudgmentInputs(state: WorkState): Promise<OpenJudgmentParams> {
    const id = OperationCommandIds.openJudgment;
    const draft = draftOf(id);
    const verification = state.purpose === "verification-decision";
    const reroute = state.purpose === "reroute-decision";
    // A verification judgment always takes the claim–evidence route: the title says so instead of asking.
    const title = verification
      ? vscode.l10n.t("Docket: Open Judgment — {0} (claim–evidence route)", purposeLabel(state.purpose))
      : vscode.l10n.t("Docket: Open Judgment — {0}", purposeLabel(state.purpose));
    // The owner is chosen first (uncounted): it decides how many steps follow, so the count never changes.
    const owner = await pickOne({ title, step: 0, totalSteps: 0 }, vscode.l10n.t("Does a bundled Skill own this judgment? (most judgments: no)"), [
      { label: `$(circle-slash) ${vscode.l10n.t("No owning Skill")}`, description: vscode.l10n.t("Recommended"), detail: vscode.l10n.t("Docket records the judgment itself (no routing, assignment or invocation)."), skillName: null },
      ...(await skills()).map((skill) => ({ label: `$(tools) ${skill.skillName}`, detail: skill.description, skillName: skill.skillName })),
    ]);
    const total = (verification ? 0 : 1) + 2 + (owner.skillName === null ? 0 : 2);
    let step = 1;
    const next = (): Step => ({ title, step: step++, totalSteps: total });
    let routeDefinitionId = VERIFICATION_ROUTE_ID;
    if (!verification) {
      const route = await pickOne(next(), reroute ? vscode.l10n.t("Which kind of judgment is the reroute? (the recommended route is first)") : vscode.l10n.t("Which kind of judgment is this?"), routeItems(state.purpose));
      routeDefinitionId = route.routeDefinitionId;
    }
    const landing = state.landings.at(-1);
    const questionExample = verification
      ? vscode.l10n.t("e.g. Does the landed change do what was authorized: {0}?", landing?.result ?? vscode.l10n.t("the last landing"))
      : reroute
        ? vscode.l10n.t("e.g. After “{0}”, does the work need to change course?", landing?.result ?? vscode.l10n.t("the last landing"))
        : vscode.l10n.t("e.g. Should the parser accept trailing commas?");
    const question = await askText(next(), vscode.l10n.t("The exact question this judgment must answer"), { placeHolder: questionExample, value: draftText(id, "question") });
    const previousObligations = Array.isArray(draft.obligations) ? (draft.obligations as Array<{ statement: string }>).map((obligation) => obligation.statement) : undefined;
    const statements = await askList(next(), vscode.l10n.t("What must be settled before concluding (an obligation), in your words"), {
      min: 1,
      max: 100,
      placeHolder: vscode.l10n.t("e.g. The answer is backed by a test or an observed result"),
      initial: previousObligations,
    });
    const params: OpenJudgmentParams = {
      purpose: state.purpose ?? undefined,
      routeDefinitionId,
      question,
      obligations: statements.map((statement, index) => ({ obligationId: `obligation-${String(index + 1).padStart(3, "0")}`, statement })),
    };
    if (owner.skillName === null) return params;
    const subquestion = await askText(next(), vscode.l10n.t("What {0} is asked to answer (subquestion, free text)", owner.skillName), {
      placeHolder: vscode.l10n.t("e.g. For “{0}”: which option does the method favour, and why?", question),
    });
    const expectedContribution = await askText(next(), vscode.l10n.t("What {0} should contribute (free text)", owner.skillName), {
      placeHolder: vscode.l10n.t("e.g. A recommendation with the evidence it rests on"),
    });
    return { ...params, ownerSkill: { skillName: owner.skillName, subquestion, expectedContribution } };
  }

  async function contextSourceInputs(): Promise<OpenContextSourcesParams> {
    const available = (await skills()).filter((skill) => skill.role === "available");
    if (available.length === 0) {
      throw new DocketError(ErrorCodes.operationNotLegal, vscode.l10n.t("Every bundled skill is already open in this scope or owns the frame."));
    }
    const picked = await vscode.window.showQuickPick(
      available.map((skill) => ({ label: skill.skillName, detail: skill.description, inventorySourceId: skill.inventorySourceId })),
      {
        title: vscode.l10n.t("Docket: Open Context Sources"),
        placeHolder: vscode.l10n.t("Pick up to {0} skills whose method the open judgment should read", MAX_CONTEXT_SOURCES),
        canPickMany: true,
        ignoreFocusOut: true,
      },
    );
    if (picked === undefined || picked.length === 0) throw new InputCancelled();
    if (picked.length > MAX_CONTEXT_SOURCES) {
      throw new DocketError(ErrorCodes.invalidParams, vscode.l10n.t("Open at most {0} context sources at a time (picked {1}).", MAX_CONTEXT_SOURCES, picked.length));
    }
    return { inventorySourceIds: picked.map((item) => item.inventorySourceId) };
  }

  /** Offers the owner's method (its SKILL.md body) as a read-only Markdown document. */
  function offerMethod(result: OpenJudgmentResult): void {
    const owner = result.owner;
    if (owner === null) return;
    const show = vscode.l10n.t("Show Method");
    void vscode.window.showInformationMessage(vscode.l10n.t("{0} owns this judgment; its method is ready to read.", owner.skillName), show).then(async (choice) => {
      if (choice !== show) return;
      await showMethod(owner.skillName, owner.method);
    });
  }

  async function concludeInputs(state: WorkState): Promise<ConcludeJudgmentParams> {
    const id = OperationCommandIds.concludeJudgment;
    const frame = openFrame(state);
    const title = frame === undefined ? vscode.l10n.t("Docket: Conclude Judgment") : vscode.l10n.t("Docket: Conclude “{0}”", frame.question);
    // The ending is chosen first (uncounted): each ending has its own fixed number of steps.
    const disposition = await pickOne({ title, step: 0, totalSteps: 0 }, vscode.l10n.t("How does this judgment end?"), [
      {
        label: `$(pass) ${vscode.l10n.t("Contextual judgment")}`,
        description: vscode.l10n.t("Recommended when you have an answer"),
        detail: vscode.l10n.t("The obligations are settled: state the conclusion, why it applies and the evidence that stopped the search."),
        outcome: "contextual-judgment" as const,
      },
      {
        label: `$(circle-slash) ${vscode.l10n.t("Not applicable")}`,
        detail: vscode.l10n.t("The question does not apply here: give the reason and its basis."),
        outcome: "not-applicable" as const,
      },
      {
        label: `$(question) ${vscode.l10n.t("Needs evidence")}`,
        detail: vscode.l10n.t("More evidence is needed before anything can be concluded."),
        outcome: "needs-evidence" as const,
      },
    ]);
    const evidenceHint = vscode.l10n.t("e.g. test “greet trims names” passes, or an evidence handle such as branch-result-…");
    if (disposition.outcome === "not-applicable") {
      const reason = await askText({ title, step: 1, totalSteps: 2 }, vscode.l10n.t("Why the question does not apply"), { value: draftText(id, "reason") });
      const basis = await askList({ title, step: 2, totalSteps: 2 }, vscode.l10n.t("What shows it does not apply (basis: free text or an evidence handle)"), { min: 1, max: 32, placeHolder: evidenceHint });
      return { disposition: "not-applicable", reason, basis };
    }
    if (disposition.outcome === "needs-evidence") {
      const evidenceNeeded = await askList({ title, step: 1, totalSteps: 2 }, vscode.l10n.t("Evidence that is still needed"), { min: 1, max: 32, placeHolder: vscode.l10n.t("e.g. the output of the failing test") });
      const resolutionOwner = await askText({ title, step: 2, totalSteps: 2 }, vscode.l10n.t("Who will provide it"), { placeHolder: vscode.l10n.t("e.g. user") });
      return { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded, resolutionOwner } };
    }
    const question = frame?.question ?? "";
    const artifact = await askText({ title, step: 1, totalSteps: 3 }, vscode.l10n.t("The conclusion (what was decided)"), {
      placeHolder: vscode.l10n.t("e.g. the answer to “{0}” in one sentence", question),
      value: draftText(id, "artifact"),
    });
    const rationale = await askText({ title, step: 2, totalSteps: 3 }, vscode.l10n.t("Why it applies to this frame (rationale)"), { value: draftText(id, "rationale") });
    const stopEvidence = await askList({ title, step: 3, totalSteps: 3 }, vscode.l10n.t("Evidence that settles it (stop evidence: free text or an evidence handle)"), { min: 1, max: 32, placeHolder: evidenceHint });
    return { disposition: "judgment", outcome: { kind: "contextual-judgment", rationale, artifact, stopEvidence } };
  }

  async function authorizeInputs(): Promise<AuthorizeChangeParams> {
    const title = vscode.l10n.t("Docket: Authorize Change");
    const step = (n: number): Step => ({ title, step: n, totalSteps: 3 });
    const id = OperationCommandIds.authorizeChange;
    const movement = await askText(step(1), vscode.l10n.t("The change that is authorized (movement)"), { placeHolder: vscode.l10n.t("e.g. Accept trailing commas in the config parser"), value: draftText(id, "movement") });
    const stableLanding = await askText(step(2), vscode.l10n.t("What the workspace looks like when the change has landed"), {
      placeHolder: vscode.l10n.t("e.g. src/config.ts accepts trailing commas; nothing else changed"),
      value: draftText(id, "stableLanding"),
    });
    const verificationTarget = await askText(step(3), vscode.l10n.t("How the landing will be verified"), { placeHolder: vscode.l10n.t("e.g. npm test passes, including a new trailing-comma test"), value: draftText(id, "verificationTarget") });
    return { movement, stableLanding, verificationTarget };
  }

  async function landingInputs(): Promise<RecordLandingParams> {
    const title = vscode.l10n.t("Docket: Record Landing");
    const id = OperationCommandIds.recordLanding;
    const result = await askText({ title, step: 1, totalSteps: 2 }, vscode.l10n.t("What changed (result)"), { placeHolder: vscode.l10n.t("e.g. greet.ts now trims the name"), value: draftText(id, "result") });
    const previous = draftOf(id).verification;
    const verification = await askList({ title, step: 2, totalSteps: 2 }, vscode.l10n.t("Checks you ran (optional)"), {
      min: 0,
      max: 100,
      placeHolder: vscode.l10n.t("e.g. npm test: 12 passing"),
      initial: Array.isArray(previous) ? (previous as string[]) : undefined,
    });
    return { result, verification };
  }

  /** Ready params from a caller (tests, other extensions) skip the prompts; the backend validates them. */
  function given<T>(args: readonly unknown[]): T | undefined {
    return isRecord(args[0]) ? (args[0] as T) : undefined;
  }

  const commands: vscode.Disposable[] = [
    register(OperationCommandIds.openJudgment, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const params = given<OpenJudgmentParams>(args) ?? (await openJudgmentInputs(await requireLegal("open_judgment")));
      const result = await sendKeepingDraft(OperationCommandIds.openJudgment, params, () => backend.request(Requests.openJudgment, params));
      await refreshStatus();
      await announce(obligationsOpened(params.obligations.length), result);
      offerMethod(result);
      return result;
    }),

    register(OperationCommandIds.openContextSources, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const ready = given<OpenContextSourcesParams>(args);
      if (ready === undefined) await requireLegal("open_context_sources");
      const params = ready ?? (await contextSourceInputs());
      const result = await backend.request(Requests.openContextSources, params);
      await refreshStatus();
      const opened = result.opened.map((entry) => entry.skillName).join(", ");
      await announce(
        result.opened.length === 0 ? vscode.l10n.t("Context is already available; nothing was written.") : vscode.l10n.t("Opened as context: {0}", opened),
        result,
      );
      return result;
    }),

    register(OperationCommandIds.concludeJudgment, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const params = given<ConcludeJudgmentParams>(args) ?? (await concludeInputs(await requireLegal("conclude_judgment")));
      const result = await sendKeepingDraft(OperationCommandIds.concludeJudgment, params, () => backend.request(Requests.concludeJudgment, params));
      await refreshStatus();
      // An unresolved outcome is recorded but leaves the frame open.
      await announce(
        result.runtime.state === "frame"
          ? vscode.l10n.t("Recorded; the judgment is not concluded yet and its frame stays open.")
          : vscode.l10n.t("Judgment concluded."),
        result,
      );
      return result;
    }),

    register(OperationCommandIds.authorizeChange, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const ready = given<AuthorizeChangeParams>(args);
      if (ready === undefined) await requireLegal("authorize_change");
      const params = ready ?? (await authorizeInputs());
      const result = await sendKeepingDraft(OperationCommandIds.authorizeChange, params, () => backend.request(Requests.authorizeChange, params));
      await refreshStatus();
      await announce(vscode.l10n.t("Change authorized: {0}", params.movement), result);
      return result;
    }),

    register(OperationCommandIds.recordLanding, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const ready = given<RecordLandingParams>(args);
      if (ready === undefined) await requireLegal("record_landing");
      const params = ready ?? (await landingInputs());
      const result = await sendKeepingDraft(OperationCommandIds.recordLanding, params, () =>
        vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Reconciling the landing with Git…") }, () => backend.request(Requests.recordLanding, params)),
      );
      await refreshStatus();
      const landing = (await workState()).landings.at(-1);
      const paths = landing === undefined ? "" : landing.changedPaths.join(", ");
      await announce(vscode.l10n.t("Landing recorded: {0}", paths), result);
      return result;
    }),

    register(OperationCommandIds.nextStep, async () => {
      await writing;
      const state = await workState();
      switch (state.nextAction) {
        case "open_judgment":
          return vscode.commands.executeCommand(OperationCommandIds.openJudgment);
        case "open_context_sources":
        case "conclude_judgment":
          return vscode.commands.executeCommand(OperationCommandIds.concludeJudgment);
        case "authorize_change":
          return vscode.commands.executeCommand(OperationCommandIds.authorizeChange);
        case "record_landing":
          return vscode.commands.executeCommand(OperationCommandIds.recordLanding);
        case null:
          if (state.phase === "off") return vscode.commands.executeCommand("docket.turnOn");
          void vscode.window.showInformationMessage(vscode.l10n.t("Docket: {0}. No operation is due.", phaseLabel(state.phase)));
          return undefined;
      }
    }),

    register(OperationCommandIds.openLandingDiff, async (landingId: unknown, relativePath: unknown) => {
      if (typeof landingId !== "string" || typeof relativePath !== "string") return undefined;
      const baseline = await backend.request(Requests.landingBaseline, { landingId, path: relativePath });
      const current = vscode.Uri.file(baseline.absolutePath);
      if (baseline.source === "unavailable") {
        void vscode.window.showWarningMessage(vscode.l10n.t("No baseline to compare {0} with: {1}", relativePath, baseline.note ?? ""));
        await vscode.commands.executeCommand("vscode.open", current);
        return baseline;
      }
      const before = vscode.Uri.from({ scheme: BASELINE_SCHEME, path: `/${relativePath}`, query: new URLSearchParams({ landing: landingId }).toString() });
      baselines.set(before.toString(), baseline.content ?? "");
      changed.fire(before);
      await vscode.commands.executeCommand("vscode.diff", before, current, vscode.l10n.t("{0} (before the change ⇄ now)", relativePath));
      return baseline;
    }),
  ];

  // The "before" documents are read-only virtual documents holding what the backend answered.
  const baselines = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  commands.push(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(BASELINE_SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => baselines.get(uri.toString()) ?? "",
    }),
  );
  return commands;
}
