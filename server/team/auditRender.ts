// The audit report as text: JSON (`docket/audit/v1`, keys sorted by code units, two-space indent,
// one trailing newline) and Markdown ready to paste into a pull request. Pure. Everything that
// came from the repository — paths, subjects, trailer values, questions — is escaped, so a hostile
// commit cannot inject links, HTML or table cells into the reviewer's page.
import { canonicalize } from "../ledger/canonicalJson";
import type { AuditReport, ReportCommit, ReportPath, ReportScope, Violation } from "./auditModel";

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

export type AuditLanguage = "en" | "ko";

/** The report's words (English and Korean; Korean terms as the extension uses them: 반영, 재경로, 범위, 판단, 승인). */
interface Words {
  readonly title: string;
  readonly notAuditable: string;
  readonly noRequirement: string;
  readonly meets: (required: string) => string;
  readonly violations: (count: number, required: string) => string;
  readonly commits: (count: number) => string;
  readonly paths: (landed: number, unlanded: number, state: number, invalid: number) => string;
  readonly claims: (verified: number, rejected: number) => string;
  readonly base: string;
  readonly noBase: string;
  readonly head: string;
  readonly ledger: string;
  readonly ledgerLines: (lines: number, baseLines: number | null) => string;
  readonly format: string;
  readonly commitsHeading: string;
  readonly noCommits: string;
  readonly merge: (parents: string) => string;
  readonly noPaths: string;
  readonly table: string;
  readonly landed: string;
  readonly unlanded: string;
  readonly docketState: string;
  readonly invalid: string;
  readonly pending: string;
  readonly done: string;
  readonly match: Readonly<Record<string, string>>;
  readonly claimsHeading: string;
  readonly claimStatus: (status: string) => string;
  readonly source: Readonly<Record<string, string>>;
  readonly scopesHeading: string;
  readonly noScopes: string;
  readonly scopeStatus: Readonly<Record<string, string>>;
  readonly scopeCommits: string;
  readonly noScopeCommits: string;
  readonly judgments: string;
  readonly role: Readonly<Record<string, string>>;
  readonly open: string;
  readonly authorizations: string;
  readonly stableLanding: string;
  readonly verificationTarget: string;
  readonly landings: string;
  readonly under: string;
  readonly reroute: string;
  readonly verification: string;
  readonly none: string;
  readonly debts: string;
  readonly debtCounts: (reroutes: number, verifications: number) => string;
  readonly guardReviews: string;
  readonly noReviews: string;
  readonly reviewClaims: (count: number) => string;
  readonly violationsHeading: string;
  readonly noneChecked: string;
  readonly noViolations: string;
  readonly violation: (entry: Violation) => string;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

const EN: Words = {
  title: "Docket audit of",
  notAuditable: "⛔ **Not auditable**: the range changes paths Docket cannot audit",
  noRequirement: "ℹ️ No requirement checked",
  meets: (required) => `✅ Meets ${required}`,
  violations: (count, required) => `❌ **${plural(count, "violation")}** of ${required}`,
  commits: (count) => plural(count, "commit"),
  paths: (landed, unlanded, state, invalid) => `paths: ${landed} landed, ${unlanded} unlanded, ${state} Docket state${invalid > 0 ? `, ${invalid} not auditable` : ""}`,
  claims: (verified, rejected) => `claims: ${verified} verified, ${rejected} rejected`,
  base: "Base",
  noBase: "none (all history)",
  head: "head",
  ledger: "ledger",
  ledgerLines: (lines, baseLines) => `${plural(lines, "line")}${baseLines === null ? "" : `, ${baseLines} at the base`}`,
  format: "format",
  commitsHeading: "## Commits (oldest first)",
  noCommits: "The range holds no commits.",
  merge: (parents) => `Merge of ${parents}: only paths that differ from every parent are its own.`,
  noPaths: "No paths changed.",
  table: "| Path | Change | Class | Landing | Matched by | Scope | Reroute | Verification |",
  landed: "✅ landed",
  unlanded: "❌ **unlanded**",
  docketState: "Docket state",
  invalid: "⛔ **not auditable**",
  pending: "⚠️ pending",
  done: "done",
  match: { trailer: "trailer", note: "note", path: "path" },
  claimsHeading: "Claims:",
  claimStatus: (status) => (status === "verified" ? "verified" : `**${status}**`),
  source: { trailer: "trailer", note: "note" },
  scopesHeading: "## Scopes",
  noScopes: "No scope's landing is in this range.",
  scopeStatus: { open: "open", closed: "closed" },
  scopeCommits: "Commits",
  noScopeCommits: "none in this range",
  judgments: "**Judgments**",
  role: { work: "work", reroute: "reroute", verification: "verification" },
  open: "*open*",
  authorizations: "**Authorizations**",
  stableLanding: "stable landing",
  verificationTarget: "verification target",
  landings: "**Landings**",
  under: "under",
  reroute: "reroute",
  verification: "verification",
  none: "none",
  debts: "**Debts**",
  debtCounts: (reroutes, verifications) => (reroutes + verifications === 0 ? "none" : `${plural(reroutes, "reroute")} and ${plural(verifications, "verification")} pending`),
  guardReviews: "**Guard reviews**",
  noReviews: "none recorded",
  reviewClaims: (count) => plural(count, "claim"),
  violationsHeading: "## Violations",
  noneChecked: "None checked (no `--require`).",
  noViolations: "None.",
  violation: (entry) => mdText(entry.message),
};

const KO: Words = {
  title: "Docket 감사:",
  notAuditable: "⛔ **감사 불가**: 커밋 구간에 Docket이 감사할 수 없는 경로가 있습니다",
  noRequirement: "ℹ️ 확인한 요구 사항 없음",
  meets: (required) => `✅ ${required} 충족`,
  violations: (count, required) => `❌ ${required} **위반 ${count}건**`,
  commits: (count) => `커밋 ${count}개`,
  paths: (landed, unlanded, state, invalid) => `경로: 반영 ${landed}, 미반영 ${unlanded}, Docket 상태 ${state}${invalid > 0 ? `, 감사 불가 ${invalid}` : ""}`,
  claims: (verified, rejected) => `주장: 확인 ${verified}, 거부 ${rejected}`,
  base: "기준",
  noBase: "없음 (전체 기록)",
  head: "헤드",
  ledger: "원장",
  ledgerLines: (lines, baseLines) => `${lines}줄${baseLines === null ? "" : `, 기준 시점 ${baseLines}줄`}`,
  format: "형식",
  commitsHeading: "## 커밋 (오래된 순)",
  noCommits: "구간에 커밋이 없습니다.",
  merge: (parents) => `${parents}의 병합: 모든 부모와 다른 경로만 이 커밋의 변경입니다.`,
  noPaths: "바뀐 경로가 없습니다.",
  table: "| 경로 | 변경 | 분류 | 반영 | 연결 근거 | 범위 | 재경로 | 검증 |",
  landed: "✅ 반영됨",
  unlanded: "❌ **미반영**",
  docketState: "Docket 상태",
  invalid: "⛔ **감사 불가**",
  pending: "⚠️ 대기 중",
  done: "완료",
  match: { trailer: "트레일러", note: "노트", path: "경로" },
  claimsHeading: "주장:",
  claimStatus: (status) => (status === "verified" ? "확인됨" : `**${status}**`),
  source: { trailer: "트레일러", note: "노트" },
  scopesHeading: "## 범위",
  noScopes: "이 구간이 쓰는 반영이 속한 범위가 없습니다.",
  scopeStatus: { open: "열림", closed: "닫힘" },
  scopeCommits: "커밋",
  noScopeCommits: "이 구간에 없음",
  judgments: "**판단**",
  role: { work: "작업", reroute: "재경로", verification: "검증" },
  open: "*진행 중*",
  authorizations: "**승인**",
  stableLanding: "안정된 반영",
  verificationTarget: "검증 목표",
  landings: "**반영**",
  under: "승인",
  reroute: "재경로",
  verification: "검증",
  none: "없음",
  debts: "**남은 의무**",
  debtCounts: (reroutes, verifications) => (reroutes + verifications === 0 ? "없음" : `재경로 ${reroutes}건, 검증 ${verifications}건 대기 중`),
  guardReviews: "**가드 검토**",
  noReviews: "기록 없음",
  reviewClaims: (count) => `주장 ${count}개`,
  violationsHeading: "## 위반",
  noneChecked: "확인하지 않음 (`--require` 없음).",
  noViolations: "없음.",
  violation: (entry) =>
    [entry.commit === null ? null : `커밋 ${mdCode(short(entry.commit))}`, entry.path === null ? null : `경로 ${mdCode(entry.path)}`, entry.landingId === null ? null : `반영 ${mdCode(entry.landingId)}`, entry.workScopeId === null ? null : `범위 ${mdCode(entry.workScopeId)}`]
      .filter((part) => part !== null)
      .join(", "),
};

function wordsFor(language: AuditLanguage): Words {
  return language === "ko" ? KO : EN;
}

function classCell(entry: ReportPath, t: Words): string {
  if (entry.class === "landed") return t.landed;
  if (entry.class === "unlanded") return t.unlanded;
  if (entry.class === "docket-state") return t.docketState;
  return `${t.invalid} (${mdCode(entry.reason ?? "")})`;
}

function commitSection(commit: ReportCommit, index: number, t: Words): string {
  const pending = (value: boolean): string => (value ? t.pending : t.done);
  const lines = [`### ${index + 1}. ${mdCode(short(commit.sha))} ${mdText(commit.subject)}`, ""];
  if (commit.parents.length > 1) lines.push(t.merge(commit.parents.map((parent) => mdCode(short(parent))).join(", ")), "");
  if (commit.paths.length === 0) lines.push(t.noPaths, "");
  else {
    lines.push(t.table, "|---|---|---|---|---|---|---|---|");
    for (const entry of commit.paths) {
      const landing = entry.landing;
      lines.push(
        `| ${mdCode(entry.path)} | ${entry.status} | ${classCell(entry, t)} | ${landing === null ? "—" : mdCode(landing.landingId)} | ${landing === null ? "—" : (t.match[landing.match] ?? landing.match)} | ${
          landing === null ? "—" : mdCode(landing.workScopeId)
        } | ${landing === null ? "—" : pending(landing.reroutePending)} | ${landing === null ? "—" : pending(landing.verificationPending)} |`,
      );
    }
    lines.push("");
  }
  if (commit.claims.length > 0) {
    lines.push(t.claimsHeading, "");
    for (const claim of commit.claims) lines.push(`- ${mdCode(`${claim.key}: ${claim.value}`)} (${t.source[claim.source] ?? claim.source}): ${t.claimStatus(claim.status)}`);
    lines.push("");
  }
  return lines.join("\n");
}

function scopeSection(scope: ReportScope, t: Words): string {
  const pending = (value: boolean): string => (value ? t.pending : t.done);
  const lines = [`### ${mdCode(scope.workScopeId)} (${t.scopeStatus[scope.status] ?? scope.status})`, ""];
  lines.push(`${t.scopeCommits}: ${scope.commits.length === 0 ? t.noScopeCommits : scope.commits.map((sha) => mdCode(short(sha))).join(", ")}`, "");
  lines.push(t.judgments, "");
  if (scope.judgments.length === 0) lines.push(`- ${t.none}`);
  for (const judgment of scope.judgments) {
    lines.push(`- ${t.role[judgment.role] ?? judgment.role} · ${mdCode(judgment.routeDefinitionId)}: ${mdText(judgment.question)} → ${judgment.conclusion === null ? t.open : mdText(judgment.conclusion)}`);
  }
  lines.push("", t.authorizations, "");
  if (scope.authorizations.length === 0) lines.push(`- ${t.none}`);
  for (const authorization of scope.authorizations) {
    lines.push(
      `- ${mdCode(authorization.authorizationId)}: ${mdText(authorization.movement)} — ${t.stableLanding}: ${mdText(authorization.stableLanding)} — ${t.verificationTarget}: ${mdText(authorization.verificationTarget)}`,
    );
  }
  lines.push("", t.landings, "");
  if (scope.landings.length === 0) lines.push(`- ${t.none}`);
  for (const landing of scope.landings) {
    lines.push(
      `- ${mdCode(landing.landingId)} ${t.under} ${mdCode(landing.authorizationId)}: ${landing.changedPaths.map(mdCode).join(", ")} — ${mdText(landing.result)} — ${t.reroute} ${pending(landing.reroutePending)}, ${t.verification} ${pending(landing.verificationPending)}`,
    );
  }
  const reroutes = scope.landings.filter((landing) => landing.reroutePending).length;
  const verifications = scope.landings.filter((landing) => landing.verificationPending).length;
  lines.push("", `${t.debts}: ${t.debtCounts(reroutes, verifications)}`, "");
  lines.push(
    `${t.guardReviews}: ${scope.guardReviews.length === 0 ? t.noReviews : scope.guardReviews.map((review) => `${mdCode(review.reviewId)} ${mdText(review.status)} (${t.reviewClaims(review.claims)})`).join(", ")}`,
    "",
  );
  return lines.join("\n");
}

export function renderAuditMarkdown(report: AuditReport, language: AuditLanguage = "en"): string {
  const t = wordsFor(language);
  const { summary } = report;
  const required = report.requirements.length === 0 ? null : mdCode(`--require ${report.requirements.join(",")}`);
  const unauditable = report.violations.some((entry) => entry.requirement === "auditable");
  const verdict = unauditable ? t.notAuditable : required === null ? t.noRequirement : summary.violations === 0 ? t.meets(required) : t.violations(summary.violations, required);
  const lines = [
    `# ${t.title} ${mdCode(report.range)}`,
    "",
    `${verdict} · ${t.commits(summary.commits)} · ${t.paths(summary.landed, summary.unlanded, summary.docketState, summary.invalid)} · ${t.claims(summary.claimsVerified, summary.claimsRejected)}`,
    "",
    `${t.base} ${report.base === null ? t.noBase : mdCode(short(report.base))} · ${t.head} ${mdCode(short(report.head))} · ${t.ledger} ${mdCode(report.ledger.path)} (${t.ledgerLines(report.ledger.lines, report.ledger.baseLines)}) · ${t.format} \`${report.format}\``,
    "",
    t.commitsHeading,
    "",
  ];
  if (report.commits.length === 0) lines.push(t.noCommits, "");
  report.commits.forEach((commit, index) => lines.push(commitSection(commit, index, t)));
  lines.push(t.scopesHeading, "");
  if (report.scopes.length === 0) lines.push(t.noScopes, "");
  for (const scope of report.scopes) lines.push(scopeSection(scope, t));
  lines.push(t.violationsHeading, "");
  if (report.violations.length === 0) lines.push(required === null ? t.noneChecked : t.noViolations);
  for (const entry of report.violations) lines.push(`- ${mdCode(entry.requirement)} · ${mdCode(entry.kind)}: ${t.violation(entry)}`);
  lines.push("");
  return lines.join("\n");
}
