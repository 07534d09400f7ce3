// The `docket` command line. It also contains the backend (`docket serve --stdio`) so the
// extension, agents and people in a terminal all run the same code against the same ledger.
import { UsageError, parseArgs, stringFlag, type ParsedArgs } from "./args";
import fs from "node:fs";
import path from "node:path";
import { replayEntries } from "../ledger/replay";
import { readReplayInputs } from "../ledger/replayInput";
import { DocketError, toDocketError } from "../errors";
import { anchorPathFor } from "../ledger/anchor";
import { LedgerStore } from "../ledger/store";
import { formatImportReport, importPiSession } from "../pi/piImport";
import { LedgerExportError } from "../pi/piLedgerExport";
import { containmentRootFor, findWorkspaceRoot, resolveLedgerPath } from "../workspace/ledgerPaths";
import { verifyLedgerFile, WorkspaceLedger } from "../workspace/workspaceLedger";

const VERSION = "0.1.0";

const HELP = `docket ${VERSION} — decided, gated, audited and verified agent work

Usage:
  docket serve --stdio                     run the backend the VS Code extension talks to
  docket ledger verify [--ledger PATH] [--workspace DIR] [--json]
                                           check every ledger line, its hash chain, replay, its head
                                           anchor and (when Git tracks it) the committed version
  docket ledger anchor [--accept] [--ledger PATH] [--workspace DIR] [--json]
                                           anchor the ledger's head as it is now; --accept replaces
                                           an anchor the ledger no longer reaches (a cut or rewritten
                                           ledger you decided to keep)
  docket ledger replay FILE [--json]       replay developer/v8 entries from JSON Lines: bare
                                           envelopes, Docket ledger lines or Pi session entries
  docket ledger import-pi SESSION.jsonl [--json] [--out LEDGER]
                                           replay the developer.runtime history of a Pi session's
                                           active branch; --out writes it as a new ledger (never
                                           over an existing file, only from a clean import)
  docket policy [--ledger PATH] [--workspace DIR] [--json]
                                           legal operations and whether shell/edit tools may run
  docket on|off [--workspace DIR] [--ledger PATH] [--json]
                                           turn Docket on (open a work scope) or off, from a terminal
  docket status [--workspace DIR] [--ledger PATH] [--json]
                                           phase, scope, legal operations, shell/edit policy, ledger
                                           path and which agents are connected
  docket connect claude|codex [--workspace DIR] [--read-only-tool NAME]... [--dry-run] [--json]
                                           add Docket's hooks and MCP server to the agent's project
                                           config (--dry-run prints the exact diff, writes nothing;
                                           --read-only-tool: a tool that only reads, may run while gated)
  docket disconnect claude|codex [--workspace DIR] [--dry-run] [--json]
                                           remove exactly the entries connect added
  docket mcp [--workspace DIR] [--ledger PATH] [--notebook DIR]
                                           serve Docket's MCP tools over stdio (for Copilot, Claude
                                           Code, Codex or any MCP client). See docs/mcp.md
  docket plan "<task>" [--workspace DIR] [--json] [--mode MODE]
                                           plan a task: skills, order, context, checks and the review
                                           board, each with its reason (exit 0 for any verdict;
                                           --json prints the canonical plan). See docs/router.md
  docket hook --host claude|codex|vscode [--workspace DIR] [--read-only-tool NAME]... EVENT
                                           answer one agent hook call (JSON on stdin, the host's
                                           dialect on stdout; PreToolUse fails closed, other events
                                           exit 1 = no decision). See docs/hooks.md
  docket review open|submit [--workspace DIR] [--json]
                                           record a review of a final answer (request JSON on stdin:
                                           open seals the draft, claims and sources; submit records
                                           the judgments; exit 1 = coded refusal). See docs/guard.md
  docket guard check [--workspace DIR] [--answer-file F] [--session S] [--host H] [--json]
                                           what the Stop check says about an answer: its review,
                                           the remaining work and the decision
  docket guard mode [notice|block-once|off] [--workspace DIR] [--json]
                                           show or set the completion guard's mode
  docket observer on --notebook DIR | off  turn Observer on (opening an Episode on the Notebook) or off
  docket observer status [--json]          Observer's state, staged tool results and pending guides
  docket observer hypothesis TEXT [--context C]  record your own hypothesis (your wording is kept)
  docket observer memo | save              ask for a Memo reconciliation / Review & Save
  docket observer material TEXT|--file F|--url U  Material review of one bounded item; cancel-material
  docket observer commit [--json] < batch  apply an observer_commit batch (stdin JSON); exit 1 refused
  docket observer approve PROPOSAL --yes --sha256 DIGEST | return PROPOSAL
                                           save Observer's proposal (settles the Episode) / return it
  docket observer processing [piggyback|off|local --endpoint URL --model ID]
  docket observer replay FILE [--json]     replay the Observer entries of a Pi session or of Docket
                                           ledger lines (observer/v1): issues and snapshot (exit 0
                                           no issues, 1 issues). See docs/observer-replay.md
  docket notebook validate|status DIR [--json]
                                           check a Notebook's records (exit 0 valid, 1 invalid,
                                           2 not a usable Notebook) or show its health
  docket notebook recover DIR [--workspace DIR] [--json]
                                           finish or roll back an interrupted publication (exit 0
                                           the Notebook is whole, 3 recovery still required)
  docket notebook setup DIR [--language en|ko] [--yes]
                                           create or adopt a Notebook folder
  docket notebook propose FILE.json [--notebook DIR]
                                           check and store a proposal of records to create/update
  docket notebook proposals | show PROPOSAL_ID | discard PROPOSAL_ID
                                           list pending proposals, review one as a diff, drop one
  docket notebook publish PROPOSAL_ID --yes [--sha256 DIGEST]
                                           publish all of a proposal's records or none (exit 3 =
                                           recovery required). See docs/notebook.md
  docket --help | --version

The ledger defaults to <workspace>/.docket/ledger.jsonl, where the workspace is the Git root
above the current directory (or the directory itself).

Exit codes: 0 success; 1 the ledger (or log) has a rejected entry (import-pi: or an unreadable
line, and --out wrote nothing); 2 usage error or unusable input (import-pi: unreadable, larger
than 256 MiB or not a Pi session; --out exists or cannot be written); 3 on, off, status,
connect or disconnect was refused with a coded error (e.g. docket.already-on,
docket.ledger-locked, docket.agent-config-malformed, docket.agent-config-conflict), printed as
"docket: CODE: message" on stderr. See docs/agents.md.
`;

interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

/** `--ledger PATH` wins; else the ledger of `--workspace DIR`; else of the Git root above cwd. */
function locateLedger(parsed: ParsedArgs, io: Io): { workspaceFolder: string; ledgerPath: string } {
  const explicit = stringFlag(parsed, "ledger");
  const workspace = stringFlag(parsed, "workspace");
  const workspaceFolder = workspace !== undefined ? path.resolve(io.cwd, workspace) : findWorkspaceRoot(io.cwd);
  const ledgerPath = explicit !== undefined ? path.resolve(io.cwd, explicit) : resolveLedgerPath(workspaceFolder, null);
  return { workspaceFolder, ledgerPath };
}

function policy(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args, ["ledger", "workspace"], ["json"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const { workspaceFolder, ledgerPath } = locateLedger(parsed, io);
  const ledger = new WorkspaceLedger({ workspaceFolder, ledgerPath, trusted: false });
  ledger.refresh();
  const result = ledger.policy();
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify(result)}\n`);
  } else {
    io.stdout(`phase: ${result.phase}${result.workScopeId === null ? "" : ` (${result.workScopeId})`}\n`);
    io.stdout(`legal operations: ${result.legalOperations.length === 0 ? "none" : result.legalOperations.join(", ")}\n`);
    io.stdout(`shell: ${result.shell}, edit: ${result.edit}${result.reason === null ? "" : ` — ${result.reason}`}\n`);
  }
  return 0;
}

async function ledgerVerify(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(args, ["ledger", "workspace"], ["json"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const { ledgerPath } = locateLedger(parsed, io);
  const anchorLeft = fs.existsSync(anchorPathFor(ledgerPath));
  let stat: fs.Stats | null = null;
  try {
    stat = fs.lstatSync(ledgerPath);
  } catch {
    // A missing ledger whose anchor remains is a truncation to nothing: verify reports it.
    if (!anchorLeft) throw new UsageError(`no ledger at ${ledgerPath}`, "docket.ledger-missing");
  }
  if (stat !== null && !stat.isFile() && !stat.isSymbolicLink()) throw new UsageError(`${ledgerPath} is not a file`, "docket.ledger-missing");
  const result = await verifyLedgerFile(ledgerPath);
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify(result)}\n`);
    return result.ok ? 0 : 1;
  }
  if (result.ok) {
    io.stdout(`ok: ${result.lines} lines, ${result.accepted} accepted entries, hash chains intact (${ledgerPath})\n`);
    if (result.tornTailBytes > 0) {
      io.stdout(`note: ${result.tornTailBytes} bytes of an interrupted write follow the last line; they are not an entry and will be set aside on the next append\n`);
    }
  } else if (result.firstFault !== null) {
    const fault = result.firstFault;
    io.stdout(`rejected: line ${fault.line}${fault.index === null ? "" : ` (entry ${fault.index})`}: ${fault.code}: ${fault.message}\n`);
  }
  if (result.anchor === "matched") io.stdout(`head anchor: matched (${anchorPathFor(ledgerPath)})\n`);
  else if (result.anchor === "none") io.stdout("head anchor: none yet — lines cut from the end cannot be noticed until Docket writes to this ledger (or `docket ledger anchor`)\n");
  if (result.git.state === "matched") io.stdout(`git: matches the ledger committed at ${(result.git.commit ?? "").slice(0, 12)}\n`);
  else if (result.git.state === "mismatched") io.stdout(`git: ${result.git.note ?? "differs from the committed ledger"}\n`);
  return result.ok ? 0 : 1;
}

