// The hooks' view of the evidence store (server/evidence/evidenceStore.ts). It is loaded only when
// a hook captures or lists evidence (PostToolUse, UserPromptSubmit, SessionStart): the store pulls
// in content hashing that PreToolUse, the latency-critical call, never needs.
import { writeRecentCache } from "../evidence/recentCache";
import type { HookDialect } from "./toolClassification";

/** How many handles the hooks' context names (and the recent-evidence cache keeps). */
export const RECENT_HANDLES = 12;

export interface ToolResultCapture {
  readonly host: HookDialect;
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly toolResponse: unknown;
  readonly occurredAt: string;
}

/** A user's prompt as UserPromptSubmit hands it to the store. */
export interface UserDecisionInput {
  readonly host: HookDialect;
  readonly sessionId: string;
  readonly prompt: string;
  readonly occurredAt: string;
}

export interface CapturedToolResult {
  readonly branchResultId: string;
  readonly truncated: boolean;
  /** How many secrets were redacted, over all kinds. */
  readonly redactions: number;
  readonly isError: boolean;
}

export interface RecentEvidence {
  readonly branchResultId: string;
  readonly toolName: string;
}

export interface EvidenceCapture {
  /** `refreshRecent: false` leaves the recent-handles cache to a later `refreshRecentCache` (the capture helper answers first). */
  captureToolResult(workspaceFolder: string, input: ToolResultCapture, options?: { readonly refreshRecent?: boolean }): Promise<CapturedToolResult>;
  refreshRecentCache(workspaceFolder: string): void;
  captureUserDecision(workspaceFolder: string, input: UserDecisionInput): Promise<{ userEventId: string }>;
  recentEvidence(workspaceFolder: string, limit: number): readonly RecentEvidence[];
}

/** The evidence store, loaded on first use. */
export function evidenceCapture(): EvidenceCapture {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const store = require("../evidence/evidenceStore") as typeof import("../evidence/evidenceStore");
  return {
    async captureToolResult(workspaceFolder, input, options) {
      const captured = await store.captureToolResult(workspaceFolder, input);
      // The prompt hooks name the newest handles from this cache, without loading the store.
      if (options?.refreshRecent !== false) writeRecentCache(workspaceFolder, store.recentEvidence(workspaceFolder, RECENT_HANDLES));
      const redactions = Object.values(captured.redactions).reduce<number>((sum, count) => sum + (count ?? 0), 0);
      return { branchResultId: captured.branchResultId, truncated: captured.truncated, redactions, isError: captured.isError };
    },
    refreshRecentCache: (workspaceFolder) => writeRecentCache(workspaceFolder, store.recentEvidence(workspaceFolder, RECENT_HANDLES)),
    captureUserDecision: (workspaceFolder, input) => store.captureUserDecision(workspaceFolder, input),
    recentEvidence: (workspaceFolder, limit) => {
      const recent = store.recentEvidence(workspaceFolder, limit);
      if (limit === RECENT_HANDLES) writeRecentCache(workspaceFolder, recent);
      return recent;
    },
  };
}
