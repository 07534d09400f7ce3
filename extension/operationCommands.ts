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
  type WorkState,
  type WriteResult,
} from "../server/protocol/messages";
import { ROUTE_CATALOGUE } from "../server/developer/routes";
import type { Backend } from "./backend";
import { DocketError } from "./errors";
import { askList, askText, InputCancelled, pickOne, type Step } from "./inputFlow";
import { phaseLabel } from "./strings";

export const OperationCommandIds = {
  openJudgment: "docket.openJudgment",
  concludeJudgment: "docket.concludeJudgment",
  authorizeChange: "docket.authorizeChange",
  recordLanding: "docket.recordLanding",
  nextStep: "docket.nextStep",
  openLandingDiff: "docket.openLandingDiff",
  openContextSources: "docket.openContextSources",
} as const;

/** The backend's verification route: a verification judgment is opened on it and nothing else. */
const VERIFICATION_ROUTE_ID = "route:claim-evidence-assessment";

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

/** "next: …" in words, for result messages. */
function nextSentence(result: WriteResult): string {
  switch (result.nextAction) {
    case "open_judgment":
      return result.runtime.reroutePending
        ? vscode.l10n.t("Next: open the reroute judgment.")
        : result.runtime.verificationPending
          ? vscode.l10n.t("Next: open the verification judgment.")
          : vscode.l10n.t("Next: open a judgment.");
    case "open_context_sources":
    case "conclude_judgment":
      return vscode.l10n.t("Next: conclude the judgment.");
    case "authorize_change":
      return vscode.l10n.t("Next: authorize the change, or open another judgment.");
    case "record_landing":
      return vscode.l10n.t("Next: edit the files, then record the landing.");
    default:
      return vscode.l10n.t("Nothing else is due.");
  }
}

