// The Observer view (`docket.observer`). Today it shows the Notebook and its pending proposals
// (extension/proposalTree.ts); the Observer's episodes will join them here.
export { ProposalTreeProvider as ObserverTreeProvider, pendingProposalsBadge } from "./proposalTree";
