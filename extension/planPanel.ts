// "Docket: Explain Plan for Task…": asks for a task, asks the backend for its plan
// (`docket/plan`), and shows it in a Plan webview panel — one panel per task, reused when the
// same task is planned again. The panel renders the plan it is given (no domain logic here); the
// host only opens the files and skills the plan's reasons cite, after checking that a path stays
// inside the workspace folder.
import * as path from "node:path";
import * as vscode from "vscode";
import { webviewHtml } from "./webviewHtml";
import { ErrorCodes, Requests } from "../server/protocol/messages";
import { HostToPlan, PlanToHost, type PlanStrings } from "../server/protocol/webviewMessages";
import { MAX_TASK_LENGTH, type Plan } from "../server/router/planSchema";
import type { Backend } from "./backend";
import { firstFolder } from "./config";
import { DocketError } from "./errors";
import { InputCancelled } from "./inputFlow";
import { noFolderMessage } from "./strings";

export const EXPLAIN_PLAN_COMMAND = "docket.explainPlan";
const PANEL_TYPE = "docket.plan";
/** Control characters other than tab and newline (the Router refuses them too). */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

type Register = <A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>) => vscode.Disposable;

interface Dependencies {
  readonly extensionUri: vscode.Uri;
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  readonly register: Register;
}


/** Client-side check of the task (the backend is the authority and answers docket.task-invalid). */
export function taskProblem(task: string): string | undefined {
  if (task.trim() === "") return vscode.l10n.t("Type the task, for example: fix the retry bug in webhook.ts");
  if (task.length > MAX_TASK_LENGTH) return vscode.l10n.t("A task is at most {0} characters (this one has {1}).", MAX_TASK_LENGTH, task.length);
  if (CONTROL.test(task)) return vscode.l10n.t("A task cannot contain control characters.");
  return undefined;
}

export function planStrings(): PlanStrings {
  return {
    stageTask: vscode.l10n.t("Task"),
    stageIntent: vscode.l10n.t("Task intent"),
    stageRouting: vscode.l10n.t("Skill routing"),
    stageComposition: vscode.l10n.t("Skill composition"),
    stageContextPack: vscode.l10n.t("Context pack"),
    stageVerification: vscode.l10n.t("Verification"),
    stageReview: vscode.l10n.t("Review"),
    waiting: vscode.l10n.t("Planning…"),
    domain: vscode.l10n.t("Domain"),
    executionMode: vscode.l10n.t("Execution mode"),
    entities: vscode.l10n.t("Entities"),
    unmatched: vscode.l10n.t("Unmatched (shown, not planned around)"),
    ambiguous: vscode.l10n.t("Ambiguous"),
    signals: vscode.l10n.t("Signals"),
    risk: vscode.l10n.t("Risk"),
    candidates: vscode.l10n.t("Candidates"),
    noSkillFits: vscode.l10n.t("No skill fits well"),
    setAside: vscode.l10n.t("Set aside (matched poorly, not planned)"),
    excluded: vscode.l10n.t("Excluded"),
    unavailable: vscode.l10n.t("Unavailable"),
    executable: vscode.l10n.t("Executable"),
    blocked: vscode.l10n.t("Blocked"),
    groups: vscode.l10n.t("Parallel groups"),
    group: vscode.l10n.t("Group {0}"),
    edges: vscode.l10n.t("Execution edges"),
    gates: vscode.l10n.t("Gates"),
    issues: vscode.l10n.t("Issues"),
    versions: vscode.l10n.t("Frozen versions"),
    facts: vscode.l10n.t("Facts"),
    files: vscode.l10n.t("Files"),
    graph: vscode.l10n.t("Import graph"),
    rules: vscode.l10n.t("Rule files"),
    constraints: vscode.l10n.t("Constraints"),
    findings: vscode.l10n.t("Findings"),
    unknowns: vscode.l10n.t("Unknowns"),
    required: vscode.l10n.t("Required checks"),
    ran: vscode.l10n.t("Ran"),
    pending: vscode.l10n.t("Pending"),
    seats: vscode.l10n.t("Review board"),
    verdict: vscode.l10n.t("Verdict"),
    ignoredReports: vscode.l10n.t("Ignored reports"),
    none: vscode.l10n.t("None."),
    because: vscode.l10n.t("because"),
    score: vscode.l10n.t("score {0}"),
    imports: vscode.l10n.t("imports"),
    importedBy: vscode.l10n.t("imported by"),
    openFile: vscode.l10n.t("Open {0}"),
    openSkill: vscode.l10n.t("Open the SKILL.md of {0}"),
    showWords: vscode.l10n.t("Highlight \"{0}\" in the task"),
    planHash: vscode.l10n.t("Plan"),
    basis: vscode.l10n.t("Review basis"),
    snapshot: vscode.l10n.t("Snapshot"),
    stateAwaitingReport: vscode.l10n.t("awaiting report"),
    stateReported: vscode.l10n.t("reported"),
    stateFailed: vscode.l10n.t("failed"),
    stateUnavailable: vscode.l10n.t("unavailable"),
    verdictGo: vscode.l10n.t("Ready to go"),
    verdictFixRequired: vscode.l10n.t("Fixes needed before it can go"),
    verdictBlocked: vscode.l10n.t("Blocked: cannot go as planned"),
    yes: vscode.l10n.t("yes"),
    no: vscode.l10n.t("no"),
    resolved: vscode.l10n.t("resolved"),
    modePlanOnly: vscode.l10n.t("plan only, no changes"),
    modeImplement: vscode.l10n.t("implement: changes the workspace"),
    modeReview: vscode.l10n.t("review"),
    modeInvestigate: vscode.l10n.t("investigate"),
    riskHigh: vscode.l10n.t("high risk"),
    riskMedium: vscode.l10n.t("medium risk"),
    riskLow: vscode.l10n.t("low risk"),
    severityBlocking: vscode.l10n.t("blocking"),
    severityMajor: vscode.l10n.t("major"),
    severityMinor: vscode.l10n.t("minor"),
    severityInfo: vscode.l10n.t("info"),
  };
}

