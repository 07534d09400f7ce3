// One-shot snapshot of a workspace folder (the CLI and the bench); the backend keeps a
// `SnapshotCache` instead so file changes rebuild incrementally.
import type { WorkspaceSnapshot } from "../planSchema";
import { collectSnapshot } from "./collect";
import type { SnapshotOptions } from "./options";

/**
 * Never throws for files it cannot read or decode (they are listed in `skipped`); throws
 * DocketError(snapshotUnavailable) only when `root` itself is missing, not a folder or unlistable.
 */
export async function buildSnapshot(root: string, options: SnapshotOptions = {}): Promise<WorkspaceSnapshot> {
  return (await collectSnapshot(root, options, new Map(), () => false)).snapshot;
}
