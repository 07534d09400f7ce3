// "Docket: Connect Claude Code…", "Docket: Connect Codex…", "Docket: Disconnect Agent…" and
// "Docket: Connect Git…" / "Docket: Disconnect Git…" (the ledger's merge driver and the
// prepare-commit-msg hook, docs/commit-links.md).
// The backend plans and writes (docket/agents/*); this file only shows the exact change — a diff
// editor per file, current ⇄ proposed, as read-only virtual documents — asks once, and reports
// what the user must still do. No domain logic lives here.
import * as path from "node:path";
import * as vscode from "vscode";
import { Requests, type AgentHost, type AgentPlan, type GitPlan } from "../server/protocol/messages";
import type { Backend } from "./backend";
import { disconnectableHosts } from "./agentChoices";
import { hostLabel, registerAgentsView } from "./agentsTree";
import { toDocketError } from "./errors";

export const AgentCommandIds = {
  connectClaude: "docket.connectClaude",
  connectCodex: "docket.connectCodex",
  disconnect: "docket.disconnectAgent",
  connectGit: "docket.connectGit",
  disconnectGit: "docket.disconnectGit",
} as const;

/** `docket.agents.readOnlyTools`: application scope, so only the user's own settings can set it. */
export const READ_ONLY_TOOLS_SETTING = "agents.readOnlyTools";

/**
 * The user's additions to the hooks' read-only allowlist. Only the user (global) value counts: the
 * setting is application-scoped, and reading `globalValue` keeps a workspace or folder value —
 * which a repository could ship — out even if the manifest's scope were ever widened.
 */
export function readOnlyToolsSetting(): string[] {
  const value = vscode.workspace.getConfiguration("docket").inspect<unknown>(READ_ONLY_TOOLS_SETTING)?.globalValue;
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "").map((entry) => entry.trim()) : [];
}

/** Scheme of the read-only "current" and "proposed" documents shown in the diff editor. */
const PLAN_SCHEME = "docket-agent-plan";

interface Dependencies {
  readonly backend: Backend;
  readonly log: vscode.LogOutputChannel;
  /** Called after a connect or disconnect wrote files, so views refresh. */
  readonly onDidChange: () => void;
}

/** The agent commands plus the "Connected Agents" view, kept fresh on every backend change. */
export function registerAgents(backend: Backend, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const { provider, disposables } = registerAgentsView(() => backend.request(Requests.agentsStatus, {}));
  return [
    ...disposables,
    ...registerAgentCommands({ backend, log, onDidChange: () => provider.refresh() }),
    backend.onDidChangeStatus(() => provider.refresh()),
    backend.onDidChangeState(() => provider.refresh()),
  ];
}

/** A host from a "Connected Agents" item (`{ agent: { host } }`), `{ host }` or a plain `"claude"`. */
export function hostOf(argument: unknown): AgentHost | undefined {
  let value = argument;
  if (typeof value === "object" && value !== null && "agent" in value) value = (value as { agent: unknown }).agent;
  if (typeof value === "object" && value !== null && "host" in value) value = (value as { host: unknown }).host;
  return value === "claude" || value === "codex" ? value : undefined;
}

class PlanDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Registers the texts of one plan under fresh URIs (a new plan never shows a stale one). */
  show(plan: Pick<AgentPlan, "files">): Array<{ left: vscode.Uri; right: vscode.Uri; file: string }> {
    this.generation += 1;
    this.texts.clear();
    return plan.files.map((file, index) => {
      const name = path.basename(file.path);
      const key = `${this.generation}/${index}`;
      const left = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/current/${key}/${name}` });
      const right = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/proposed/${key}/${name}` });
      this.texts.set(left.toString(), file.before ?? "");
      this.texts.set(right.toString(), file.after ?? "");
      return { left, right, file: file.path };
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerAgentCommands({ backend, log, onDidChange }: Dependencies): vscode.Disposable[] {
  const documents = new PlanDocuments();

  function fail(error: unknown, method: string): void {
    const failure = toDocketError(error, method);
    log.warn(`${method} failed [${failure.code}]: ${failure.message}`);
    void vscode.window.showErrorMessage(vscode.l10n.t("Docket could not change the agent configuration ({0}): {1}", failure.code, failure.message));
  }

  function relative(file: string): string {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return folder === undefined ? file : path.relative(folder, file);
  }

  async function showNotes(title: string, notes: readonly string[]): Promise<void> {
    if (notes.length === 0) return;
    log.info(`${title}\n${notes.map((note) => `  - ${note}`).join("\n")}`);
    await vscode.window.showInformationMessage(title, { modal: true, detail: notes.map((note) => `• ${note}`).join("\n") });
  }

  async function closePreviews(rights: readonly vscode.Uri[]): Promise<void> {
    const wanted = new Set(rights.map((uri) => uri.toString()));
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && wanted.has(tab.input.modified.toString()));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  async function connect(host: AgentHost): Promise<AgentPlan | undefined> {
    // Carried into the hook commands, so the diff editors show exactly what the user allowed.
    const readOnlyTools = readOnlyToolsSetting();
    let plan: AgentPlan;
    try {
      plan = await backend.request(Requests.agentsPlan, { host, readOnlyTools });
    } catch (error) {
      fail(error, Requests.agentsPlan.method);
      return undefined;
    }
    if (plan.files.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t("{0} is already connected to Docket in this folder.", hostLabel(host)));
      return plan;
    }
    const previews = documents.show(plan);
    let answer: string | undefined;
    const confirm = vscode.l10n.t("Connect");
    try {
      for (const { left, right, file } of previews) {
        const title = vscode.l10n.t("{0} (current ⇄ proposed by Docket)", relative(file));
        await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: false, preserveFocus: true });
      }
      const files = plan.files.map((file) => relative(file.path)).join(", ");
      answer = await vscode.window.showWarningMessage(
        vscode.l10n.t("Connect {0} to Docket?", hostLabel(host)),
        { modal: true, detail: vscode.l10n.t("Docket will write {0} as shown in the diff editors.", files) },
        confirm,
      );
    } finally {
      // The previews served the question only: whatever the answer, they would be stale next.
      await closePreviews(previews.map((preview) => preview.right));
    }
    if (answer !== confirm) return undefined;
    try {
      const applied = await backend.request(Requests.agentsApply, { host, planSha256: plan.planSha256, readOnlyTools });
      onDidChange();
      await showNotes(vscode.l10n.t("{0} is connected to Docket. Still to do:", hostLabel(host)), applied.notes);
      return applied;
    } catch (error) {
      fail(error, Requests.agentsApply.method);
      return undefined;
    }
  }

  async function disconnect(argument: unknown): Promise<AgentPlan | undefined> {
    let host = hostOf(argument);
    if (host === undefined) {
      let connected: AgentHost[];
      try {
        connected = disconnectableHosts(await backend.request(Requests.agentsStatus, {}));
      } catch (error) {
        fail(error, Requests.agentsStatus.method);
        return undefined;
      }
      if (connected.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t("No agent is connected to Docket in this folder."));
        return undefined;
      }
      // One connected agent needs no picker: the confirmation below names it.
      const picked =
        connected.length === 1
          ? { host: connected[0] }
          : await vscode.window.showQuickPick(
              connected.map((value) => ({ label: hostLabel(value), host: value })),
              { title: vscode.l10n.t("Docket: Disconnect which agent?") },
            );
      host = picked?.host;
    }
    if (host === undefined) return undefined;
    const confirm = vscode.l10n.t("Disconnect");
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t("Disconnect {0} from Docket?", hostLabel(host)),
      { modal: true, detail: vscode.l10n.t("Docket removes exactly the hook and MCP entries it added; your other settings stay as they are.") },
      confirm,
    );
    if (answer !== confirm) return undefined;
    try {
      const removed = await backend.request(Requests.agentsDisconnect, { host });
      onDidChange();
      if (removed.files.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t("{0} had no Docket entries in this folder.", hostLabel(host)));
      } else {
        await showNotes(vscode.l10n.t("{0} is disconnected from Docket.", hostLabel(host)), removed.notes);
      }
      return removed;
    } catch (error) {
      fail(error, Requests.agentsDisconnect.method);
      return undefined;
    }
  }

  /** The repo-local Git config values a plan sets or removes, one command line each. */
  function configLines(plan: GitPlan): string {
    return plan.config.map((entry) => (entry.after === null ? `git config --local --unset ${entry.key}` : `git config --local ${entry.key} ${JSON.stringify(entry.after)}`)).join("\n");
  }

  async function gitConnection(mode: "connect" | "disconnect"): Promise<GitPlan | undefined> {
    let plan: GitPlan;
    try {
      plan = await backend.request(Requests.gitPlan, { mode });
    } catch (error) {
      fail(error, Requests.gitPlan.method);
      return undefined;
    }
    if (plan.files.length === 0 && plan.config.length === 0) {
      void vscode.window.showInformationMessage(mode === "connect" ? vscode.l10n.t("Git is already connected to Docket in this folder.") : vscode.l10n.t("Git has no Docket entries in this folder."));
      return plan;
    }
    const previews = documents.show(plan);
    const confirm = mode === "connect" ? vscode.l10n.t("Connect") : vscode.l10n.t("Disconnect");
    let answer: string | undefined;
    try {
      for (const { left, right, file } of previews) {
        const title = vscode.l10n.t("{0} (current ⇄ proposed by Docket)", relative(file));
        await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: false, preserveFocus: true });
      }
      const files = plan.files.map((file) => relative(file.path)).join(", ") || "—";
      answer = await vscode.window.showWarningMessage(
        mode === "connect" ? vscode.l10n.t("Connect Git to Docket?") : vscode.l10n.t("Disconnect Git from Docket?"),
        { modal: true, detail: vscode.l10n.t("Docket will write {0} as shown in the diff editors, and run:\n{1}", files, configLines(plan)) },
        confirm,
      );
    } finally {
      await closePreviews(previews.map((preview) => preview.right));
    }
    if (answer !== confirm) return undefined;
    try {
      const applied = await backend.request(Requests.gitApply, { mode, planSha256: plan.planSha256 });
      onDidChange();
      await showNotes(mode === "connect" ? vscode.l10n.t("Git is connected to Docket.") : vscode.l10n.t("Git is disconnected from Docket."), applied.notes);
      return applied;
    } catch (error) {
      fail(error, Requests.gitApply.method);
      return undefined;
    }
  }

  return [
    documents,
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, documents),
    vscode.commands.registerCommand(AgentCommandIds.connectClaude, () => connect("claude")),
    vscode.commands.registerCommand(AgentCommandIds.connectCodex, () => connect("codex")),
    vscode.commands.registerCommand(AgentCommandIds.disconnect, (argument: unknown) => disconnect(argument)),
    vscode.commands.registerCommand(AgentCommandIds.connectGit, () => gitConnection("connect")),
    vscode.commands.registerCommand(AgentCommandIds.disconnectGit, () => gitConnection("disconnect")),
  ];
}
