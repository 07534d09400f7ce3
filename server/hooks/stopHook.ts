// The Stop hook's decision: the one seam between the host-facing Stop I/O (hostInput.ts reads
// the answer's fields, hostOutput.ts renders notices and blocks per host) and the completion
// guard (guard.md "At Stop"): the answer from `last_assistant_message`, else the host's
// transcript, else unavailable; the host's already-continued flag; the guard's decision.
import { stopAnswer } from "../guard/stopAnswer";
import { guardStopDecision } from "./guardHook";
import type { HookState } from "./hookState";
import type { HookInput } from "./hostInput";
import type { HookDecision } from "./hostOutput";
import type { HookRun } from "./runHook";

/** What a Stop decision may use of the hook call besides its input and state. */
export type StopRun = Pick<HookRun, "host" | "cwd" | "now" | "deadline" | "captureTimeoutMs" | "configuredWorkspace" | "runtimeDir">;

/**
 * The decision for one Stop call in the first governing workspace's state (`off` when none
 * governs). `notes` go to the hook's stderr, one line each. Never throws; runHook renders the
 * decision in the caller's dialect.
 */
export async function stopDecision(run: StopRun, input: HookInput, state: HookState): Promise<{ decision: HookDecision; notes: string[] }> {
  // Docket off here: no answer is read at all.
  if (state.kind === "off") return { decision: { kind: "none" }, notes: [] };
  const answer = stopAnswer({ lastAssistantMessage: input.lastAssistantMessage, transcriptPath: input.transcriptPath, dialect: input.dialect });
  return guardStopDecision({
    state,
    answer,
    host: input.dialect,
    sessionId: input.sessionId,
    alreadyContinued: input.stopHookActive,
    now: run.now(),
    ...(run.deadline === undefined ? {} : { deadline: run.deadline }),
    record: true,
  });
}
