// Where the checkpoint lives and which format it is written in, without its schemas (checkpoint.ts):
// writers of the tail bundle name the file and seal the format without building the parser.

export const CHECKPOINT_FORMAT = "docket/hook-checkpoint/v3";

/** Next to the ledger, so a custom ledger path keeps its own checkpoint. */
export function checkpointPathFor(ledgerPath: string): string {
  return `${ledgerPath}.checkpoint.json`;
}
