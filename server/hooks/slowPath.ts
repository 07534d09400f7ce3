// Entry of dist/docket-hook-slow.js: what the lean hook bundle loads only when it needs it: the
// full replay (checkpoint missing, or a tail its seed cannot answer) and the evidence store
// (capture, recent handles). scripts/build.mjs points `./replayState` and
// `../evidence/evidenceStore` of server/hooks at this file, so PreToolUse with a current checkpoint
// never parses the reducer or the evidence code. A checkpoint behind loads docket-hook-tail.js
// (tailCatchUp.ts) instead, which holds the tail reduction alone.
export { readGuardLines, replayHookState } from "./replayState";
export { captureToolResult, captureUserDecision, recentEvidence } from "../evidence/evidenceStore";

import { captureUserDecision } from "../evidence/evidenceStore";
import { CAPTURE_USER_DECISION, type PromptCapture } from "./promptCapture";
import { stageUserPrompt } from "../observer/captureWindow";
import { CAPTURE_HELPER } from "./captureHelperProtocol";
import { helperOptionsFromArgv, runCaptureHelper } from "./captureHelperServer";

/** A prompt is at most the hook input's bound; anything larger is not a hook's handoff. */
const MAX_HANDOFF_BYTES = 4 * 1024 * 1024 + 64 * 1024;

/** Reads one capture handed over on stdin (bounded), then runs `capture` and exits with its outcome. */
function captureFromStdin<T>(capture: (value: T) => Promise<void>): void {
  const chunks: Buffer[] = [];
  let size = 0;
  process.stdin.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_HANDOFF_BYTES) process.exit(1);
    chunks.push(chunk);
  });
  process.stdin.on("end", () => {
    let value: T;
    try {
      value = JSON.parse(Buffer.concat(chunks).toString("utf8")) as T;
    } catch {
      process.exit(1);
    }
    capture(value).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

/** `node docket-hook-slow.js --capture-user-decision`: one prompt from UserPromptSubmit. */
async function capturePrompt(capture: PromptCapture): Promise<void> {
  // The store validates every field (and redacts the prompt) before anything is written.
  const captured = await captureUserDecision(capture.workspaceFolder, { host: capture.host, sessionId: capture.sessionId, prompt: capture.prompt, occurredAt: capture.occurredAt });
  stageUserPrompt(capture.workspaceFolder, capture, captured.userEventId);
}

if (require.main === module && process.argv[2] === CAPTURE_USER_DECISION) captureFromStdin(capturePrompt);
if (require.main === module && process.argv[2] === CAPTURE_HELPER) {
  void runCaptureHelper(process.argv[3] ?? "", helperOptionsFromArgv(process.argv.slice(4))).then((started) => {
    if (!started) process.exit(0);
  });
}
