// `docket audit <rev-range> [--json | --markdown] [--require …]`, loaded by the dispatcher
// (main.ts) from its own bundle. Exit codes: 0 the report (and every requirement met), 1 a
// requirement is violated (each violation named on stderr), 2 usage, a bad range, a shallow clone or
// a path that cannot be audited, 3 a ledger the audit does not understand. docs/audit.md.
import { UsageError, parseArgs, stringFlag } from "./args";
import { locateLedger, type CliIo } from "./locate";
import { AuditError, REQUIREMENTS, runAudit, type Requirement } from "../team/audit";

function requirementsOf(value: string | undefined): Requirement[] {
  if (value === undefined) return [];
  const names = value.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(REQUIREMENTS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--require takes a comma list of ${REQUIREMENTS.join(", ")}; not: ${unknown.map((name) => JSON.stringify(name)).join(", ") || "(empty)"}`, "docket.audit-require-invalid");
  }
  return [...new Set(names as Requirement[])];
}

export async function runAuditCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, ["ledger", "workspace", "require", "language"], ["json", "markdown"]);
  if (parsed.positionals.length !== 1) throw new UsageError("audit needs exactly one revision range, e.g. origin/main..HEAD", "docket.audit-range-invalid");
  if (parsed.flags.has("json") && parsed.flags.has("markdown")) throw new UsageError("--json and --markdown exclude each other");
  const requirements = requirementsOf(stringFlag(parsed, "require"));
  const language = stringFlag(parsed, "language") ?? "en";
  if (language !== "en" && language !== "ko") throw new UsageError("--language is en or ko");
  const { workspaceFolder, ledgerPath } = locateLedger(parsed, io);
  let run: Awaited<ReturnType<typeof runAudit>>;
  try {
    run = await runAudit({ workspaceFolder, ledgerPath, range: parsed.positionals[0] as string, requirements, language });
  } catch (error) {
    if (error instanceof AuditError) {
      io.stderr(`docket: ${error.code}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
  io.stdout(parsed.flags.has("json") ? run.json : run.markdown);
  const violations = run.report.violations;
  const unauditable = violations.filter((entry) => entry.requirement === "auditable");
  for (const entry of unauditable) io.stderr(`docket: ${entry.kind}: ${entry.message}\n`);
  if (unauditable.length > 0) return 2;
  for (const entry of violations) io.stderr(`docket: violation: ${entry.requirement}: ${entry.kind}: ${entry.message}\n`);
  return violations.length > 0 ? 1 : 0;
}
