// The hooks' view of the evidence store (server/evidence/evidenceStore.ts). It is loaded only when
// a hook captures or lists evidence (PostToolUse, UserPromptSubmit, SessionStart): the store pulls
// in content hashing that PreToolUse, the latency-critical call, never needs.
import type { HookDialect } from "./toolClassification";

export interface ToolResultCapture {
  readonly host: HookDialect;
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly toolResponse: unknown;
  readonly occurredAt: string;
}

export interface CapturedToolResult {
  readonly branchResultId: string;
  readonly truncated: boolean;
  /** How many secrets were redacted, over all kinds. */
  readonly redactions: number;
}

export interface RecentEvidence {
  readonly branchResultId: string;
  readonly toolName: string;
}

export interface EvidenceCapture {
  captureToolResult(workspaceFolder: string, input: ToolResultCapture): Promise<CapturedToolResult>;
  captureUserDecision(workspaceFolder: string, input: { host: HookDialect; sessionId: string; prompt: string; occurredAt: string }): Promise<{ userEventId: string }>;
  recentEvidence(workspaceFolder: string, limit: number): readonly RecentEvidence[];
}

/** The evidence store, loaded on first use. */
export function evidenceCapture(): EvidenceCapture {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const store = require("../evidence/evidenceStore") as typeof import("../evidence/evidenceStore");
  return {
    async captureToolResult(workspaceFolder, input) {
      const captured = await store.captureToolResult(workspaceFolder, input);
      const redactions = Object.values(captured.redactions).reduce<number>((sum, count) => sum + (count ?? 0), 0);
      return { branchResultId: captured.branchResultId, truncated: captured.truncated, redactions };
    },
    captureUserDecision: (workspaceFolder, input) => store.captureUserDecision(workspaceFolder, input),
    recentEvidence: (workspaceFolder, limit) => store.recentEvidence(workspaceFolder, limit),
  };
}
