// Which agent hosts a command may offer, from `docket/agents/status` alone (no VS Code): the
// Disconnect picker lists only hosts with Docket entries to remove, as the view marks them.
import type { AgentHost, AgentHostStatus, AgentsStatus } from "../server/protocol/messages";

/** Connected, for the view and for Disconnect: every or some Docket entry is in place. */
export function isConnected(agent: AgentHostStatus): boolean {
  return agent.installed || agent.partial;
}

/** Hosts that have Docket entries to remove, in the backend's order. */
export function disconnectableHosts(status: AgentsStatus): AgentHost[] {
  return status.hosts.filter(isConnected).map((agent) => agent.host);
}
