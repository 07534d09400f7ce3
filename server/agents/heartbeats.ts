// The latest hook invocation per host (issue-4 interface 2), from the hook runtime's heartbeat
// file, in the protocol's shape.
import type { AgentHeartbeat } from "../protocol/messages";
import { readHeartbeats } from "../hooks/heartbeat";
import type { AgentHost } from "./hostConfig";

/** Latest heartbeat per host; hosts never seen are absent. Never throws. */
export function latestHeartbeats(workspaceFolder: string): Partial<Record<AgentHost, AgentHeartbeat>> {
  const result: Partial<Record<AgentHost, AgentHeartbeat>> = {};
  for (const beat of readHeartbeats(workspaceFolder)) {
    if (beat.host === "claude" || beat.host === "codex") result[beat.host] = { event: beat.event, sessionId: beat.sessionId, at: beat.at };
  }
  return result;
}
