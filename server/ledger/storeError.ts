// Why a ledger write was refused. Its own module, so code that only maps errors to codes
// (errors.ts) does not load the store and replay with it.
export class StoreError extends Error {
  constructor(
    readonly code:
      | "ledger-locked"
      | "ledger-unwritable"
      | "ledger-foreign"
      | "ledger-corrupt"
      | "ledger-changed-under-writer"
      | "ledger-truncated"
      | "ledger-rewritten"
      | "ledger-unsafe-path"
      | "preflight-rejected",
    message: string,
  ) {
    super(message);
    this.name = "StoreError";
  }
}
