// The captured evidence handles `status` lists, so a model knows which `branch-result-…` handles
// conclude_judgment can nominate. Capturing belongs to the host hooks (server/evidence/); a store
// that cannot be read lists nothing rather than failing status.
import { recentEvidence, type RecentEvidence } from "../evidence/evidenceStore";

export type RecentEvidenceEntry = RecentEvidence;

/** How many handles status shows (the reference's model-control block shows the last 12). */
export const RECENT_EVIDENCE_LIMIT = 12;

export function recentEvidenceHandles(workspaceFolder: string, limit: number = RECENT_EVIDENCE_LIMIT): readonly RecentEvidenceEntry[] {
  try {
    return recentEvidence(workspaceFolder, limit);
  } catch {
    return [];
  }
}
