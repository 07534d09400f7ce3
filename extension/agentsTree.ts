// The "Connected Agents" view: one item per agent host — connected or not, and when a Docket
// hook last ran for it — with Connect/Disconnect inline. It reads `docket/agents/status` on every
// status change and every 30 s while visible, because hooks fire in other processes.
import * as vscode from "vscode";
import type { AgentHost, AgentHostStatus, AgentsStatus } from "../server/protocol/messages";
import { isConnected } from "./agentChoices";

export const AGENTS_VIEW_ID = "docket.agents";

export function hostLabel(host: AgentHost): string {
  return host === "claude" ? "Claude Code" : "Codex";
}
const REFRESH_MS = 30_000;

/** "5 minutes ago" in the UI language; a time in the future or unparsable reads as given. */
export function relativeTime(at: string, now: number, locale: string): string {
  const then = Date.parse(at);
  if (Number.isNaN(then)) return at;
  const seconds = Math.round((then - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [["day", 86_400], ["hour", 3_600], ["minute", 60]];
  for (const [unit, size] of steps) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return format.format(seconds, "second");
}

export class AgentItem extends vscode.TreeItem {
  constructor(readonly agent: AgentHostStatus, now: number) {
    super(hostLabel(agent.host), vscode.TreeItemCollapsibleState.None);
    const connected = isConnected(agent);
    const state = agent.problem !== null
      ? vscode.l10n.t("config unreadable")
      : agent.installed
        ? vscode.l10n.t("connected")
        : agent.partial
          ? vscode.l10n.t("partly connected")
          : vscode.l10n.t("not connected");
    const beat = agent.heartbeat === null
      ? connected ? vscode.l10n.t("no hook call yet") : ""
      : vscode.l10n.t("last hook {0}", relativeTime(agent.heartbeat.at, now, vscode.env.language));
    this.description = beat === "" ? state : `${state} · ${beat}`;
    this.iconPath = new vscode.ThemeIcon(agent.problem !== null ? "warning" : agent.installed ? "plug" : "debug-disconnect");
    this.contextValue = `docket.agent.${agent.host}.${connected ? "connected" : "disconnected"}`;
    const lines = [
      agent.problem === null ? "" : `${agent.problem.code}: ${agent.problem.message}`,
      ...agent.files.map((file) => `${file.path}: ${file.entries.join(", ")}`),
      agent.heartbeat === null ? "" : vscode.l10n.t("Last hook: {0} at {1}", agent.heartbeat.event, agent.heartbeat.at),
    ].filter((line) => line !== "");
    this.tooltip = lines.length === 0 ? vscode.l10n.t("Not connected to Docket in this folder.") : lines.join("\n");
  }
}

export class AgentsTreeProvider implements vscode.TreeDataProvider<vscode.TreeItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly load: () => Promise<AgentsStatus>) {}

  refresh(): void {
    this.changed.fire();
  }

  /** Polls only while the view is visible: heartbeats change without any status notification. */
  setVisible(visible: boolean): void {
    clearInterval(this.timer);
    this.timer = visible ? setInterval(() => this.refresh(), REFRESH_MS) : undefined;
    if (visible) this.refresh();
  }

  getTreeItem(element: vscode.TreeItem): vscode.TreeItem {
    return element;
  }

  async getChildren(element?: vscode.TreeItem): Promise<vscode.TreeItem[]> {
    if (element !== undefined) return [];
    try {
      const status = await this.load();
      const now = Date.now();
      return status.hosts.map((agent) => new AgentItem(agent, now));
    } catch (error) {
      const item = new vscode.TreeItem(vscode.l10n.t("Agent status unavailable"), vscode.TreeItemCollapsibleState.None);
      item.description = error instanceof Error ? error.message : String(error);
      item.iconPath = new vscode.ThemeIcon("warning");
      return [item];
    }
  }

  dispose(): void {
    clearInterval(this.timer);
    this.changed.dispose();
  }
}

/** Creates the view and keeps it fresh; returns everything to dispose. */
export function registerAgentsView(load: () => Promise<AgentsStatus>): { provider: AgentsTreeProvider; disposables: vscode.Disposable[] } {
  const provider = new AgentsTreeProvider(load);
  const view = vscode.window.createTreeView(AGENTS_VIEW_ID, { treeDataProvider: provider });
  provider.setVisible(view.visible);
  return { provider, disposables: [provider, view, view.onDidChangeVisibility((event) => provider.setVisible(event.visible))] };
}

