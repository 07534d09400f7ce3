// What `docket status` prints, from the policy and the agents' connection state: one writer for
// the answer read from the checkpoint and the one replayed, so both print the same bytes.
import type { AgentHostStatus, ToolPolicyResult } from "../protocol/messages";

export interface StatusReport {
  readonly workspaceFolder: string;
  readonly ledgerPath: string;
  readonly policy: ToolPolicyResult;
  readonly agents: readonly AgentHostStatus[];
}

export function writeStatus(io: { readonly stdout: (text: string) => void }, json: boolean, report: StatusReport): void {
  const { workspaceFolder, ledgerPath, policy, agents } = report;
  if (json) {
    io.stdout(`${JSON.stringify({ workspaceFolder, ledgerPath, ...policy, agents })}\n`);
    return;
  }
  io.stdout(`workspace: ${workspaceFolder}\nledger: ${ledgerPath}\n`);
  io.stdout(`phase: ${policy.phase}\nscope: ${policy.workScopeId ?? "none"}\n`);
  io.stdout(`legal operations: ${policy.legalOperations.length === 0 ? "none" : policy.legalOperations.join(", ")}\n`);
  io.stdout(`shell: ${policy.shell}, edit: ${policy.edit}${policy.reason === null ? "" : ` — ${policy.reason}`}\n`);
  for (const agent of agents) {
    const state = agent.problem !== null ? `unreadable config (${agent.problem.code})` : agent.installed ? "connected" : agent.partial ? "partly connected" : "not connected";
    const beat = agent.heartbeat === null ? "" : `; last hook ${agent.heartbeat.event} at ${agent.heartbeat.at}`;
    io.stdout(`agent ${agent.host}: ${state}${beat}\n`);
  }
}
