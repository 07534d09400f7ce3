// Per-host connection status for the extension's "Connected Agents" view and `docket status`:
// which Docket entries each host's configs hold and when a Docket hook last ran for it.
import type { AgentsStatus } from "../protocol/messages";
import { latestHeartbeats } from "./heartbeats";
import { AGENT_HOSTS } from "./hostConfig";
import { readText } from "./installerFiles";
import { installedStatus } from "./installers";

export function agentsStatus(workspaceFolder: string): AgentsStatus {
  const beats = latestHeartbeats(workspaceFolder);
  return {
    hosts: AGENT_HOSTS.map((host) => ({ ...installedStatus(host, workspaceFolder, readText), heartbeat: beats[host] ?? null })),
  };
}