async function ledgerAnchor(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(args, ["ledger", "workspace"], ["json", "accept"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const { workspaceFolder, ledgerPath } = locateLedger(parsed, io);
  const store = new LedgerStore(ledgerPath, { root: containmentRootFor(workspaceFolder, ledgerPath) });
  try {
    const anchored = await store.anchorNow({ accept: parsed.flags.has("accept") });
    const result = { ok: true, path: ledgerPath, anchor: anchorPathFor(ledgerPath), lines: anchored.lines, previous: anchored.previous };
    if (parsed.flags.has("json")) io.stdout(`${JSON.stringify(result)}\n`);
    else if (anchored.lines === 0 && !store.exists) io.stdout(`removed the head anchor of the missing ledger ${ledgerPath}\n`);
    else io.stdout(`anchored ${anchored.lines} lines of ${ledgerPath} (previous anchor: ${anchored.previous})\n`);
    return 0;
  } catch (error) {
    const coded = toDocketError(error);
    if (parsed.flags.has("json")) io.stdout(`${JSON.stringify({ ok: false, code: coded.code, message: coded.message })}\n`);
    io.stderr(`docket: ${coded.code}: ${coded.message}\n`);
    return 1;
  }
}

function ledgerReplay(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args, [], ["json"]);
  if (parsed.positionals.length !== 1) throw new UsageError("ledger replay needs exactly one FILE");
  const file = path.resolve(io.cwd, parsed.positionals[0] as string);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, "docket.input-unreadable");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not UTF-8 text`, "docket.input-unreadable");
  }
  const { inputs } = readReplayInputs(text);
  const replayer = replayEntries(inputs.map((input) => input.value));
  const dispositions = replayer.dispositions.map((disposition) =>
    disposition.status === "accepted"
      ? { index: disposition.index, status: "accepted" as const }
      : { index: disposition.index, status: "rejected" as const, code: disposition.code },
  );
  const scopes = replayer.scopes().map((scope) => ({ workScopeId: scope.workScopeId, status: scope.root.status, head: scope.head.scopeSequence }));
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify({ dispositions, scopes })}\n`);
  } else {
    for (const disposition of replayer.dispositions) {
      const line = inputs[disposition.index]?.line ?? 0;
      io.stdout(
        disposition.status === "accepted"
          ? `${disposition.index}\tline ${line}\taccepted\n`
          : `${disposition.index}\tline ${line}\trejected\t${disposition.code}: ${disposition.message}\n`,
      );
    }
    for (const scope of scopes) io.stdout(`scope ${scope.workScopeId}\t${scope.status}\thead ${scope.head}\n`);
  }
  return replayer.firstRejected === null ? 0 : 1;
}

function ledgerImportPi(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args, ["out"], ["json"]);
  if (parsed.positionals.length !== 1) throw new UsageError("ledger import-pi needs exactly one SESSION.jsonl");
  const file = path.resolve(io.cwd, parsed.positionals[0] as string);
  const out = stringFlag(parsed, "out");
  let outcome: ReturnType<typeof importPiSession>;
  try {
    outcome = importPiSession(file, out === undefined ? null : path.resolve(io.cwd, out));
  } catch (error) {
    if (error instanceof DocketError) throw new UsageError(error.message, error.code);
    if (error instanceof LedgerExportError) throw new UsageError(error.message, `docket.${error.code}`);
    throw error;
  }
  io.stdout(parsed.flags.has("json") ? `${JSON.stringify(outcome.report)}\n` : formatImportReport(outcome.report, out !== undefined));
  return outcome.exitCode;
}

