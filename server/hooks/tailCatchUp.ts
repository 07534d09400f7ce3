// Entry of dist/docket-hook-tail.js: a hook whose checkpoint is behind loads only the tail
// reduction (the reducer, line decoding, the id log), not the store, the full replay or the
// evidence code of docket-hook-slow.js, which it loads only when the seed cannot answer.
import type { Checkpoint } from "./checkpoint";
import type { OpenLedger } from "./openLedger";
import type { ReplayedState } from "./replayState";
import { reduceTail } from "./tailReduction";

/** The state after the lines a checkpoint is behind by; a full replay only when the seed cannot answer. */
export function catchUpHookState(ledger: OpenLedger, checkpoint: Checkpoint, options: { deadline?: number } = {}): ReplayedState {
  const reduced = reduceTail(ledger, checkpoint);
  if (reduced === null) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const slow = require("./replayState") as typeof import("./replayState");
    return slow.replayHookState(ledger, options);
  }
  return reduced.kind === "fault" ? reduced : { kind: "state", state: reduced.state, source: "tail" };
}
