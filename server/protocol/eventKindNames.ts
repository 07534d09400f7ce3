// The names of the 18 developer/v8 event kinds (developer-v8.md §3.2), in catalogue order. A leaf
// module so the protocol schemas, the webviews and the reducer share one list without the
// webview bundle pulling in the reducer.
export const EVENT_KINDS = [
  "work-scope-opened",
  "work-scope-closed",
  "change-authorized",
  "implementation-landing-recorded",
  "route-frame-opened",
  "route-frame-replaced",
  "routing-snapshot-opened",
  "routing-page-accounted",
  "routing-coverage-completed",
  "can-serve-basis-created",
  "ready-assignment-recorded",
  "skill-invocation-started",
  "invocation-settled",
  "support-observed",
  "frame-contribution-admitted",
  "frame-blocker-resolved",
  "obligation-discharged",
  "route-frame-concluded",
] as const;
