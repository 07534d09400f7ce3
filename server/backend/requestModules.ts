// The modules behind the backend's rarer requests (Router, Notebook, Observer, agents' configs,
// the Guard and Observer receipts, the team requests), loaded on the first request that needs each: a start
// initialises only what `initialize`, `docket/status` and `docket/workState` use, so the Work
// view's first answer does not wait for modules no view has asked for yet (docs/performance.md
// "Extension start on a large ledger"). They stay in the same bundle, so classes such as
// DocketError are the same on both sides of the call and an error keeps its code.
/* eslint-disable @typescript-eslint/no-require-imports */

/** Loads once, on the first call; later calls return the same module. */
function onFirstUse<T>(load: () => T): () => T {
  let loaded: { readonly module: T } | null = null;
  return () => (loaded ??= { module: load() }).module;
}

export const workspacePlanner = onFirstUse(() => require("../router/workspacePlanner") as typeof import("../router/workspacePlanner"));
export const skillCatalog = onFirstUse(() => require("../developer/operations/skillCatalog") as typeof import("../developer/operations/skillCatalog"));
export const notebookRpc = onFirstUse(() => require("../notebook/notebookRpc") as typeof import("../notebook/notebookRpc"));
export const notebookPath = onFirstUse(() => require("../notebook/notebookPath") as typeof import("../notebook/notebookPath"));
export const observerSaveFlow = onFirstUse(() => require("../observer/observerSaveFlow") as typeof import("../observer/observerSaveFlow"));
export const observerService = onFirstUse(() => require("../observer/observerService") as typeof import("../observer/observerService"));
export const localProcessing = onFirstUse(() => require("../observer/localProcessing") as typeof import("../observer/localProcessing"));
export const observerRuntime = onFirstUse(() => require("../observer/observerRuntime") as typeof import("../observer/observerRuntime"));
export const processingPolicy = onFirstUse(() => require("../observer/processingPolicy") as typeof import("../observer/processingPolicy"));
export const observerReceipts = onFirstUse(() => require("../observer/observerReceipts") as typeof import("../observer/observerReceipts"));
export const guardReceipts = onFirstUse(() => require("../guard/guardReceipts") as typeof import("../guard/guardReceipts"));
export const agentsStatus = onFirstUse(() => require("../agents/agentsStatus") as typeof import("../agents/agentsStatus"));
export const installerFiles = onFirstUse(() => require("../agents/installerFiles") as typeof import("../agents/installerFiles"));
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const gitConnect = onFirstUse(() => require("../team/gitConnect") as typeof import("../team/gitConnect"));
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const teamRequests = onFirstUse(() => require("../team/editorRequests") as typeof import("../team/editorRequests"));
