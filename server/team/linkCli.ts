// `docket link` (its own bundle, dist/docket-cli-link.js): links existing commits to landings
// through refs/notes/docket, or, as `docket link --prepare-commit-msg`, is the Git hook Docket's
// `connect git` installs. The hook form always exits 0: a commit never fails because of Docket.
import { DocketError, toDocketError } from "../errors";
import { parseArgs, UsageError } from "../cli/args";
import { locateLedger, type CliIo } from "../cli/locate";
import { keepHookEnvironment } from "./gitCommand";
import { linkCommits, type LinkedCommitResult } from "./linkCommits";
import { prepareCommitMessage } from "./prepareCommitMsg";

const ACTION_TEXT: Record<LinkedCommitResult["action"], string> = {
  noted: "note added",
  "would-note": "would add a note (dry run)",
  "already-noted": "already noted",
  "note-differs": "has a different Docket note; left alone",
  "has-trailers": "already carries Docket trailers",
  merge: "merge commit; not linked",
  "no-match": "no landing recorded its paths",
};

async function runHook(positionals: readonly string[], workspaceFolder: string, ledgerPath: string, io: CliIo): Promise<number> {
  const [messageFile, source] = positionals;
  keepHookEnvironment();
  try {
    if (messageFile === undefined || positionals.length > 3) throw new Error("expected <message file> [source] [commit]");
    const outcome = await prepareCommitMessage({ cwd: io.cwd, workspaceFolder, ledgerPath, messageFile, source });
    if (outcome.reason === "blocked") io.stderr(`docket: no Docket trailer: the ledger cannot be trusted (${outcome.blockedReason ?? "blocked"})\n`);
    if (outcome.reason === "editor") io.stderr("docket: this commit holds landed paths; its message is written in the editor, so run `docket link HEAD` after committing to note them\n");
  } catch (error) {
    io.stderr(`docket: prepare-commit-msg: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}; the commit message was left as it was\n`);
  }
  return 0;
}

export async function runLinkCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, ["workspace", "ledger"], ["dry-run", "json", "prepare-commit-msg"]);
  const { workspaceFolder, ledgerPath } = locateLedger(parsed, io);
  if (parsed.flags.has("prepare-commit-msg")) return runHook(parsed.positionals, workspaceFolder, ledgerPath, io);
  try {
    const dryRun = parsed.flags.has("dry-run");
    const results = await linkCommits({ workspaceFolder, ledgerPath, revisions: parsed.positionals, dryRun });
    if (parsed.flags.has("json")) {
      io.stdout(`${JSON.stringify({ dryRun, commits: results })}\n`);
      return 0;
    }
    if (results.length === 0) io.stdout("No commit to link.\n");
    for (const result of results) {
      io.stdout(`${result.sha.slice(0, 12)} ${ACTION_TEXT[result.action]}: ${result.subject}\n`);
      for (const landing of result.landings) io.stdout(`    Docket-Landing: ${landing}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const coded = error instanceof DocketError ? error : toDocketError(error);
    io.stderr(`docket: ${coded.code}: ${coded.message}\n`);
    return 3;
  }
}