export function registerOperationCommands({ backend, log, register, requireWritableWorkspace, refreshStatus }: Dependencies): vscode.Disposable[] {
  async function workState(): Promise<WorkState> {
    return backend.request(Requests.workState, {});
  }

  function announce(summary: string, result: WriteResult): void {
    log.info(`${summary}; events: ${result.eventIds.join(", ") || "(none)"}; next: ${result.nextAction ?? "(none)"}`);
    void vscode.window.showInformationMessage(`${summary} ${nextSentence(result)}`);
  }

  async function skills(): Promise<SkillsResult["skills"]> {
    return (await backend.request(Requests.skills, {})).skills;
  }

  async function openJudgmentInputs(): Promise<OpenJudgmentParams> {
    const state = await workState();
    const title = vscode.l10n.t("Docket: Open Judgment — {0}", purposeLabel(state.purpose));
    const verification = state.purpose === "verification-decision";
    // Steps: [route] owner question obligations [subquestion expected-contribution]; the total
    // grows once an owner is picked.
    let total = verification ? 3 : 4;
    let step = 1;
    const next = (): Step => ({ title, step: step++, totalSteps: total });
    let routeDefinitionId = VERIFICATION_ROUTE_ID;
    if (!verification) {
      const route = await pickOne(
        next(),
        vscode.l10n.t("Which kind of judgment is this? (route)"),
        ROUTE_CATALOGUE.map((entry) => ({ label: entry.sign, description: entry.routeDefinitionId, detail: entry.sense, routeDefinitionId: entry.routeDefinitionId })),
      );
      routeDefinitionId = route.routeDefinitionId;
    }
    const owner = await pickOne(next(), vscode.l10n.t("Which bundled Skill owns this judgment?"), [
      { label: `$(circle-slash) ${vscode.l10n.t("No owning Skill")}`, detail: vscode.l10n.t("Docket records the judgment itself (no routing, assignment or invocation)."), skillName: null },
      ...(await skills()).map((skill) => ({ label: `$(tools) ${skill.skillName}`, detail: skill.description, skillName: skill.skillName })),
    ]);
    if (owner.skillName !== null) total += 2;
    const question = await askText(next(), vscode.l10n.t("The exact question this judgment must answer"), {
      placeHolder: verification ? vscode.l10n.t("e.g. Does the landed change do what was authorized?") : vscode.l10n.t("e.g. Should the parser accept trailing commas?"),
    });
    const statements = await askList(next(), vscode.l10n.t("What must be settled before concluding (an obligation)"), { min: 1, max: 100 });
    const params: OpenJudgmentParams = {
      purpose: state.purpose ?? undefined,
      routeDefinitionId,
      question,
      obligations: statements.map((statement, index) => ({ obligationId: `obligation-${String(index + 1).padStart(3, "0")}`, statement })),
    };
    if (owner.skillName === null) return params;
    const subquestion = await askText(next(), vscode.l10n.t("What {0} is asked to answer (subquestion)", owner.skillName));
    const expectedContribution = await askText(next(), vscode.l10n.t("What {0} should contribute", owner.skillName));
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
      const document = await vscode.workspace.openTextDocument({ content: owner.method, language: "markdown" });
      await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    });
  }

  async function concludeInputs(): Promise<ConcludeJudgmentParams> {
    const state = await workState();
    const frame = openFrame(state);
    const title = frame === undefined ? vscode.l10n.t("Docket: Conclude Judgment") : vscode.l10n.t("Docket: Conclude “{0}”", frame.question);
    const disposition = await pickOne({ title, step: 1, totalSteps: 4 }, vscode.l10n.t("How does this judgment end?"), [
      {
        label: `$(pass) ${vscode.l10n.t("Contextual judgment")}`,
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
    if (disposition.outcome === "not-applicable") {
      const reason = await askText({ title, step: 2, totalSteps: 3 }, vscode.l10n.t("Why the question does not apply"));
      const basis = await askList({ title, step: 3, totalSteps: 3 }, vscode.l10n.t("What shows it does not apply (basis)"), { min: 1, max: 32 });
      return { disposition: "not-applicable", reason, basis };
    }
    if (disposition.outcome === "needs-evidence") {
      const evidenceNeeded = await askList({ title, step: 2, totalSteps: 3 }, vscode.l10n.t("Evidence that is still needed"), { min: 1, max: 32 });
      const resolutionOwner = await askText({ title, step: 3, totalSteps: 3 }, vscode.l10n.t("Who will provide it"), { placeHolder: vscode.l10n.t("e.g. user") });
      return { disposition: "judgment", outcome: { kind: "needs-evidence", evidenceNeeded, resolutionOwner } };
    }
    const artifact = await askText({ title, step: 2, totalSteps: 4 }, vscode.l10n.t("The conclusion (what was decided)"));
    const rationale = await askText({ title, step: 3, totalSteps: 4 }, vscode.l10n.t("Why it applies to this frame (rationale)"));
    const stopEvidence = await askList({ title, step: 4, totalSteps: 4 }, vscode.l10n.t("Evidence that settles it (stop evidence)"), { min: 1, max: 32 });
    return { disposition: "judgment", outcome: { kind: "contextual-judgment", rationale, artifact, stopEvidence } };
  }

  async function authorizeInputs(): Promise<AuthorizeChangeParams> {
    const title = vscode.l10n.t("Docket: Authorize Change");
    const step = (n: number): Step => ({ title, step: n, totalSteps: 3 });
    const movement = await askText(step(1), vscode.l10n.t("The change that is authorized (movement)"), { placeHolder: vscode.l10n.t("e.g. Accept trailing commas in the config parser") });
    const stableLanding = await askText(step(2), vscode.l10n.t("What the workspace looks like when the change has landed"));
    const verificationTarget = await askText(step(3), vscode.l10n.t("How the landing will be verified"));
    return { movement, stableLanding, verificationTarget };
  }

  async function landingInputs(): Promise<RecordLandingParams> {
    const title = vscode.l10n.t("Docket: Record Landing");
    const result = await askText({ title, step: 1, totalSteps: 2 }, vscode.l10n.t("What changed (result)"));
    const verification = await askList({ title, step: 2, totalSteps: 2 }, vscode.l10n.t("Checks you ran (optional)"), { min: 0, max: 100 });
    return { result, verification };
  }

  /** Ready params from a caller (tests, other extensions) skip the prompts; the backend validates them. */
  function given<T>(args: readonly unknown[]): T | undefined {
    return isRecord(args[0]) ? (args[0] as T) : undefined;
  }

  const commands: vscode.Disposable[] = [
    register(OperationCommandIds.openJudgment, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const params = given<OpenJudgmentParams>(args) ?? (await openJudgmentInputs());
      const result = await backend.request(Requests.openJudgment, params);
      await refreshStatus();
      announce(vscode.l10n.t("Judgment opened with {0} obligation(s).", params.obligations.length), result);
      offerMethod(result);
      return result;
    }),

    register(OperationCommandIds.openContextSources, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const params = given<OpenContextSourcesParams>(args) ?? (await contextSourceInputs());
      const result = await backend.request(Requests.openContextSources, params);
      await refreshStatus();
      const opened = result.opened.map((entry) => entry.skillName).join(", ");
      announce(
        result.opened.length === 0 ? vscode.l10n.t("Context is already available; nothing was written.") : vscode.l10n.t("Opened as context: {0}", opened),
        result,
      );
      return result;
    }),

    register(OperationCommandIds.concludeJudgment, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const params = given<ConcludeJudgmentParams>(args) ?? (await concludeInputs());
      const result = await backend.request(Requests.concludeJudgment, params);
      await refreshStatus();
      // An unresolved outcome is recorded but leaves the frame open.
      announce(
        result.runtime.state === "frame"
          ? vscode.l10n.t("Recorded; the judgment is not concluded yet and its frame stays open.")
          : vscode.l10n.t("Judgment concluded."),
        result,
      );
      return result;
    }),

    register(OperationCommandIds.authorizeChange, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const params = given<AuthorizeChangeParams>(args) ?? (await authorizeInputs());
      const result = await backend.request(Requests.authorizeChange, params);
      await refreshStatus();
      announce(vscode.l10n.t("Change authorized: {0}", params.movement), result);
      return result;
    }),

    register(OperationCommandIds.recordLanding, async (...args: unknown[]) => {
      requireWritableWorkspace();
      const params = given<RecordLandingParams>(args) ?? (await landingInputs());
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Reconciling the landing with Git…") },
        () => backend.request(Requests.recordLanding, params),
      );
      await refreshStatus();
      const landing = (await workState()).landings.at(-1);
      const paths = landing === undefined ? "" : landing.changedPaths.join(", ");
      announce(vscode.l10n.t("Landing recorded: {0}", paths), result);
      return result;
    }),

    register(OperationCommandIds.nextStep, async () => {
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
