// The completion guard inside the hooks: intake binding on UserPromptSubmit / SessionStart, tool
// activity on PostToolUse, and the Stop check (server/guard/guardCheck.ts) turned into a hook
// decision. Stop never fails the host: an internal error becomes a notice that says nothing was
// checked, never a block and never silence that could pass for proof.
import { checkStop, type GuardCheckOutcome, type GuardLedgerState, type StopAnswerInput } from "../guard/guardCheck";
import { recordIntake, recordToolActivity } from "../guard/guardSession";
import { containmentRootFor } from "../workspace/ledgerPaths";
import type { HookState } from "./hookState";
import type { HookDecision } from "./hostOutput";

/** How long a Stop may spend reading the whole ledger when a review's locator does not answer. */
const FULL_READ_MS = 3_000;

function ledgerStateOf(state: HookState): GuardLedgerState {
  if (state.kind === "off") return { kind: "off" };
  if (state.kind === "blocked") return { kind: "blocked", reason: state.reason };
  return { kind: "ready", state: state.state };
}

export interface GuardStopInput {
  readonly state: HookState;
  readonly answer: StopAnswerInput;
  readonly host: string;
  readonly sessionId: string | null;
  readonly alreadyContinued: boolean;
  readonly now: string;
  readonly deadline?: number;
  /** Record the session's decision (false for `docket guard check`, which only reports). */
  readonly record: boolean;
}

export function runStopCheck(input: GuardStopInput): GuardCheckOutcome {
  const { state } = input;
  const root = containmentRootFor(state.workspaceFolder, state.ledgerPath);
  return checkStop({
    workspaceFolder: state.workspaceFolder,
    ledgerPath: state.ledgerPath,
    root,
    ledger: ledgerStateOf(state),
    answer: input.answer,
    host: input.host,
    sessionId: input.sessionId,
    alreadyContinued: input.alreadyContinued,
    now: input.now,
    record: input.record,
    readGuardLines: () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const slow = require("./replayState") as typeof import("./replayState");
      const deadline = Math.min(input.deadline ?? Number.POSITIVE_INFINITY, Date.now() + FULL_READ_MS);
      return slow.readGuardLines(state.ledgerPath, root, { deadline });
    },
  });
}

/** The Stop hook's decision; never throws. */
export function guardStopDecision(input: GuardStopInput): { decision: HookDecision; notes: string[] } {
  try {
    const outcome = runStopCheck(input);
    const notes = [...outcome.notes];
    if (outcome.decision === "block" && outcome.blockReason !== null) return { decision: { kind: "block", reason: outcome.blockReason, notice: outcome.notice }, notes };
    if (outcome.decision !== "silent" && outcome.notice !== null) return { decision: { kind: "notice", text: outcome.notice }, notes };
    return { decision: { kind: "none" }, notes };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      decision: { kind: "notice", text: `Docket: the completion check failed (docket.internal: ${why}); it checked nothing, and nothing here is proof of completion.` },
      notes: [`the completion check failed: ${why}`],
    };
  }
}

/** Binds the session to the latest human input; only where Docket governs (a scope is open). */
export function recordHookIntake(state: HookState, host: string, sessionId: string | null, event: "UserPromptSubmit" | "SessionStart", prompt: string | null, at: string): boolean {
  if (state.kind !== "ready" || !state.state.facts.scopeActive || sessionId === null) return true;
  return recordIntake(state.workspaceFolder, host, sessionId, { event, prompt, at });
}

export function recordHookToolActivity(state: HookState, host: string, sessionId: string | null): boolean {
  if (state.kind !== "ready" || !state.state.facts.scopeActive || sessionId === null) return true;
  return recordToolActivity(state.workspaceFolder, host, sessionId);
}
