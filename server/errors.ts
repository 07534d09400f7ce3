// Coded errors shared by the backend, the CLI and (through JSON-RPC error data) the extension.
import { ErrorCodes, type ErrorCode } from "./protocol/errorCodes";
import { StoreError } from "./ledger/storeError";
import { UnsafePathError } from "./workspace/containedFs";

export class DocketError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Structured facts behind the sentence (e.g. a refused proposal's diagnostics) for callers that can show them. */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = "DocketError";
  }
}

const STORE_CODES: Record<StoreError["code"], ErrorCode> = {
  "ledger-locked": ErrorCodes.ledgerLocked,
  "ledger-unwritable": ErrorCodes.ledgerUnwritable,
  "ledger-foreign": ErrorCodes.ledgerForeign,
  "ledger-corrupt": ErrorCodes.ledgerCorrupt,
  "ledger-changed-under-writer": ErrorCodes.ledgerCorrupt,
  "ledger-truncated": ErrorCodes.ledgerTruncated,
  "ledger-rewritten": ErrorCodes.ledgerRewritten,
  "ledger-unsafe-path": ErrorCodes.unsafePath,
  "preflight-rejected": ErrorCodes.preflightRejected,
};

/** Maps any thrown value to a DocketError without losing its message. */
export function toDocketError(error: unknown): DocketError {
  if (error instanceof DocketError) return error;
  if (error instanceof StoreError) return new DocketError(STORE_CODES[error.code], error.message);
  if (error instanceof UnsafePathError) return new DocketError(ErrorCodes.unsafePath, error.message);
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (errno === "EACCES" || errno === "EPERM" || errno === "EROFS" || errno === "EISDIR" || errno === "ENOTDIR") {
    return new DocketError(ErrorCodes.ledgerUnwritable, (error as Error).message);
  }
  return new DocketError(ErrorCodes.internal, error instanceof Error ? error.message : String(error));
}
