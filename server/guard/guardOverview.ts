// What the views show of the completion guard: every review recorded in the ledger (claims, their
// verdicts and cited sources, the whole-response verdict) and the last Stop decision of each agent
// session, plus the mode the hooks honour. Read-only; the ledger's guard lines are the truth for
// reviews, the session files for Stop decisions.
import fs from "node:fs";
import path from "node:path";
import type { GuardLine } from "../ledger/store";
import { readContained } from "../workspace/containedFs";
import type { GuardMode } from "./guardDecision";
import type { SealedSource } from "./guardEntry";
import { readGuardMode } from "./guardFiles";
import { parseSession, sessionsFolder, type StopRecord } from "./guardSession";

export interface ReviewClaimView {
  readonly claimId: string;
  readonly text: string;
  /** null until the review is submitted. */
  readonly verdict: "supported" | "unsupported" | "partial" | null;
  readonly citations: readonly string[];
}

export interface ReviewView {
  readonly reviewId: string;
  readonly workScopeId: string;
  readonly openedAt: string;
  readonly line: number;
  /** "open": not submitted yet. */
  readonly status: "open" | "supported" | "unsupported" | "incomplete";
  readonly claims: readonly ReviewClaimView[];
  readonly sources: readonly SealedSource[];
  readonly response: { readonly verdict: "supported" | "unsupported"; readonly rationale: string } | null;
  readonly problems: readonly { readonly code: string; readonly message: string }[];
  readonly submittedAt: string | null;
}

export interface StopView extends StopRecord {
  readonly host: string;
  readonly sessionId: string;
}

export interface GuardOverview {
  readonly mode: GuardMode;
  /** Newest first, at most `limit`. */
  readonly reviews: readonly ReviewView[];
  /** The last Stop decision per agent session, newest first. */
  readonly stops: readonly StopView[];
}

const MAX_SESSIONS = 50;

export function reviewViews(lines: readonly GuardLine[], limit: number): ReviewView[] {
  const views = new Map<string, ReviewView>();
  for (const line of lines) {
    const entry = line.entry;
    if (entry.kind === "review-opened") {
      views.set(entry.reviewId, {
        reviewId: entry.reviewId,
        workScopeId: entry.workScopeId,
        openedAt: entry.openedAt,
        line: line.line,
        status: "open",
        claims: entry.claims.map((claim) => ({ claimId: claim.claimId, text: claim.text, verdict: null, citations: [] })),
        sources: entry.sources,
        response: null,
        problems: [],
        submittedAt: null,
      });
      continue;
    }
    const opened = views.get(entry.reviewId);
    if (opened === undefined || opened.status !== "open") continue;
    const judgments = new Map(entry.claims.map((claim) => [claim.claimId, claim]));
    views.set(entry.reviewId, {
      ...opened,
      status: entry.status,
      claims: opened.claims.map((claim) => {
        const judged = judgments.get(claim.claimId);
        return judged === undefined ? claim : { ...claim, verdict: judged.verdict, citations: judged.citations };
      }),
      response: entry.response,
      problems: entry.problems.map((problem) => ({ code: problem.code, message: problem.message })),
      submittedAt: entry.submittedAt,
    });
  }
  return [...views.values()].sort((left, right) => right.line - left.line).slice(0, limit);
}

export function readStops(workspaceFolder: string): StopView[] {
  const folder = sessionsFolder(workspaceFolder);
  let names: string[];
  try {
    names = fs.readdirSync(folder).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  // Only the newest session files are read: a year of agent sessions leaves thousands behind.
  const newest = names
    .flatMap((name) => {
      try {
        return [{ name, mtimeMs: fs.lstatSync(path.join(folder, name)).mtimeMs }];
      } catch {
        return [];
      }
    })
    .sort((left, right) => right.mtimeMs - left.mtimeMs || (left.name < right.name ? -1 : 1))
    .slice(0, MAX_SESSIONS)
    .map((entry) => entry.name);
  const stops: StopView[] = [];
  for (const name of newest) {
    try {
      const bytes = readContained(workspaceFolder, path.join(folder, name), 64 * 1024);
      const session = bytes === null ? null : parseSession(bytes.toString("utf8"));
      if (session?.lastStop === null || session?.lastStop === undefined) continue;
      stops.push({ ...session.lastStop, host: session.host, sessionId: session.sessionId });
    } catch {
      // A damaged session file shows no decision.
    }
  }
  // ISO timestamps sort by code units; ties by session for a stable order.
  return stops.sort((left, right) => (left.at === right.at ? (left.sessionId < right.sessionId ? -1 : 1) : left.at < right.at ? 1 : -1)).slice(0, MAX_SESSIONS);
}

export function guardOverview(workspaceFolder: string, lines: readonly GuardLine[], limit = 50): GuardOverview {
  return { mode: readGuardMode(workspaceFolder).mode, reviews: reviewViews(lines, limit), stops: readStops(workspaceFolder) };
}
