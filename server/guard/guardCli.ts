// `docket review open|submit` and `docket guard check|mode` (docs/guard.md "Command line"): the
// completion guard for scripts, tests and CI, with exactly the contracts of the MCP tools and the
// Stop hook. Requests arrive as JSON on stdin; results are JSON on stdout with --json.
// Exit codes: 0 recorded / reported; 1 a coded refusal (nothing written); 2 usage.
import path from "node:path";
import fs from "node:fs";
import { UsageError, parseArgs, stringFlag, type ParsedArgs } from "../cli/args";
import { readStdinText } from "../cli/stdin";
import { toDocketError } from "../errors";
import { readHookState } from "../hooks/hookState";
import { resolveHookWorkspaces } from "../hooks/hookWorkspace";
import { runStopCheck } from "../hooks/guardHook";
import { findWorkspaceRoot, resolveLedgerPath } from "../workspace/ledgerPaths";
import { WorkspaceLedger } from "../workspace/workspaceLedger";
import { GUARD_MODES, type GuardMode } from "./guardDecision";
import { readGuardMode, writeGuardMode } from "./guardFiles";
import { MAX_DRAFT_BYTES, type GuardCheckResult } from "./guardSchema";
import { openReview, submitReview } from "./reviews";
import type { StopAnswerInput } from "./guardCheck";

export interface GuardIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** The request text; process stdin when absent. */
  readonly stdin?: () => Promise<string>;
}

/** A request is a draft (≤ 256 KiB) plus claims and sources: 4 MiB is far beyond any honest one. */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

async function readRequest(io: GuardIo): Promise<unknown> {
  const text = await (io.stdin ?? (() => readStdinText(MAX_REQUEST_BYTES)))();
  if (Buffer.byteLength(text, "utf8") > MAX_REQUEST_BYTES) throw new UsageError(`the request on stdin is larger than ${MAX_REQUEST_BYTES} bytes`, "docket.input-unreadable");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError("the request on stdin is not JSON", "docket.input-unreadable");
  }
}

