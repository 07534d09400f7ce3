// The `customType`s of `observer/v1` ledger entries (the reference's Observer custom entries), in
// one dependency-free module: the ledger validator (observerEntry.ts, zod/mini) and the protocol
// the webviews bundle (messages.ts, full zod) both take the list from here.
export const OBSERVER_CUSTOM_TYPES = [
  "observer.lifecycle",
  "observer.observation",
  "observer.material-review",
  "observer.prepared-memo-pass",
  "observer.memo-pass",
  "observer.memo-instruction",
  "observer.prepared-save",
  "observer.save-attempt",
  "observer.save-request",
] as const;
