// `docket merge-ledger BASE OURS THEIRS [PATH]`: Git's merge driver for `.docket/ledger.jsonl`
// (`git config merge.docket-ledger.driver "docket merge-ledger %O %A %B %P"`). Exit 0 merged into
// OURS, 1 conflict (OURS untouched, one coded line on stderr), 2 usage. See docs/ledger-merge.md.
import path from "node:path";
import { UsageError, parseArgs } from "./args";
import type { CliIo } from "./locate";
import { MergeConflict } from "../team/ledgerMerge";
import { mergeLedgerFiles } from "../team/mergeLedgerFiles";

export function runMergeLedgerCommand(args: readonly string[], io: CliIo): number {
  const parsed = parseArgs(args, [], []);
  const positionals = parsed.positionals;
  if (positionals.length < 3 || positionals.length > 4) throw new UsageError("merge-ledger needs BASE OURS THEIRS [PATH] (Git's %O %A %B %P)");
  const [base, ours, theirs, shown] = positionals.map((file) => path.resolve(io.cwd, file)) as [string, string, string, string | undefined];
  // Git's %P comes from the repository: a path with control characters is shown quoted, so it
  // cannot forge a second line of the driver's output.
  const given = positionals[3] ?? ".docket/ledger.jsonl";
  const label = /^[\x20-\x7e\u00a0-\uffff]*$/u.test(given) ? given : JSON.stringify(given);
  try {
    const root = io.cwd;
    const result = mergeLedgerFiles({ base, ours, theirs, ...(shown === undefined ? {} : { workTree: { root, ledgerPath: shown } }) });
    if (shown !== undefined && result.record.kind === "not-possible" && result.moved === "ours") {
      // Ours' lines now follow theirs under new numbers and nothing vouches for that locally.
      io.stderr(
        `docket: note: ${label}: your lines were renumbered after the other branch's (${result.record.why}). Once Git has written the merge, check it with \`docket ledger verify\` and anchor it with \`docket ledger anchor --accept\` (docs/ledger-merge.md)\n`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof MergeConflict) {
      io.stderr(`docket: ${error.code}: ${label}: ${error.message}\n`);
      return 1;
    }
    io.stderr(`docket: docket.merge-unreadable: ${label}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
