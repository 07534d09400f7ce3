// Shape of the results file the in-host test runner (index.ts) writes, read by the launcher (exthost.test.ts).
// The path comes from the DOCKET_EXTHOST_RESULTS environment variable set on the VS Code (server) process.

export const RESULTS_ENV = "DOCKET_EXTHOST_RESULTS";

export interface ExtHostTestResult {
  title: string;
  state: "passed" | "failed" | "pending";
  durationMs?: number;
  error?: string;
}

export interface ExtHostResults {
  passed: number;
  failed: number;
  pending: number;
  tests: ExtHostTestResult[];
  /** Set when the runner itself broke (e.g. a suite file failed to load). */
  error?: string;
  vscodeVersion: string;
  appName: string;
  remoteName: string | null;
  node: string;
  durationMs: number;
}
