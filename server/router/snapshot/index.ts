// The snapshot's public surface: what the rest of the Router (and the backend) may import.
export { buildSnapshot } from "./buildSnapshot";
export { snapshotFromFiles, SNAPSHOT_FORMAT } from "./snapshot";
export { SnapshotCache } from "./snapshotCache";
export type { SnapshotOptions } from "./options";
export type { SnapshotFs, WalkEntry, FileStat } from "./fsAdapter";
export { nodeFs } from "./fsAdapter";
export { HOT_WORDS } from "./hotPaths";
