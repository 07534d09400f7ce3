// The `docket` command line. It also contains the backend (`docket serve --stdio`) so the
// extension, agents and people in a terminal all run the same code against the same ledger.
//
// This file is only the dispatcher: it reads the command and loads the module that runs it. Each
// of those modules is required lazily, and scripts/build.mjs builds each as its own bundle beside
// dist/docket.js (dist/docket-cli-<group>.js), so a command parses and initialises only its own
// code: `docket status` does not pay for the language server, `--version` for nothing at all.
import fs from "node:fs";
import { UsageError, parseArgs, stringFlag } from "./args";
import { locateLedger, type CliIo } from "./locate";

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
  docket connect|disconnect git [--workspace DIR] [--dry-run] [--json]
                                           the ledger's merge driver (.gitattributes line and repo-local
                                           git config) and the prepare-commit-msg hook that adds
                                           Docket-Landing/Docket-Scope trailers. See docs/commit-links.md
  docket link [REV|RANGE]... [--workspace DIR] [--dry-run] [--json]
                                           note (refs/notes/docket) which landings existing commits
                                           carry (default HEAD; never overwrites a note)
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
  docket notebook validate DIR [--workspace DIR] [--no-cache] [--json]
                                           check a Notebook's records (exit 0 valid, 1 invalid,
                                           2 not a usable Notebook, 3 recovery required); what
                                           each record's bytes gave is kept in the workspace's
                                           .docket/ (--no-cache: neither read nor written)
  docket notebook status DIR [--json]      show a Notebook's health
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
  docket merge-ledger BASE OURS THEIRS [PATH]
                                           Git merge driver for .docket/ledger.jsonl (%O %A %B %P):
                                           exit 0 merged into OURS, 1 conflict (coded message, OURS
                                           untouched). See docs/ledger-merge.md
  docket audit <rev-range> [--json | --markdown] [--require landed,verified,...] [--language en|ko]
               [--workspace DIR] [--ledger PATH]
                                           classify each path each commit of the range changed as
                                           landed, unlanded or Docket state, with each scope's
                                           judgments, authorizations, landings and debts (exit 1 a
                                           --require is violated, 2 bad range or shallow clone, 3 a
                                           ledger not understood). See docs/audit.md
  docket --help | --version

The ledger defaults to <workspace>/.docket/ledger.jsonl, where the workspace is the Git root
above the current directory (or the directory itself).

Exit codes: 0 success; 1 the ledger (or log) has a rejected entry (import-pi: or an unreadable
line, and --out wrote nothing); 2 usage error or unusable input (import-pi: unreadable, larger
than 256 MiB or not a Pi session; --out exists or cannot be written); 3 on, off, status,
connect, disconnect or link was refused with a coded error (e.g. docket.already-on,
docket.ledger-locked, docket.agent-config-malformed, docket.agent-config-conflict,
docket.git-hook-conflict), printed as "docket: CODE: message" on stderr. See docs/agents.md.
The prepare-commit-msg hook (docket link --prepare-commit-msg) always exits 0.
`;

/** Runs a command and returns its exit code; `serve` keeps running and returns null. */
export function runCli(argv: readonly string[], io: CliIo): number | null | Promise<number> {
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
      (require("./servers") as typeof import("./servers")).serveBackend();
      return null;
    }
    if (command === "policy") {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require("./stateCommands") as typeof import("./stateCommands")).runPolicyCommand(rest, io);
    }
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
      (require("./servers") as typeof import("./servers")).serveMcp({ ...located, notebookPath, version: VERSION });
      return null;
    }
    if (command === "plan") {
      // Loaded only here: the Router (snapshot, catalogue, YAML) is large and no other command needs it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require("../router/planCli") as typeof import("../router/planCli")).runPlanCommand(rest, io);
    }
    if (command === "notebook" && rest[0] === "validate") {
      // A bundle of its own: validate over a large Notebook is run often and should start lean.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require("../notebook/validateCli") as typeof import("../notebook/validateCli")).runValidateCommand(rest.slice(1), io);
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
    if (command === "status") {
      // Answered from the verified checkpoint when it can be (no replay); else as `on`/`off` are.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require("./stateCommands") as typeof import("./stateCommands")).runStatusCommand(rest, { ...io, runtime: process.argv[1] });
    }
    if (command === "on" || command === "off" || command === "connect" || command === "disconnect") {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const workspace = require("./workspaceCommands") as typeof import("./workspaceCommands");
      return workspace.runTerminalCommand(command, rest, { ...io, runtime: process.argv[1] });
    }
    if (command === "merge-ledger") {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require("./mergeCommand") as typeof import("./mergeCommand")).runMergeLedgerCommand(rest, io);
    }
    if (command === "link") {
      // Loaded only here: commit links (and the prepare-commit-msg hook) need Git and the ledger's landings.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return settled((require("../team/linkCli") as typeof import("../team/linkCli")).runLinkCommand(rest, io), io);
    }
    if (command === "audit") {
      // Loaded only here: the audit's Git adapter and renderers are needed by no other command.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return settled((require("./auditCommand") as typeof import("./auditCommand")).runAuditCommand(rest, io), io);
    }
    if (command === "ledger") {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ledger = (require("./ledgerCommands") as typeof import("./ledgerCommands")).runLedgerCommand(rest, io);
      return typeof ledger === "number" ? ledger : settled(ledger, io);
    }
    throw new UsageError(`unknown command ${command}`);
  } catch (error) {
    return failure(error, io);
  }
}

function failure(error: unknown, io: CliIo): number {
  if (error instanceof UsageError) {
    io.stderr(`docket: ${error.code}: ${error.message}\nRun 'docket --help' for usage.\n`);
    return 2;
  }
  io.stderr(`docket: docket.internal: ${error instanceof Error ? error.message : String(error)}\n`);
  return 2;
}

/** An asynchronous command reports usage errors and crashes exactly like a synchronous one. */
function settled(run: Promise<number>, io: CliIo): Promise<number> {
  return run.catch((error: unknown) => failure(error, io));
}

if (require.main === module) {
  // A reader that stops early (`docket status | head`) closes the pipe: the rest of the output has
  // nowhere to go, but the command still finishes what it started (a write is never cut short by
  // its own report), so a closed pipe is ignored instead of crashing the process.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
  const code = runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
  });
  if (code instanceof Promise) void code.then((exitCode) => (process.exitCode = exitCode));
  else if (code !== null) process.exitCode = code;
}
