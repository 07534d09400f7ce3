// Replay fault codes of developer/v8 §7.2. A fault rejects one entry; replay carries on.
export const REPLAY_FAULT_CODES = [
  "unsupported-protocol",
  "invalid-envelope",
  "duplicate-event-id",
  "scope-not-open",
  "scope-already-open",
  "scope-sequence-mismatch",
  "scope-chain-mismatch",
  "unresolved-causal-ref",
  "unknown-event-kind",
  "invalid-payload",
  "routing-state-missing",
  "basis-missing",
  "source-causality-missing",
  "semantic-transition-rejected",
] as const;
export type ReplayFaultCode = (typeof REPLAY_FAULT_CODES)[number];

export class ReplayFault extends Error {
  constructor(
    readonly code: ReplayFaultCode,
    message: string,
  ) {
    super(message);
    this.name = "ReplayFault";
  }
}

export function stop(code: ReplayFaultCode, message: string): never {
  throw new ReplayFault(code, message);
}
