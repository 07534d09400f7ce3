// The audit report as text: JSON (`docket/audit/v1`, keys sorted by code units, two-space indent,
// one trailing newline) and Markdown ready to paste into a pull request. Pure. Everything that
// came from the repository — paths, subjects, trailer values, questions — is escaped, so a hostile
// commit cannot inject links, HTML or table cells into the reviewer's page.
import { canonicalize } from "../ledger/canonicalJson";
import type { AuditReport, ReportCommit, ReportPath, ReportScope } from "./auditModel";

export function renderAuditJson(report: AuditReport): string {
  return `${JSON.stringify(JSON.parse(canonicalize(report)), null, 2)}\n`;
}

/** Control characters as visible escapes: a path or subject never breaks a line or a cell. */
function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/gu, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Text with every Markdown and HTML special character escaped. */
export function mdText(text: string): string {
  return visible(text)
    .replace(/&/gu, "&amp;")
    .replace(/[\\`*_{}[\]()<>#+!|~]/gu, (character) => `\\${character}`);
}

/** A code span (fenced by more backticks than the text holds); `|` escaped for table cells. */
export function mdCode(text: string): string {
  const shown = visible(text).replace(/\|/gu, "\\|");
  const longest = Math.max(0, ...(shown.match(/`+/gu) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = shown.startsWith("`") || shown.endsWith("`") || shown === "" ? " " : "";
  return `${fence}${pad}${shown}${pad}${fence}`;
}

const short = (sha: string): string => sha.slice(0, 12);

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function classCell(entry: ReportPath): string {
  if (entry.class === "landed") return "✅ landed";
  if (entry.class === "unlanded") return "❌ **unlanded**";
  if (entry.class === "docket-state") return "Docket state";
  return `⛔ **not auditable** (${mdCode(entry.reason ?? "")})`;
}

function pending(value: boolean): string {
  return value ? "⚠️ pending" : "done";
}

function commitSection(commit: ReportCommit, index: number): string {
  const lines = [`### ${index + 1}. ${mdCode(short(commit.sha))} ${mdText(commit.subject)}`, ""];
  if (commit.parents.length > 1) lines.push(`Merge of ${commit.parents.map((parent) => mdCode(short(parent))).join(", ")}: only paths that differ from every parent are its own.`, "");
  if (commit.paths.length === 0) lines.push("No paths changed.", "");
  else {
    lines.push("| Path | Change | Class | Landing | Matched by | Scope | Reroute | Verification |", "|---|---|---|---|---|---|---|---|");
    for (const entry of commit.paths) {
      const landing = entry.landing;
      lines.push(
        `| ${mdCode(entry.path)} | ${entry.status} | ${classCell(entry)} | ${landing === null ? "—" : mdCode(landing.landingId)} | ${landing === null ? "—" : landing.match} | ${
          landing === null ? "—" : mdCode(landing.workScopeId)
        } | ${landing === null ? "—" : pending(landing.reroutePending)} | ${landing === null ? "—" : pending(landing.verificationPending)} |`,
      );
    }
    lines.push("");
  }
  if (commit.claims.length > 0) {
    lines.push("Claims:", "");
    for (const claim of commit.claims) lines.push(`- ${mdCode(`${claim.key}: ${claim.value}`)} (${claim.source}): ${claim.status === "verified" ? "verified" : `**${claim.status}**`}`);
    lines.push("");
  }
  return lines.join("\n");
}

function scopeSection(scope: ReportScope): string {
  const lines = [`### ${mdCode(scope.workScopeId)} (${scope.status})`, ""];
  lines.push(`Commits: ${scope.commits.length === 0 ? "none in this range" : scope.commits.map((sha) => mdCode(short(sha))).join(", ")}`, "");
  lines.push("**Judgments**", "");
  if (scope.judgments.length === 0) lines.push("- none");
  for (const judgment of scope.judgments) {
    lines.push(
      `- ${judgment.role} · ${mdCode(judgment.routeDefinitionId)}: ${mdText(judgment.question)} → ${judgment.conclusion === null ? "*open*" : mdText(judgment.conclusion)}`,
    );
  }
  lines.push("", "**Authorizations**", "");
  if (scope.authorizations.length === 0) lines.push("- none");
  for (const authorization of scope.authorizations) {
    lines.push(
      `- ${mdCode(authorization.authorizationId)}: ${mdText(authorization.movement)} — stable landing: ${mdText(authorization.stableLanding)} — verification target: ${mdText(authorization.verificationTarget)}`,
    );
  }
  lines.push("", "**Landings**", "");
  if (scope.landings.length === 0) lines.push("- none");
  for (const landing of scope.landings) {
    lines.push(
      `- ${mdCode(landing.landingId)} under ${mdCode(landing.authorizationId)}: ${landing.changedPaths.map(mdCode).join(", ")} — ${mdText(landing.result)} — reroute ${pending(landing.reroutePending)}, verification ${pending(landing.verificationPending)}`,
    );
  }
  const reroutes = scope.landings.filter((landing) => landing.reroutePending).length;
  const verifications = scope.landings.filter((landing) => landing.verificationPending).length;
  lines.push("", `**Debts**: ${reroutes + verifications === 0 ? "none" : `${plural(reroutes, "reroute")} and ${plural(verifications, "verification")} pending`}`, "");
  lines.push(
    `**Guard reviews**: ${scope.guardReviews.length === 0 ? "none recorded" : scope.guardReviews.map((review) => `${mdCode(review.reviewId)} ${mdText(review.status)} (${plural(review.claims, "claim")})`).join(", ")}`,
    "",
  );
  return lines.join("\n");
}

export function renderAuditMarkdown(report: AuditReport): string {
  const { summary } = report;
  const required = report.requirements.length === 0 ? null : `--require ${report.requirements.join(",")}`;
  const unauditable = report.violations.some((entry) => entry.requirement === "auditable");
  const verdict = unauditable
    ? "⛔ **Not auditable**: the range changes paths Docket cannot audit"
    : required === null
      ? "ℹ️ No requirement checked"
      : summary.violations === 0
        ? `✅ Meets ${mdCode(required)}`
        : `❌ **${plural(summary.violations, "violation")}** of ${mdCode(required)}`;
  const lines = [
    `# Docket audit of ${mdCode(report.range)}`,
    "",
    `${verdict} · ${plural(summary.commits, "commit")} · paths: ${summary.landed} landed, ${summary.unlanded} unlanded, ${summary.docketState} Docket state${summary.invalid > 0 ? `, ${summary.invalid} not auditable` : ""} · claims: ${summary.claimsVerified} verified, ${summary.claimsRejected} rejected`,
    "",
    `Base ${report.base === null ? "none (all history)" : mdCode(short(report.base))} · head ${mdCode(short(report.head))} · ledger ${mdCode(report.ledger.path)} (${plural(report.ledger.lines, "line")}${
      report.ledger.baseLines === null ? "" : `, ${report.ledger.baseLines} at the base`
    }) · format \`${report.format}\``,
    "",
    "## Commits (oldest first)",
    "",
  ];
  if (report.commits.length === 0) lines.push("The range holds no commits.", "");
  report.commits.forEach((commit, index) => lines.push(commitSection(commit, index)));
  lines.push("## Scopes", "");
  if (report.scopes.length === 0) lines.push("No scope's landing is in this range.", "");
  for (const scope of report.scopes) lines.push(scopeSection(scope));
  lines.push("## Violations", "");
  if (report.violations.length === 0) lines.push(required === null ? "None checked (no `--require`)." : "None.");
  for (const entry of report.violations) lines.push(`- ${mdCode(entry.requirement)} · ${mdCode(entry.kind)}: ${mdText(entry.message)}`);
  lines.push("");
  return lines.join("\n");
}
