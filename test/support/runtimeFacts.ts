// The runtime facts of an open work scope where nothing has happened yet: tests start from here
// and override the facts they are about.
import type { RuntimeFacts } from "../../server/developer/toolPolicy";

export const IDLE_SCOPE_FACTS: RuntimeFacts = Object.freeze({
  blocked: false,
  scopeActive: true,
  authorizationActive: false,
  openFrame: false,
  concludedFrameExists: false,
  reroutePending: false,
  verificationPending: false,
});