/** A workspace-relative POSIX path resolved inside `root`, or null if it would leave it. */
export function insideWorkspace(root: string, relative: string): string | null {
  if (relative.includes("\0") || relative.includes("\\") || path.posix.isAbsolute(relative) || /^[A-Za-z]:/u.test(relative)) return null;
  const absolute = path.resolve(root, ...relative.split("/"));
  const back = path.relative(root, absolute);
  if (back === "" || back === ".." || back.startsWith(`..${path.sep}`) || path.isAbsolute(back)) return null;
  return absolute;
}

class PlanPanel implements vscode.Disposable {
  private plan: Plan;
  private ready = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    plan: Plan,
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    onDispose: () => void,
  ) {
    this.plan = plan;
    const webviewRoot = vscode.Uri.joinPath(extensionUri, "dist", "webview");
    const mediaRoot = vscode.Uri.joinPath(extensionUri, "media");
    panel.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot, mediaRoot] };
    panel.webview.html = this.html(panel.webview, webviewRoot, mediaRoot);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      panel.onDidDispose(() => {
        this.dispose();
        onDispose();
      }),
    );
  }

  show(plan: Plan): void {
    this.plan = plan;
    this.panel.reveal(undefined, false);
    if (this.ready) this.post({ type: "plan", plan });
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private post(message: HostToPlan): void {
    const parsed = HostToPlan.safeParse(message);
    if (!parsed.success) {
      this.log.error("plan panel: refusing to post an invalid message", parsed.error.issues);
      return;
    }
    void this.panel.webview.postMessage(parsed.data);
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = PlanToHost.safeParse(raw);
    if (!parsed.success) {
      this.log.warn("plan panel: ignored an invalid message from the webview", parsed.error.issues);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case "ready":
        this.ready = true;
        this.post({ type: "plan", plan: this.plan });
        break;
      case "openFile":
        await this.openWorkspaceFile(message.path, message.line);
        break;
      case "openSkill":
        await this.openSkill(message.skill);
        break;
    }
  }

  private async openWorkspaceFile(relative: string, line: number | null): Promise<void> {
    const folder = firstFolder();
    const absolute = folder === undefined ? null : insideWorkspace(folder.uri.fsPath, relative);
    if (absolute === null) {
      this.log.warn(`plan panel: refused to open ${JSON.stringify(relative)}: not inside the workspace folder`);
      void vscode.window.showWarningMessage(vscode.l10n.t("{0} is not inside the workspace folder.", relative));
      return;
    }
    await this.openUri(vscode.Uri.file(absolute), line, relative);
  }

  private async openSkill(skill: string): Promise<void> {
    const candidate = this.plan.routing.candidates.find((entry) => entry.skill === skill) ?? this.plan.routing.setAside.find((entry) => entry.skill === skill);
    const version = this.plan.contextPack.versions.skills.find((entry) => entry.skill === skill);
    const source = candidate?.source ?? version?.source ?? "bundled";
    if (source === "workspace") {
      if (candidate === undefined) {
        void vscode.window.showWarningMessage(vscode.l10n.t("The plan does not say where the skill {0} is.", skill));
        return;
      }
      await this.openWorkspaceFile(candidate.path, null);
      return;
    }
    // Bundled skills ship inside the extension: `skills/<name>/SKILL.md`.
    if (!/^[a-z0-9][a-z0-9-]*$/u.test(skill)) return;
    await this.openUri(vscode.Uri.joinPath(this.extensionUri, "skills", skill, "SKILL.md"), null, `skills/${skill}/SKILL.md`);
  }

  private async openUri(uri: vscode.Uri, line: number | null, label: string): Promise<void> {
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      // Beside the panel, so the plan and the file it cites are both in view.
      const column = this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
      await vscode.window.showTextDocument(document, {
        viewColumn: column,
        preview: true,
        selection: new vscode.Range(position, position),
      });
    } catch (error) {
      this.log.warn(`plan panel: cannot open ${label}`, error);
      void vscode.window.showWarningMessage(vscode.l10n.t("Cannot open {0}.", label));
    }
  }

  private html(webview: vscode.Webview, webviewRoot: vscode.Uri, mediaRoot: vscode.Uri): string {
    return webviewHtml(webview, { webviewRoot, mediaRoot, script: "plan.js", stylesheet: "plan.css", title: vscode.l10n.t("Plan"), strings: planStrings() });
  }
}

