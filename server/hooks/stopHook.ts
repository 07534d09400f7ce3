// The Stop hook's decision: the one seam between the host-facing Stop I/O (hostInput.ts reads
// the answer's fields, hostOutput.ts renders notices and blocks per host) and the completion
// guard (guard.md "At Stop"), which decides here. Until the guard lands, Stop says nothing.
import type { HookState } from "./hookState";
import type { HookInput } from "./hostInput";
import type { HookDecision } from "./hostOutput";
import type { HookRun } from "./runHook";

/** What a Stop decision may use of the hook call besides its input and state. */
export type StopRun = Pick<HookRun, "host" | "cwd" | "now" | "deadline" | "captureTimeoutMs" | "configuredWorkspace" | "runtimeDir">;

/**
 * The decision for one Stop call in the first governing workspace's state (`off` when none
 * governs). `notes` go to the hook's stderr, one line each. Must not throw for anything the host
 * or the workspace presents; runHook renders the decision in the caller's dialect (a block needs
 * a non-empty reason and must yield when `input.stopHookActive`).
 */
export async function stopDecision(run: StopRun, input: HookInput, state: HookState): Promise<{ decision: HookDecision; notes: string[] }> {
  void run;
  void input;
  void state;
  return { decision: { kind: "none" }, notes: [] };
}
