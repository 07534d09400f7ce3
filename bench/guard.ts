// The completion guard's hooks as a host pays for them (a whole `node dist/docket-hook.js`
// process per call) on a large realistic ledger, ending with a scope just opened, with a current checkpoint: Stop with an answer
// backed by a supported review (silent), Stop with an unreviewed "done" (notice) and
// UserPromptSubmit (intake + prompt capture), each next to a bare `node -e 0` start measured in
// the same interleaved rounds, in CPU time (issue 13's target: ≤ 1.5× that floor, median).
import fs from "node:fs";
import path from "node:path";
import { openReview, submitReview } from "../server/guard/reviews";
import { WorkspaceLedger } from "../server/workspace/workspaceLedger";
import { figure, measuredOf, type BenchFigure } from "./figure";
import { workspaceWithLedger } from "./hooks";
import { interleavedRounds, samplesOf, type Arm, type ProducerOptions } from "./runner";
import { openScopeLines, realisticLedger } from "./workloads";

export async function guardFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  const scopes = Number(process.env.DOCKET_BENCH_HOOK_SCOPES ?? (options.quick ? 1_000 : 5_000));
  const plannedRounds = options.rounds ?? (options.quick ? 7 : 21);
  const cached = realisticLedger(scopes);
  const { workspace, ledgerPath } = workspaceWithLedger(options.directory, "guard-workspace", cached.file, openScopeLines(cached.file, "opened"));
  fs.writeFileSync(path.join(workspace, "result.txt"), "all 12 tests pass\n");
  const ledger = new WorkspaceLedger({ workspaceFolder: workspace, ledgerPath, trusted: true });
  ledger.refresh();
  const draft = "All 12 tests pass (result.txt).";
  const opened = await openReview(ledger, { draft, claims: [{ id: "c1", text: "all 12 tests pass" }], sources: [{ kind: "file", path: "result.txt" }] });
  const submitted = await submitReview(ledger, { reviewId: opened.reviewId, claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }], response: { verdict: "supported", rationale: "result.txt says so" } });
  if (submitted.marker === undefined) throw new Error(`the bench review is ${submitted.status}`);
  const lines = ledger.store.lineCount;
  const stopInput = (answer: string): string =>
    JSON.stringify({ session_id: "bench-guard", transcript_path: null, cwd: workspace, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: answer });
  const promptInput = JSON.stringify({ session_id: "bench-guard", transcript_path: null, cwd: workspace, hook_event_name: "UserPromptSubmit", prompt: "Run the tests again." });
  const calls = [
    { id: "guard.stop.supported", label: "Stop, supported review (silent)", event: "Stop", input: stopInput(`${draft}${submitted.marker}`), expect: (stdout: string) => stdout.trim() === "{}" },
    { id: "guard.stop.notice", label: "Stop, unreviewed done (notice)", event: "Stop", input: stopInput("Done, all tests pass."), expect: (stdout: string) => stdout.includes('"systemMessage"') },
    { id: "guard.userPromptSubmit", label: "UserPromptSubmit (intake + capture)", event: "UserPromptSubmit", input: promptInput, expect: (stdout: string) => stdout.includes("additionalContext") },
  ].filter((call) => options.wants(call.id));
  if (calls.length === 0) return [];
  const hook = (event: string, input: string) => {
    const run = options.meter.run({ args: [path.join(__dirname, "docket-hook.js"), "hook", "--host", "claude", event], cwd: workspace, input });
    if (run.status !== 0) throw new Error(`hook ${event} failed (${run.status}): ${run.stderr}`);
    return run;
  };
  // The session's intake, so the silent Stop owes no intake warning.
  hook("UserPromptSubmit", promptInput);
  const arms: Arm[] = [
    { name: "floor", measure: () => options.meter.run({ args: ["-e", "0"], cwd: workspace }).sample },
    ...calls.map((call) => ({
      name: call.id,
      measure: () => {
        const run = hook(call.event, call.input);
        if (!call.expect(run.stdout)) throw new Error(`unexpected ${call.label} answer: ${run.stdout}`);
        return run.sample;
      },
    })),
  ];
  const { samples, rounds } = interleavedRounds(arms, { rounds: plannedRounds, warmUps: 1, budgetMs: options.budgetMs });
  const floor = { label: "node -e 0", measured: measuredOf(samplesOf(samples, "floor")) };
  return calls.map((call) =>
    figure({
      id: call.id,
      label: `guard hook ${call.label}`,
      workload: `${lines.toLocaleString("en-US")} events, current checkpoint`,
      rounds,
      measured: measuredOf(samplesOf(samples, call.id)),
      floor,
      basis: "cpu",
      target: { max: 1.5, kind: "ratio", text: "≤ 1.5× node -e 0 (issue 13)" },
    }),
  );
}