/** The panel title: the task, shortened. */
function panelTitle(task: string): string {
  const oneLine = task.replace(/\s+/gu, " ").trim();
  return vscode.l10n.t("Plan: {0}", oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine);
}

export function registerPlanCommand({ extensionUri, backend, log, register }: Dependencies): vscode.Disposable[] {
  /** Open panels by task text (NFC), so planning the same task again reuses its panel. */
  const panels = new Map<string, PlanPanel>();

  const command = register(EXPLAIN_PLAN_COMMAND, async (given?: unknown): Promise<Plan> => {
    if (firstFolder() === undefined) throw new DocketError(ErrorCodes.noWorkspace, noFolderMessage());
    const task =
      typeof given === "string"
        ? given
        : await vscode.window.showInputBox({
            title: vscode.l10n.t("Docket: Explain Plan for Task"),
            prompt: vscode.l10n.t("What should be done? Docket explains which skills, context, checks and reviewers the task needs."),
            placeHolder: vscode.l10n.t("e.g. fix the retry bug in webhook.ts without touching billing"),
            ignoreFocusOut: true,
            validateInput: (value) => taskProblem(value),
          });
    if (task === undefined) throw new InputCancelled();
    const plan = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Planning the task…"), cancellable: true },
      (_progress, token) => backend.request(Requests.plan, { task, mode: null }, token),
    );
    log.info(`plan ${plan.planSha256}: verdict ${plan.review.verdict} for ${JSON.stringify(plan.task.text)}`);
    const key = plan.task.text;
    const existing = panels.get(key);
    if (existing !== undefined) {
      existing.show(plan);
      return plan;
    }
    const panel = vscode.window.createWebviewPanel(PANEL_TYPE, panelTitle(plan.task.text), vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: true,
      enableFindWidget: true,
    });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, "media", "docket.svg");
    panels.set(key, new PlanPanel(panel, plan, extensionUri, log, () => panels.delete(key)));
    return plan;
  });

  return [
    command,
    {
      dispose: () => {
        for (const panel of panels.values()) panel.panel.dispose();
        panels.clear();
      },
    },
  ];
}
