// `docket observer replay FILE [--json]` (docs/observer-replay.md): replays the Observer entries of
// a Pi session or of Docket ledger lines and prints the issues and the snapshot.
// Exit codes: 0 no issues; 1 at least one issue; 2 usage (no FILE, unreadable FILE, unknown argument).
import { OBSERVER_WORK_COMMANDS, runObserverWorkCommand } from "./observerWorkCli";
import fs from "node:fs";
import path from "node:path";
import { UsageError, parseArgs } from "../cli/args";
import { MAX_PI_SESSION_BYTES } from "../pi/piSession";
import { readObserverLog, ObserverLogError, type ObserverLog } from "./observerLog";
import { replayObservationSession, type ObservationSnapshot } from "./observationSession";

export interface ObserverIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

export interface ReplayIssue {
  /** Zero-based line of FILE. */
  readonly index: number;
  readonly code: string;
  readonly message: string;
}

export interface ReplaySnapshot {
  readonly mode: "off" | "on";
  readonly episodeStatus: "empty" | "open" | "reviewing-save" | "settled";
  readonly episodeId: string | null;
  readonly candidates: readonly string[];
  readonly sourceReads: readonly string[];
  readonly hydrations: readonly string[];
  readonly observations: readonly string[];
  readonly userHypotheses: readonly string[];
  readonly hypothesisReviews: readonly string[];
  readonly memoRequests: readonly string[];
  readonly pendingMemoRequest: string | null;
  readonly consumedObservationIds: readonly string[];
  readonly unconsumedObservationIds: readonly string[];
}

export interface ReplayReport {
  readonly issues: readonly ReplayIssue[];
  readonly snapshot: ReplaySnapshot;
}

function snapshotOf(snapshot: ObservationSnapshot): ReplaySnapshot {
  const episode = snapshot.lifecycle.episode;
  return {
    mode: snapshot.lifecycle.mode,
    episodeStatus: episode.status,
    episodeId: episode.status === "empty" ? null : episode.core.episodeId,
    candidates: snapshot.candidates.map((candidate) => candidate.candidateId),
    sourceReads: snapshot.sourceReads.map((read) => read.readId),
    hydrations: snapshot.hydrations.map((hydration) => hydration.hydrationId),
    observations: snapshot.observations.map((observation) => observation.observationId),
    userHypotheses: snapshot.userHypotheses.map((hypothesis) => hypothesis.observationId),
    hypothesisReviews: snapshot.hypothesisReviews.map((review) => review.hypothesisObservationId),
    memoRequests: snapshot.memoRequests.map((request) => request.requestId),
    pendingMemoRequest: snapshot.pendingMemoRequest?.requestId ?? null,
    consumedObservationIds: snapshot.consumedObservationIds,
    unconsumedObservationIds: snapshot.unconsumedObservationIds,
  };
}

/** Replays a read log; issue indices become lines of the file. */
export function replayObserverLog(log: ObserverLog): ReplayReport {
  const snapshot = replayObservationSession(log.entries);
  const lineOf = (position: number): number => log.lines[position] ?? log.lineCount;
  const issues: ReplayIssue[] = [
    ...log.problems.map((problem) => ({ index: problem.line, code: problem.code, message: problem.message })),
    ...snapshot.issues.map((issue) => ({ index: lineOf(issue.index), code: issue.code, message: issue.message })),
  ];
  return { issues, snapshot: snapshotOf(snapshot) };
}

function readText(file: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, "docket.input-unreadable");
  }
  if (!stat.isFile()) throw new UsageError(`${file} is not a regular file`, "docket.input-unreadable");
  if (stat.size > MAX_PI_SESSION_BYTES) throw new UsageError(`${file} has ${stat.size} bytes; Docket reads at most ${MAX_PI_SESSION_BYTES}`, "docket.input-unreadable");
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, "docket.input-unreadable");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not UTF-8 text`, "docket.input-unreadable");
  }
}

function formatText(report: ReplayReport): string {
  const snapshot = report.snapshot;
  const out: string[] = [];
  for (const issue of report.issues) out.push(`line ${issue.index}\t${issue.code}\t${issue.message}`);
  out.push(`mode ${snapshot.mode}, episode ${snapshot.episodeStatus}${snapshot.episodeId === null ? "" : ` ${snapshot.episodeId}`}`);
  out.push(
    `candidates ${snapshot.candidates.length}, readings ${snapshot.sourceReads.length}, hydrations ${snapshot.hydrations.length}, observations ${snapshot.observations.length}, user hypotheses ${snapshot.userHypotheses.length} (${snapshot.hypothesisReviews.length} reviewed)`,
  );
  out.push(
    `memo requests ${snapshot.memoRequests.length}, pending ${snapshot.pendingMemoRequest ?? "none"}, consumed observations ${snapshot.consumedObservationIds.length}, unconsumed ${snapshot.unconsumedObservationIds.length}`,
  );
  out.push(report.issues.length === 0 ? "ok: no issues" : `${report.issues.length} issue${report.issues.length === 1 ? "" : "s"}: Observer mutation is blocked until they are repaired`);
  return `${out.join("\n")}\n`;
}

function replay(args: readonly string[], io: ObserverIo): number {
  const parsed = parseArgs(args, [], ["json"]);
  if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length === 0 ? "observer replay needs a FILE" : `unexpected argument ${parsed.positionals[1] ?? ""}`);
  const file = path.resolve(io.cwd, parsed.positionals[0] as string);
  let log: ObserverLog;
  try {
    log = readObserverLog(readText(file));
  } catch (error) {
    if (error instanceof ObserverLogError) throw new UsageError(`${file}: ${error.message}`, "docket.input-unreadable");
    throw error;
  }
  const report = replayObserverLog(log);
  io.stdout(parsed.flags.has("json") ? `${JSON.stringify(report)}\n` : formatText(report));
  return report.issues.length === 0 ? 0 : 1;
}

/** `docket observer <subcommand>`; throws UsageError for usage problems (exit 2 in main). */
export function runObserverCommand(args: readonly string[], io: ObserverIo & { readonly stdin?: () => Promise<string> }): number | Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "replay") return replay(rest, io);
  if (sub !== undefined && (OBSERVER_WORK_COMMANDS as readonly string[]).includes(sub)) return runObserverWorkCommand(sub, rest, io);
  throw new UsageError(sub === undefined ? `observer needs a subcommand: replay, ${OBSERVER_WORK_COMMANDS.join(", ")}` : `unknown observer subcommand ${sub}`);
}
