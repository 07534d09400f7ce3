// Entry of dist/docket-hook-slow.js: what the lean hook bundle loads only when it needs it: the
// tail reduction (checkpoint behind), the full replay (checkpoint missing) and the evidence store (capture, recent handles).
// scripts/build.mjs points `./replayState` and `../evidence/evidenceStore` of server/hooks at this
// file, so PreToolUse with a current checkpoint never parses the reducer or the evidence code.
export { catchUpHookState, readGuardLines, replayHookState } from "./replayState";
export { captureToolResult, captureUserDecision, recentEvidence } from "../evidence/evidenceStore";
