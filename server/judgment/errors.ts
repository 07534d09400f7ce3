// The three error classes of the Judgment engine. Every failure carries a stable code; parse
// failures of the schema step carry details.issues[{path, message, keyword}].

export type JudgmentErrorCode = "JUDGMENT_PARSE_INVALID" | "JUDGMENT_CONTEXT_SEAL_FAILED" | "JUDGMENT_TRANSITION_INVALID";

export interface JudgmentErrorDetails {
  readonly [key: string]: unknown;
}

export class JudgmentError extends Error {
  readonly code: JudgmentErrorCode;
  readonly details: JudgmentErrorDetails;

  constructor(code: JudgmentErrorCode, message: string, details: JudgmentErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.details = Object.freeze({ ...details });
  }
}

/** Schema, normalisation and semantic failures (selection, coverage and outcome rules included). */
export class JudgmentParseError extends JudgmentError {
  constructor(message: string, details: JudgmentErrorDetails = {}, options?: { cause?: unknown }) {
    super("JUDGMENT_PARSE_INVALID", message, details, options);
  }
}

/** Acquisition and sealing failures; never accompanied by a partial result. */
export class ContextSealError extends JudgmentError {
  constructor(message: string, details: JudgmentErrorDetails = {}, options?: { cause?: unknown }) {
    super("JUDGMENT_CONTEXT_SEAL_FAILED", message, details, options);
  }
}

/** Illegal lifecycle transitions (reserved for the lifecycle layer). */
export class JudgmentTransitionError extends JudgmentError {
  constructor(message: string, details: JudgmentErrorDetails = {}, options?: { cause?: unknown }) {
    super("JUDGMENT_TRANSITION_INVALID", message, details, options);
  }
}
