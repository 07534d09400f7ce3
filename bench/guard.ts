// The completion guard's hooks as a host pays for them (a whole `node dist/docket-hook.js`
// process per call) on the bench's large ledger with a current checkpoint: Stop with an answer
// backed by a supported review (silent), Stop with an unreviewed "done" (notice) and
// UserPromptSubmit (intake + prompt capture), each next to a bare `node -e 0` start measured in
// the same interleaved rounds (issue 13's target: ≤ 1.5× that floor, median).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openReview, submitReview } from "../server/guard/reviews";
import { WorkspaceLedger } from "../server/workspace/workspaceLedger";

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export async function benchGuardHooks(workspace: string, ledgerPath: string, lines: number, runs: number): Promise<void> {
  fs.writeFileSync(path.join(workspace, "result.txt"), "all 12 tests pass\n");
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath, trusted: true });
  ledger.refresh();
  const draft = "All 12 tests pass (result.txt).";
  const opened = await openReview(ledger, { draft, claims: [{ id: "c1", text: "all 12 tests pass" }], sources: [{ kind: "file", path: "result.txt" }] });
  const submitted = await submitReview(ledger, { reviewId: opened.reviewId, claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }], response: { verdict: "supported", rationale: "result.txt says so" } });
  if (submitted.marker === undefined) throw new Error(`the bench review is ${submitted.status}`);
  const hookBundle = path.join(__dirname, "docket-hook.js");
  const stopInput = (answer: string): string =>
    JSON.stringify({ session_id: "bench-guard", transcript_path: null, cwd: workspace, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: answer });
  const calls: { name: string; event: string; input: string; expect: (stdout: string) => boolean }[] = [
    { name: "Stop, supported review (silent)", event: "Stop", input: stopInput(`${draft}${submitted.marker}`), expect: (stdout) => stdout.trim() === "{}" },
    { name: "Stop, unreviewed done (notice)", event: "Stop", input: stopInput("Done, all tests pass."), expect: (stdout) => stdout.includes('"systemMessage"') },
    {
      name: "UserPromptSubmit (intake + capture)",
      event: "UserPromptSubmit",
      input: JSON.stringify({ session_id: "bench-guard", transcript_path: null, cwd: workspace, hook_event_name: "UserPromptSubmit", prompt: "Run the tests again." }),
      expect: (stdout) => stdout.includes("additionalContext"),
    },
  ];
  const run = (event: string, input: string): string => {
    const result = spawnSync(process.execPath, [hookBundle, "hook", "--host", "claude", event], { input, cwd: workspace, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`hook ${event} failed: ${result.stderr}`);
    return result.stdout;
  };
  // The session's intake, so the silent Stop owes no intake warning.
  run("UserPromptSubmit", calls[2]?.input ?? "");
  for (const call of calls) {
    const stdout = run(call.event, call.input);
    if (!call.expect(stdout)) throw new Error(`unexpected ${call.name} answer: ${stdout}`);
  }
  const times = calls.map((): number[] => []);
  const nodeTimes: number[] = [];
  for (let round = 0; round < runs; round += 1) {
    let start = performance.now();
    spawnSync(process.execPath, ["-e", "0"]);
    nodeTimes.push(performance.now() - start);
    for (const [index, call] of calls.entries()) {
      start = performance.now();
      run(call.event, call.input);
      times[index]?.push(performance.now() - start);
    }
  }
  const nodeMs = median(nodeTimes);
  for (const [index, call] of calls.entries()) {
    const ms = median(times[index] ?? []);
    console.log(`hook ${call.name.padEnd(38)} ${lines} lines  ${ms.toFixed(1)} ms   node -e 0 ${nodeMs.toFixed(1)} ms   ratio ${(ms / nodeMs).toFixed(2)}x (target ≤ 1.5x; median of ${runs})`);
  }
}