function workspaceOf(parsed: ParsedArgs, io: GuardIo): { workspaceFolder: string; ledgerPath: string } {
  const workspace = stringFlag(parsed, "workspace");
  const workspaceFolder = workspace !== undefined ? path.resolve(io.cwd, workspace) : findWorkspaceRoot(io.cwd);
  if (!fs.statSync(workspaceFolder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`no folder at ${workspaceFolder}`, "docket.no-workspace");
  return { workspaceFolder, ledgerPath: resolveLedgerPath(workspaceFolder, null) };
}

function refused(error: unknown, io: GuardIo, json: boolean): number {
  const coded = toDocketError(error);
  if (json) io.stdout(`${JSON.stringify({ error: { code: coded.code, message: coded.message } })}\n`);
  io.stderr(`docket: ${coded.code}: ${coded.message}\n`);
  return 1;
}

export async function runReviewCommand(args: readonly string[], io: GuardIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "open" && sub !== "submit") throw new UsageError(sub === undefined ? "review needs a subcommand: open or submit" : `unknown review subcommand ${sub}`);
  const parsed = parseArgs(rest, ["workspace"], ["json"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const json = parsed.flags.has("json");
  const located = workspaceOf(parsed, io);
  const request = await readRequest(io);
  // A person or script at a terminal runs this: the workspace is trusted.
  const ledger = new WorkspaceLedger({ ...located, trusted: true, actor: { kind: "terminal", client: null, session: null } });
  try {
    ledger.refresh();
    if (sub === "open") {
      const result = await openReview(ledger, request);
      io.stdout(json ? `${JSON.stringify(result)}\n` : `${result.reviewId}\n${result.sources.map((source) => `${source.sourceId}\t${source.kind}\t${source.sha256}\t${source.path ?? source.handle ?? ""}`).join("\n")}\n`);
      return 0;
    }
    const result = await submitReview(ledger, request);
    if (json) io.stdout(`${JSON.stringify(result)}\n`);
    else io.stdout(result.status === "supported" ? `supported ${result.reviewId}\nAppend to the answer:${result.marker ?? ""}` : `${result.status} ${result.reviewId}\n${result.decisionInput?.next ?? ""}\n`);
    return 0;
  } catch (error) {
    return refused(error, io, json);
  }
}

function answerFrom(file: string | undefined, io: GuardIo): StopAnswerInput {
  if (file === undefined) return { kind: "unavailable", code: "docket.answer-unavailable", reason: "no --answer-file was given" };
  const absolute = path.resolve(io.cwd, file);
  let fd: number;
  try {
    fd = fs.openSync(absolute, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new UsageError(`cannot read ${absolute}: ${(error as Error).message}`, "docket.input-unreadable");
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`${absolute} is not a regular file`, "docket.input-unreadable");
    if (stat.size > MAX_DRAFT_BYTES) return { kind: "unavailable", code: "docket.answer-too-large", reason: `the answer has ${stat.size} bytes, more than the ${MAX_DRAFT_BYTES} Docket checks` };
    try {
      return { kind: "text", text: new TextDecoder("utf-8", { fatal: true }).decode(fs.readFileSync(fd)), source: "answer-file" };
    } catch {
      throw new UsageError(`${absolute} is not UTF-8 text`, "docket.input-unreadable");
    }
  } finally {
    fs.closeSync(fd);
  }
}

function renderCheck(result: GuardCheckResult): string {
  const lines = [
    `docket on: ${result.docketOn ? "yes" : "no"} (mode ${result.mode})`,
    `review: ${result.review.status}${result.review.cause === null ? "" : ` (${result.review.cause})`} — ${result.review.message}`,
    ...result.remaining.map((item) => `remaining: ${item.kind}: ${item.text}`),
    `decision: ${result.decision}`,
  ];
  if (result.notice !== null) lines.push("", result.notice);
  return `${lines.join("\n")}\n`;
}

export async function runGuardCommand(args: readonly string[], io: GuardIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "mode") {
    const parsed = parseArgs(rest, ["workspace"], ["json"]);
    if (parsed.positionals.length > 1) throw new UsageError(`unexpected argument ${parsed.positionals[1] ?? ""}`);
    const { workspaceFolder } = workspaceOf(parsed, io);
    const wanted = parsed.positionals[0];
    if (wanted !== undefined) {
      if (!(GUARD_MODES as readonly string[]).includes(wanted)) throw new UsageError(`the guard mode is one of ${GUARD_MODES.join(", ")}, not ${wanted}`);
      writeGuardMode(workspaceFolder, wanted as GuardMode);
    }
    const mode = readGuardMode(workspaceFolder).mode;
    io.stdout(parsed.flags.has("json") ? `${JSON.stringify({ mode })}\n` : `guard mode: ${mode}\n`);
    return 0;
  }
  if (sub !== "check") throw new UsageError(sub === undefined ? "guard needs a subcommand: check or mode" : `unknown guard subcommand ${sub}`);
  const parsed = parseArgs(rest, ["workspace", "answer-file", "session", "host"], ["json", "continued"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const { workspaceFolder } = workspaceOf(parsed, io);
  const host = stringFlag(parsed, "host") ?? "claude";
  if (host !== "claude" && host !== "codex" && host !== "vscode") throw new UsageError("--host is one of claude, codex, vscode");
  const answer = answerFrom(stringFlag(parsed, "answer-file"), io);
  const workspaces = resolveHookWorkspaces({ configured: workspaceFolder, cwd: workspaceFolder, paths: [] });
  const governing = workspaces.docketOn.find((candidate) => candidate.folder === workspaceFolder) ?? workspaces.docketOn[0];
  const state =
    governing === undefined
      ? ({ kind: "off", workspaceFolder, ledgerPath: resolveLedgerPath(workspaceFolder, null) } as const)
      : readHookState(governing.folder, governing.ledgerPath, { deadline: Date.now() + 10_000 });
  const outcome = runStopCheck({
    state,
    answer,
    host,
    sessionId: stringFlag(parsed, "session") ?? null,
    alreadyContinued: parsed.flags.has("continued"),
    now: new Date().toISOString(),
    record: false,
  });
  const result: GuardCheckResult = {
    docketOn: outcome.docketOn,
    mode: outcome.mode,
    answer: outcome.answer,
    review: outcome.review,
    remaining: outcome.remaining,
    intakeWarning: outcome.intakeWarning,
    decision: outcome.decision,
    notice: outcome.notice,
  };
  io.stdout(parsed.flags.has("json") ? `${JSON.stringify(result)}\n` : renderCheck(result));
  for (const note of outcome.notes) io.stderr(`docket: ${note}\n`);
  return 0;
}
