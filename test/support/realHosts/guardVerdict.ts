// Judges one completion-guard session by what the host did at Stop: how often it asked the model for
// the final answer (a continuation is a second request, carrying Docket's reason), how often it ran
// Docket's Stop hook and what it made of the output (Claude Code: the hook output it parsed and the
// notice it showed the user, from `--output-format stream-json` and the debug log; Codex: the run
// and status `codex exec` prints). Docket's own record of the decision (the guard's session file)
// is read only to say what Docket decided beside what the host showed, never instead of it.
import fs from "node:fs";
import path from "node:path";
import type { GuardCase } from "./guardCases";
import type { HostRun } from "./hostRun";
import type { RecordedRequest } from "./stubModel";

/** Docket's Stop notice for an answer without a marker, and its block reason (server/guard/guardDecision.ts). */
const UNSUPPORTED_NOTICE = /^Docket: [^\n]*not backed by a supported review[^\n]*docket\.marker-missing/u;
const REASON_START = "Docket: before you stop";

export interface GuardSessionView {
  /** Model requests of the host's main loop that asked for the final answer (the last step). */
  readonly finalRequests: readonly RecordedRequest[];
  /** Each run of Docket's Stop hook as the host reported it: the output it parsed (Claude) or its status (Codex). */
  readonly stopRuns: readonly string[];
  /** The notices the host showed the user (Claude Code: "Stop says: …" lines). */
  readonly shownNotices: readonly string[];
  /** What Docket recorded for the session's last Stop, or null. */
  readonly docketLastStop: { decision: string; reviewStatus: string } | null;
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      const value = JSON.parse(line) as unknown;
      return typeof value === "object" && value !== null && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

/** Docket's guard session files of this host (`.docket/guard/sessions/<host>-*.json`): the last Stop recorded. */
function docketLastStop(root: string, host: string): GuardSessionView["docketLastStop"] {
  const folder = path.join(root, ".docket", "guard", "sessions");
  if (!fs.existsSync(folder)) return null;
  for (const name of fs.readdirSync(folder).filter((entry) => entry.startsWith(`${host}-`) && entry.endsWith(".json"))) {
    try {
      const session = JSON.parse(fs.readFileSync(path.join(folder, name), "utf8")) as { lastStop?: { decision?: unknown; reviewStatus?: unknown } | null };
      const last = session.lastStop;
      if (last !== null && last !== undefined) return { decision: String(last.decision), reviewStatus: String(last.reviewStatus) };
    } catch {
      // not a session file Docket wrote: ignored
    }
  }
  return null;
}

export function viewGuardSession(run: HostRun, entry: GuardCase, root: string): GuardSessionView {
  const finalStep = entry.steps.length - 1;
  const finalRequests = run.requests.filter((request) => request.dialect !== null && request.step === finalStep);
  let stopRuns: string[];
  let shownNotices: string[];
  if (run.host === "claude") {
    const events = jsonLines(run.stdout);
    // `--include-hook-events`: each hook run with the stdout Claude Code parsed.
    stopRuns = events.filter((event) => event.type === "system" && event.subtype === "hook_response" && event.hook_event === "Stop").map((event) => String(event.output ?? "").trim());
    // A hook's systemMessage as Claude Code shows it to the user.
    shownNotices = events
      .filter((event) => event.type === "system" && event.subtype === "informational" && typeof event.content === "string" && event.content.startsWith("Stop says: "))
      .map((event) => String(event.content));
  } else {
    stopRuns = [...run.log.matchAll(/^hook: Stop (\w+)$/gmu)].map((match) => match[1] ?? "");
    shownNotices = run.log.split("\n").filter((line) => UNSUPPORTED_NOTICE.test(line));
  }
  return { finalRequests, stopRuns, shownNotices, docketLastStop: docketLastStop(root, run.host) };
}

function carriesReason(request: RecordedRequest | undefined): boolean {
  return request !== undefined && JSON.stringify(request.body).includes(REASON_START);
}

/** Claude Code's debug log line for a Stop hook output it parsed and validated. */
function claudeLoggedStopOutputs(log: string): string[] {
  return [...log.matchAll(/"Hook Stop \(Stop\) success:\\n(.*)"$/gmu)].map((match) => (match[1] ?? "").replace(/\\"/gu, '"').replace(/\\\\/gu, "\\"));
}

/** Host limitations this verdict met, with the evidence (the target reports them; they are not failures). */
export interface GuardVerdict {
  readonly failures: string[];
  readonly limitations: string[];
  readonly view: GuardSessionView;
}

/** `codex exec` 0.171.0 prints a Stop hook's run and status but never its systemMessage. */
export const CODEX_EXEC_NOTICE_LIMITATION =
  "codex exec prints each Stop hook run as `hook: Stop <status>` and never its systemMessage (exec's human output prints HookCompleted as event and status only; `--json` prints no hook events; the TUI and app-server clients render hook output entries)";

export function evaluateGuard(run: HostRun, entry: GuardCase, root: string): GuardVerdict {
  const failures: string[] = [];
  const limitations: string[] = [];
  const view = viewGuardSession(run, entry, root);
  if (run.timedOut) failures.push("the host did not finish in time (killed)");
  else if (run.exitCode !== 0) failures.push(`the host exited ${String(run.exitCode ?? run.signal)}; stderr: ${run.stderr.trim().split("\n").slice(-8).join("\n")}`);
  if (run.overflow > 0) failures.push(`the host asked the model ${run.overflow} more times than the stub allows (a loop)`);
  for (const error of run.stubErrors) failures.push(`the stub model failed: ${error}`);

  const expectedFinal = entry.outcome === "continued-once" ? 2 : 1;
  if (view.finalRequests.length !== expectedFinal) {
    failures.push(`the host asked the model for the final answer ${view.finalRequests.length} time(s), expected ${expectedFinal}${entry.outcome === "continued-once" ? " (exactly one continuation)" : " (no continuation)"}`);
  }
  if (entry.outcome === "continued-once") {
    if (carriesReason(view.finalRequests[0])) failures.push("the first request for the final answer already carried Docket's reason");
    if (view.finalRequests.length >= 2 && !carriesReason(view.finalRequests[1])) failures.push(`the continuation request did not carry Docket's reason ("${REASON_START} …")`);
  } else if (view.finalRequests.some(carriesReason)) {
    failures.push("the model was told Docket's block reason although this mode and answer never block");
  }

  const expectedRuns = expectedFinal;
  if (view.stopRuns.length !== expectedRuns) failures.push(`the host reports ${view.stopRuns.length} run(s) of Docket's Stop hook, expected ${expectedRuns}: ${JSON.stringify(view.stopRuns)}`);
  if (run.host === "claude") {
    const logged = claudeLoggedStopOutputs(run.log);
    if (logged.length !== expectedRuns) failures.push(`Claude Code's debug log shows ${logged.length} parsed Stop hook output(s), expected ${expectedRuns}`);
    if (!/Successfully parsed and validated hook JSON output/u.test(run.log)) failures.push("Claude Code's debug log never says it parsed and validated a hook's JSON output");
    const outputs = view.stopRuns.map((output) => {
      try {
        return JSON.parse(output) as Record<string, unknown>;
      } catch {
        return { unparsed: output };
      }
    });
    if (entry.outcome === "silent") {
      if (!outputs.every((output) => Object.keys(output).length === 0)) failures.push(`Docket's Stop hook answered ${JSON.stringify(view.stopRuns)}, expected {}`);
      if (view.shownNotices.length > 0) failures.push(`Claude Code showed a Stop notice: ${JSON.stringify(view.shownNotices)}`);
    } else {
      const first = outputs[0] ?? {};
      const last = outputs[outputs.length - 1] ?? {};
      if (entry.outcome === "continued-once" && !(first.decision === "block" && typeof first.reason === "string" && first.reason.startsWith(REASON_START))) {
        failures.push(`the first Stop output was not Docket's block: ${JSON.stringify(view.stopRuns[0] ?? null)}`);
      }
      if ("decision" in last) failures.push(`the last Stop output still blocks: ${JSON.stringify(view.stopRuns[view.stopRuns.length - 1] ?? null)}`);
      if (typeof last.systemMessage !== "string" || !UNSUPPORTED_NOTICE.test(last.systemMessage)) failures.push(`the last Stop output carries no notice: ${JSON.stringify(view.stopRuns[view.stopRuns.length - 1] ?? null)}`);
      const shown = view.shownNotices[view.shownNotices.length - 1] ?? "";
      if (!UNSUPPORTED_NOTICE.test(shown.replace(/^Stop says: /u, ""))) failures.push(`Claude Code showed no Docket notice at Stop (stream-json informational lines: ${JSON.stringify(view.shownNotices)})`);
    }
  } else {
    const expectedStatuses = entry.outcome === "continued-once" ? ["Blocked", "Completed"] : ["Completed"];
    if (JSON.stringify(view.stopRuns) !== JSON.stringify(expectedStatuses)) failures.push(`Codex reports the Stop hook runs as ${JSON.stringify(view.stopRuns)}, expected ${JSON.stringify(expectedStatuses)}`);
    const decision = view.docketLastStop?.decision ?? null;
    const expectedDecision = entry.outcome === "silent" ? "silent" : "notice";
    if (decision !== expectedDecision) failures.push(`Docket recorded the last Stop as ${String(decision)}, expected ${expectedDecision}`);
    if (entry.outcome === "silent" && view.docketLastStop?.reviewStatus !== "supported") failures.push(`Docket recorded the review as ${String(view.docketLastStop?.reviewStatus)}, expected supported`);
    if (entry.outcome !== "silent" && view.shownNotices.length === 0) limitations.push(CODEX_EXEC_NOTICE_LIMITATION);
  }
  return { failures, limitations, view };
}
