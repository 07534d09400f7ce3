// The checkpoint's seal: a hash over the ledger position and the state it records. Every writer
// seals what it writes; a reader that shows the state as the ledger's (`docket status`, `docket
// policy`) uses a checkpoint only when its seal still matches, so a state edited by hand, or
// moved from another position of the ledger, reads as unusable and the reader replays.
// A seal is not a signature: whoever can write `.docket/` and knows this format can write a
// matching one, as they could rewrite the ledger and its anchor (docs/guarantees.md).
import { hashValue } from "../ledger/canonicalJson";
import type { Checkpoint, CheckpointState } from "./checkpoint";
import { CHECKPOINT_FORMAT } from "./checkpointPath";

const SEAL_DOMAIN = "docket/hook-checkpoint-seal/v1";

function sealOf(ledger: Checkpoint["ledger"], state: CheckpointState): string {
  return hashValue({ domain: SEAL_DOMAIN, value: { ledger, state } });
}

export function sealedCheckpoint(ledger: Checkpoint["ledger"], state: CheckpointState): Checkpoint {
  return { format: CHECKPOINT_FORMAT, ledger, state, seal: sealOf(ledger, state) };
}

export function sealIntact(checkpoint: Checkpoint): boolean {
  return sealOf(checkpoint.ledger, checkpoint.state) === checkpoint.seal;
}
