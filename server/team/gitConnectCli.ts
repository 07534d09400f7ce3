// `docket connect git` / `docket disconnect git` from a terminal: the plan printed as the agent
// installers print theirs (each file's diff, each config value), `--dry-run` writes nothing.
import path from "node:path";
import { resolveRuntimePath } from "../agents/installerFiles";
import { unifiedDiff } from "../agents/textDiff";
import { applyGit, planGit, type GitInstallation, type GitPlan } from "./gitConnect";

export interface GitConnectIo {
  readonly stdout: (text: string) => void;
  readonly runtime?: string;
}

function describe(plan: GitPlan, workspaceFolder: string, withDiff: boolean): string {
  const lines: string[] = [];
  for (const file of plan.files) {
    const shown = path.relative(workspaceFolder, file.path) || file.path;
    const label = shown.startsWith("..") ? file.path : shown;
    lines.push(`${file.before === null ? "create" : file.after === null ? "delete" : "update"} ${label}${file.executable && file.after !== null ? " (executable)" : ""}`);
    if (withDiff) lines.push(unifiedDiff(file.before ?? "", file.after ?? "", file.before === null ? "/dev/null" : `a/${label}`, file.after === null ? "/dev/null" : `b/${label}`));
  }
  for (const entry of plan.config) {
    if (entry.after === null) lines.push(`git config --local --unset ${entry.key}   (was: ${entry.before ?? ""})`);
    else lines.push(`git config --local ${entry.key} ${JSON.stringify(entry.after)}${entry.before === null ? "" : `   (was: ${entry.before})`}`);
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

export async function runGitConnect(connecting: boolean, workspaceFolder: string, flags: ReadonlySet<string>, io: GitConnectIo): Promise<number> {
  const installation: GitInstallation = { workspaceFolder, runtimePath: resolveRuntimePath(io.runtime), nodePath: process.execPath };
  const mode = connecting ? "connect" : "disconnect";
  const dryRun = flags.has("dry-run");
  const plan = dryRun ? await planGit(installation, mode) : await applyGit(installation, mode, null);
  if (flags.has("json")) {
    io.stdout(`${JSON.stringify({ ...plan, dryRun, workspaceFolder, runtimePath: installation.runtimePath })}\n`);
    return 0;
  }
  if (plan.files.length === 0 && plan.config.length === 0) {
    io.stdout(connecting ? `Git is already connected to Docket in ${workspaceFolder}; nothing to change.\n` : `Git has no Docket entries in ${workspaceFolder}; nothing to change.\n`);
    for (const note of plan.notes) io.stdout(`  - ${note}\n`);
    return 0;
  }
  io.stdout(dryRun ? "Would change (dry run, nothing written):\n" : connecting ? "Connected Git to Docket:\n" : "Disconnected Git from Docket:\n");
  io.stdout(describe(plan, workspaceFolder, dryRun));
  if (plan.notes.length > 0) io.stdout(`Notes:\n${plan.notes.map((note) => `  - ${note}\n`).join("")}`);
  return 0;
}
