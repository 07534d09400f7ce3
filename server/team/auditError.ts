// The audit's coded refusal: a DocketError that also says which exit code `docket audit` gives it
// (2: the range, repository or paths cannot be audited; 3: the ledger is not understood).
import { DocketError } from "../errors";
import type { ErrorCode } from "../protocol/errorCodes";

export class AuditError extends DocketError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly exitCode: 2 | 3,
  ) {
    super(code, message);
    this.name = "AuditError";
  }
}