/** Runs a command and returns its exit code; `serve` keeps running and returns null. */
export function runCli(argv: readonly string[], io: Io): number | null | Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      io.stdout(HELP);
      return command === undefined ? 2 : 0;
    }
    if (command === "--version" || command === "-v") {
      io.stdout(`${VERSION}\n`);
      return 0;
    }
    if (command === "serve") {
      // vscode-languageclient appends --clientProcessId; vscode-languageserver reads it itself to
      // exit when the editor process goes away.
      const parsed = parseArgs(rest, ["clientProcessId"], ["stdio"]);
      if (!parsed.flags.has("stdio") || parsed.positionals.length > 0) throw new UsageError("serve needs --stdio");
      // Loaded only here: vscode-languageserver starts a parent-process watchdog timer as soon as
      // it is imported, which would keep every other (short-lived) command alive.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require("../backend/server") as typeof import("../backend/server")).serveStdio();
      return null;
    }
    if (command === "policy") return policy(rest, io);
    if (command === "mcp") {
      const parsed = parseArgs(rest, ["workspace", "ledger", "notebook"], []);
      if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
      const located = locateLedger(parsed, io);
      // Kept as given: the notebook tools apply the path rules (relative to the workspace) on each call.
      const notebookPath = stringFlag(parsed, "notebook") ?? null;
      if (!fs.statSync(located.workspaceFolder, { throwIfNoEntry: false })?.isDirectory()) {
        throw new UsageError(`no folder at ${located.workspaceFolder}`, "docket.no-workspace");
      }
      // Loaded only here: the MCP SDK is large and no other command needs it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require("../mcp/mcpServer") as typeof import("../mcp/mcpServer")).serveMcpStdio({ ...located, notebookPath, version: VERSION });
      return null;
    }
    if (command === "plan") {
      // Loaded only here: the Router (snapshot, catalogue, YAML) is large and no other command needs it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require("../router/planCli") as typeof import("../router/planCli")).runPlanCommand(rest, io);
    }
    if (command === "notebook") {
      // Loaded only here: record validation (YAML, JSON Schema) is large and no other command needs it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require("../notebook/notebookCli") as typeof import("../notebook/notebookCli")).dispatchNotebookCommand(rest, io);
    }
    if (command === "observer") {
      // Loaded only here: Observer replay is needed by no other command.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const observed = (require("../observer/observerCli") as typeof import("../observer/observerCli")).runObserverCommand(rest, io);
      return typeof observed === "number" ? observed : settled(observed, io);
    }
    if (command === "review" || command === "guard") {
      // Loaded only here: review sealing and redaction are not needed by other commands.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const guard = require("../guard/guardCli") as typeof import("../guard/guardCli");
      return settled(command === "review" ? guard.runReviewCommand(rest, io) : guard.runGuardCommand(rest, io), io);
    }
    if (command === "hook") {
      // Loaded only here, and answered asynchronously: the hook reads stdin and sets the exit code.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require("../hooks/hookCli") as typeof import("../hooks/hookCli")).runHookProcess(rest);
      return null;
    }
    if (command === "on" || command === "off" || command === "status" || command === "connect" || command === "disconnect") {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const terminal = require("../agents/terminal") as typeof import("../agents/terminal");
      return terminal.runTerminalCommand(command, rest, { ...io, runtime: process.argv[1] });
    }
    if (command === "ledger") {
      const [sub, ...subArgs] = rest;
      if (sub === "verify") return settled(ledgerVerify(subArgs, io), io);
      if (sub === "anchor") return settled(ledgerAnchor(subArgs, io), io);
      if (sub === "replay") return ledgerReplay(subArgs, io);
      if (sub === "import-pi") return ledgerImportPi(subArgs, io);
      throw new UsageError(sub === undefined ? "ledger needs a subcommand: verify, anchor, replay or import-pi" : `unknown ledger subcommand ${sub}`);
    }
    throw new UsageError(`unknown command ${command}`);
  } catch (error) {
    return failure(error, io);
  }
}

function failure(error: unknown, io: Io): number {
  if (error instanceof UsageError) {
    io.stderr(`docket: ${error.code}: ${error.message}\nRun 'docket --help' for usage.\n`);
    return 2;
  }
  io.stderr(`docket: docket.internal: ${error instanceof Error ? error.message : String(error)}\n`);
  return 2;
}

/** An asynchronous command reports usage errors and crashes exactly like a synchronous one. */
function settled(run: Promise<number>, io: Io): Promise<number> {
  return run.catch((error: unknown) => failure(error, io));
}

if (require.main === module) {
  const code = runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
  });
  if (code instanceof Promise) void code.then((exitCode) => (process.exitCode = exitCode));
  else if (code !== null) process.exitCode = code;
}
