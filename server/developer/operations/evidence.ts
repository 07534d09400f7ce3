// Evidence handles a conclusion may nominate (§3.3 c): tool results captured while the frame was
// open (`branch-result-<16 hex>`) and the user's latest decision. Capturing them belongs to the
// host hooks; conclusions only look them up through this interface, so a store can be plugged in
// later without touching the conclusion logic. An unknown handle is refused, never guessed.
import type { ContextContentPart } from "../../judgment";

export interface ToolResultEvidence {
  /** The handle the agent nominates: `branch-result-` + 16 hex of sha256(toolCallId). */
  readonly branchResultId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** sha256 of the canonical JSON of the call's arguments (`{}` when it had none). */
  readonly argumentsSha256: string;
  readonly parts: readonly ContextContentPart[];
  readonly isError: boolean;
  readonly truncated: boolean;
  /** Position in the captured branch; orders observed entries (judgment.md §5.2). */
  readonly sequence: number;
}

export interface UserDecisionEvidence {
  readonly userEventId: string;
  readonly parts: readonly ContextContentPart[];
  readonly sequence: number;
}

export interface EvidenceLookup {
  toolResult(branchResultId: string): ToolResultEvidence | undefined;
  /** The latest user message, which a `user-decision` nomination is bound to. */
  latestUserDecision(): UserDecisionEvidence | undefined;
}

/** Until the hooks capture anything, no handle is known. */
export const NO_EVIDENCE: EvidenceLookup = Object.freeze({
  toolResult: () => undefined,
  latestUserDecision: () => undefined,
});
