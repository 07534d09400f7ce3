// Which Stop decisions deserve a message: an agent stopped and its final answer had no supported
// review. A decision is known by host, session and time, so the same decision is never announced
// twice, also across window reloads (the caller keeps the keys in the workspace's memento).
// No `vscode` import: unit-tested.
import type { GuardStop } from "../server/protocol/messages";

/** How many announced decisions are remembered; older keys belong to decisions long replaced. */
export const MAX_REMEMBERED = 200;

export function stopKey(stop: Pick<GuardStop, "host" | "sessionId" | "at">): string {
  return JSON.stringify([stop.host, stop.sessionId, stop.at]);
}

export interface AlertPlan {
  /** Decisions to announce now, oldest first. */
  readonly announce: readonly GuardStop[];
  /** The keys to remember afterwards (bounded, newest last). */
  readonly remembered: readonly string[];
}

/**
 * @param remembered keys already seen, or null when this workspace never had any: then every
 *   decision that exists now is taken as seen (the window was not open when they happened, and a
 *   first look at an old workspace should not raise a pile of messages).
 */
export function planAlerts(stops: readonly GuardStop[], remembered: readonly string[] | null): AlertPlan {
  const known = new Set(remembered ?? []);
  const fresh = stops.filter((stop) => !known.has(stopKey(stop)));
  const announce = remembered === null ? [] : fresh.filter((stop) => stop.reviewStatus !== "supported");
  const ordered = [...fresh].sort((left, right) => (left.at < right.at ? -1 : left.at > right.at ? 1 : 0));
  return {
    announce: [...announce].sort((left, right) => (left.at < right.at ? -1 : left.at > right.at ? 1 : 0)),
    remembered: [...(remembered ?? []), ...ordered.map(stopKey)].slice(-MAX_REMEMBERED),
  };
}
