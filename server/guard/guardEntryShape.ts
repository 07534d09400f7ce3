// A guard ledger entry checked directly, so a hook that decodes a review's two lines (a Stop whose
// answer carries a marker) builds and runs no zod schema for them: `isCertainGuardEntry` says true
// only where `GuardEntry` (guardEntry.ts) certainly accepts; everything else, every entry the
// schema refuses included, goes to the schema, whose issue is the line fault's text.
// test/unit/guardEntryShape.test.ts holds the two to the same verdicts.
import { hasExactKeys, isPlainRecord, isSafeInt, isStringOf } from "../evidence/plainShape";

// The patterns and bounds are guardEntry.ts's; passed in so this module stays free of zod.
export interface GuardEntryRules {
  readonly reviewId: RegExp;
  readonly sourceId: RegExp;
  readonly claimId: RegExp;
  readonly sha256: RegExp;
  readonly timestamp: RegExp;
  readonly problemCode: RegExp;
  readonly claimVerdicts: readonly string[];
  readonly responseVerdicts: readonly string[];
  readonly statuses: readonly string[];
  readonly maxClaims: number;
  readonly maxSources: number;
  readonly maxClaimText: number;
  readonly maxRationale: number;
  readonly maxCitations: number;
}

function matches(value: unknown, pattern: RegExp): boolean {
  return typeof value === "string" && pattern.test(value);
}

function isCount(value: unknown): boolean {
  return isSafeInt(value) && value >= 0;
}

function isArrayOf(value: unknown, min: number, max: number, item: (element: unknown) => boolean): boolean {
  if (!Array.isArray(value) || value.length < min || value.length > max) return false;
  for (let index = 0; index < value.length; index += 1) if (!Object.hasOwn(value, index) || !item(value[index])) return false;
  return true;
}

function isSealedSource(value: unknown, rules: GuardEntryRules): boolean {
  if (!isPlainRecord(value) || !matches(value.sourceId, rules.sourceId) || !matches(value.sha256, rules.sha256)) return false;
  switch (value.kind) {
    case "file":
      return hasExactKeys(value, ["sourceId", "kind", "path", "sha256", "bytes"]) && isStringOf(value.path, 1, 4096) && isCount(value.bytes);
    case "evidence":
      return hasExactKeys(value, ["sourceId", "kind", "handle", "sha256"]) && isStringOf(value.handle, 1, 200);
    case "user-input":
      return hasExactKeys(value, ["sourceId", "kind", "sha256", "bytes"]) && isCount(value.bytes);
    default:
      return false;
  }
}

function isReviewOpened(value: Record<string, unknown>, rules: GuardEntryRules): boolean {
  if (!hasExactKeys(value, ["kind", "reviewId", "workScopeId", "draftSha256", "draftBytes", "coversEntireAnswer", "claims", "sources", "session", "openedAt"])) return false;
  if (!matches(value.reviewId, rules.reviewId) || !isStringOf(value.workScopeId, 1, 160) || !matches(value.draftSha256, rules.sha256) || !isCount(value.draftBytes)) return false;
  if (typeof value.coversEntireAnswer !== "boolean" || !matches(value.openedAt, rules.timestamp)) return false;
  const session = value.session;
  if (session !== null && !(isPlainRecord(session) && hasExactKeys(session, ["host", "sessionId"]) && isStringOf(session.host, 0, 40) && isStringOf(session.sessionId, 0, 400))) return false;
  const claim = (item: unknown): boolean => isPlainRecord(item) && hasExactKeys(item, ["claimId", "text"]) && matches(item.claimId, rules.claimId) && isStringOf(item.text, 1, rules.maxClaimText);
  return isArrayOf(value.claims, 1, rules.maxClaims, claim) && isArrayOf(value.sources, 1, rules.maxSources, (item) => isSealedSource(item, rules));
}

function isReviewSubmitted(value: Record<string, unknown>, rules: GuardEntryRules): boolean {
  if (!hasExactKeys(value, ["kind", "reviewId", "openedLineSha256", "claims", "response", "status", "problems", "submittedAt"])) return false;
  if (!matches(value.reviewId, rules.reviewId) || !matches(value.openedLineSha256, rules.sha256) || !matches(value.submittedAt, rules.timestamp)) return false;
  if (typeof value.status !== "string" || !rules.statuses.includes(value.status)) return false;
  const response = value.response;
  if (!isPlainRecord(response) || !hasExactKeys(response, ["verdict", "rationale"]) || typeof response.verdict !== "string" || !rules.responseVerdicts.includes(response.verdict) || !isStringOf(response.rationale, 0, rules.maxRationale)) return false;
  const claim = (item: unknown): boolean =>
    isPlainRecord(item) &&
    hasExactKeys(item, ["claimId", "verdict", "citations"]) &&
    matches(item.claimId, rules.claimId) &&
    typeof item.verdict === "string" &&
    rules.claimVerdicts.includes(item.verdict) &&
    isArrayOf(item.citations, 0, rules.maxCitations, (citation) => matches(citation, rules.sourceId));
  const problem = (item: unknown): boolean =>
    isPlainRecord(item) &&
    hasExactKeys(item, ["code", "message", "claimId", "sourceId"]) &&
    matches(item.code, rules.problemCode) &&
    isStringOf(item.message, 0, 2_000) &&
    (item.claimId === null || matches(item.claimId, rules.claimId)) &&
    (item.sourceId === null || matches(item.sourceId, rules.sourceId));
  return isArrayOf(value.claims, 1, rules.maxClaims, claim) && isArrayOf(value.problems, 0, rules.maxClaims + rules.maxSources + 1, problem);
}

/** True only when the guard entry schema certainly accepts `value`; false when unsure (the schema decides). */
export function isCertainGuardEntry(value: unknown, rules: GuardEntryRules): boolean {
  if (!isPlainRecord(value)) return false;
  if (value.kind === "review-opened") return isReviewOpened(value, rules);
  if (value.kind === "review-submitted") return isReviewSubmitted(value, rules);
  return false;
}
