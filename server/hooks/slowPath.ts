// Entry of dist/docket-hook-slow.js: what the lean hook bundle loads only when it needs it: the
// tail reduction (checkpoint behind), the full replay (checkpoint missing) and the evidence store (capture, recent handles).
// scripts/build.mjs points `./replayState` and `../evidence/evidenceStore` of server/hooks at this
// file, so PreToolUse with a current checkpoint never parses the reducer or the evidence code.
export { catchUpHookState, readGuardLines, replayHookState } from "./replayState";
export { captureToolResult, captureUserDecision, recentEvidence } from "../evidence/evidenceStore";

import { captureUserDecision } from "../evidence/evidenceStore";
import { CAPTURE_USER_DECISION, type PromptCapture } from "./promptCapture";
import { stageUserPrompt } from "../observer/captureWindow";

/** A prompt is at most the hook input's bound; anything larger is not a hook's handoff. */
const MAX_HANDOFF_BYTES = 4 * 1024 * 1024 + 64 * 1024;

/** `node docket-hook-slow.js --capture-user-decision`: one prompt from UserPromptSubmit, on stdin. */
function captureFromStdin(): void {
  const chunks: Buffer[] = [];
  let size = 0;
  process.stdin.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_HANDOFF_BYTES) process.exit(1);
    chunks.push(chunk);
  });
  process.stdin.on("end", () => {
    let capture: PromptCapture;
    try {
      capture = JSON.parse(Buffer.concat(chunks).toString("utf8")) as PromptCapture;
    } catch {
      process.exit(1);
    }
    // The store validates every field (and redacts the prompt) before anything is written.
    captureUserDecision(capture.workspaceFolder, { host: capture.host, sessionId: capture.sessionId, prompt: capture.prompt, occurredAt: capture.occurredAt }).then(
      (captured) => {
        stageUserPrompt(capture.workspaceFolder, capture, captured.userEventId);
        process.exit(0);
      },
      () => process.exit(1),
    );
  });
}

if (require.main === module && process.argv[2] === CAPTURE_USER_DECISION) captureFromStdin();
