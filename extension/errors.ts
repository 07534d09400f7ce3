// Errors the client surfaces: every failure of a `docket/*` request becomes a DocketError with a
// stable `code` (logged) and a `message` (shown). No `vscode` import: unit-testable.
import { DocketErrorData } from "../server/protocol/messages";

/** Codes the client itself produces, next to the backend's `ErrorCodes`. */
export const ClientErrorCodes = {
  /** The backend is starting, restarting or stopped. */
  backendUnavailable: "docket.backend-unavailable",
  /** The backend answered with something the protocol schema rejects. */
  protocolMismatch: "docket.protocol-mismatch",
  /** The client was about to send params the protocol schema rejects. */
  invalidParams: "docket.invalid-params",
  /** A JSON-RPC failure without Docket error data. */
  requestFailed: "docket.request-failed",
} as const;

export class DocketError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly method: string | null = null,
  ) {
    super(message);
    this.name = "DocketError";
  }
}

/** JSON-RPC codes vscode-jsonrpc uses when the connection is gone (see vscode-jsonrpc ErrorCodes). */
const CONNECTION_GONE = new Set([-32099, -32098, -32097, -32096]);

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
}

/** Maps anything a request can reject with to a DocketError. */
export function toDocketError(error: unknown, method: string | null): DocketError {
  if (error instanceof DocketError) {
    return error;
  }
  const fields = record(error);
  if (fields !== null) {
    const data = DocketErrorData.safeParse(fields["data"]);
    if (data.success) {
      return new DocketError(data.data.code, data.data.message, method);
    }
    const code = fields["code"];
    const message = typeof fields["message"] === "string" ? fields["message"] : String(error);
    if (typeof code === "number" && CONNECTION_GONE.has(code)) {
      return new DocketError(ClientErrorCodes.backendUnavailable, message, method);
    }
    return new DocketError(ClientErrorCodes.requestFailed, message, method);
  }
  return new DocketError(ClientErrorCodes.requestFailed, String(error), method);
}
