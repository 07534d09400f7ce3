// The Router's adapter for one workspace: the snapshot (kept by a SnapshotCache and refreshed
// from file-change notices), the catalogue (bundled + workspace skills, re-read per plan because
// it is small and skills change by hand), and the review reports recorded for the plan's basis,
// handed to the pure `plan()`. The backend, the CLI and the MCP server all plan through this, so
// they answer alike. It also remembers the tasks of recent plans, so a review report that names
// only a basis can be checked against the plan as it is now.
import fs from "node:fs";
import path from "node:path";
import { DocketError, toDocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { loadCatalogue } from "./catalogueFiles";
import { loadCatalogueIndexed } from "./catalogueIndex";
import { plan as pipeline } from "./plan";
import { Plan, type Catalogue, type ExecutionMode, type PlanOptions, type SeatReport, type WorkspaceSnapshot } from "./planSchema";
import { appendReport, readReports } from "./reportStore";
import { SnapshotCache } from "./snapshot/snapshotCache";
import { parseTask } from "./task";

/** The I/O and pipeline a planner uses; injectable so surfaces can be tested with fixed plans. */
export interface PlannerModules {
  createCache(workspaceRoot: string): { invalidate(paths: readonly string[]): void; get(): Promise<WorkspaceSnapshot> };
  loadCatalogue(workspaceRoot: string, packageRoot: string): Catalogue;
  plan(task: string, snapshot: WorkspaceSnapshot, catalogue: Catalogue, options: PlanOptions): Plan;
}

export const ROUTER_MODULES: PlannerModules = {
  createCache: (workspaceRoot) => new SnapshotCache(workspaceRoot),
  // Through the Router index: the skills are parsed again only when one of their files changed.
  loadCatalogue: loadCatalogueIndexed,
  plan: pipeline,
};

/**
 * For a workspace Docket must not write to (VS Code's Restricted Mode): the same plans, with the
 * snapshot kept in memory only — no Router index is read or written under `.docket/`.
 */
export const READ_ONLY_ROUTER_MODULES: PlannerModules = {
  createCache: (workspaceRoot) => new SnapshotCache(workspaceRoot, { indexStore: () => null }),
  loadCatalogue,
  plan: pipeline,
};

/** Recent plans remembered for review reports (a board has one basis per task and workspace state). */
const REMEMBERED_PLANS = 64;

export interface RecordedReport {
  readonly report: SeatReport;
  /** The plan re-evaluated with the report. */
  readonly plan: Plan;
}

/**
 * "watched": the caller reports file changes through `invalidate` and the snapshot is kept
 * between plans; "rescan": nobody watches, so every plan scans the workspace afresh.
 */
export type SnapshotFreshness = "watched" | "rescan";

export class WorkspacePlanner {
  private cache: ReturnType<PlannerModules["createCache"]>;
  /** basisSha256 → the task and mode that produced it, most recent last. */
  private readonly recent = new Map<string, { task: string; mode: ExecutionMode | null }>();

  constructor(
    readonly workspaceRoot: string,
    readonly packageRoot: string,
    private readonly modules: PlannerModules = ROUTER_MODULES,
    private readonly freshness: SnapshotFreshness = "watched",
  ) {
    this.cache = modules.createCache(workspaceRoot);
  }

  /** Files changed (absolute or workspace-relative paths): the next plan rescans them. */
  invalidate(paths: readonly string[]): void {
    const relative: string[] = [];
    for (const changed of paths) {
      const rel = path.isAbsolute(changed) ? path.relative(this.workspaceRoot, changed) : changed;
      if (rel === "" || rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) continue;
      const posix = rel.split(path.sep).join("/");
      // Git's own bookkeeping changes all the time (an editor's `git status` rewrites the index)
      // without changing which files are listed; only the local exclude file can.
      if ((posix === ".git" || posix.startsWith(".git/")) && posix !== ".git/info/exclude") continue;
      // Nothing under .docket/ is ever listed (snapshot/fileList.ts); the Router index's own
      // writes there must not make the next plan check the workspace again.
      if (posix.startsWith(".docket/")) continue;
      relative.push(posix);
    }
    if (relative.length > 0) this.cache.invalidate(relative);
  }

  /** Plans `task` against the workspace as it is now, with the reports recorded for its basis. */
  async plan(task: string, mode: ExecutionMode | null): Promise<Plan> {
    // A task that cannot be planned is refused before the snapshot is taken, so it writes nothing
    // (not even the Router index).
    parseTask(task);
    const { snapshot, catalogue } = await this.inputs();
    const options: PlanOptions = { mode, reports: [], ranChecks: [] };
    let result = this.run(task, snapshot, catalogue, options);
    const basis = result.contextPack.versions.basisSha256;
    const reports = readReports(this.workspaceRoot, basis);
    // The basis does not depend on reports, so planning again with them keeps the same basis.
    if (reports.length > 0) result = this.run(task, snapshot, catalogue, { ...options, reports });
    this.remember(basis, task, mode);
    return result;
  }

  /**
   * Records a review-board report for the plan whose basis it names. The basis must be the
   * basis of a plan this planner produced, or of the plan for `task` (given by a reviewer that did
   * not make the plan), and still be current (same task, snapshot, skills).
   */
  async recordReport(raw: unknown, task?: { readonly task: string; readonly mode: ExecutionMode | null }): Promise<RecordedReport> {
    const basis = typeof raw === "object" && raw !== null ? (raw as { basisSha256?: unknown }).basisSha256 : undefined;
    let known = typeof basis === "string" ? this.recent.get(basis) : undefined;
    // Planning the named task remembers its basis; a report on any other basis is refused below.
    if (known === undefined && task !== undefined && typeof basis === "string") {
      await this.plan(task.task, task.mode);
      known = this.recent.get(basis);
    }
    if (known === undefined) {
      throw new DocketError(
        ErrorCodes.reviewReportInvalid,
        task === undefined
          ? `No current plan has basis ${typeof basis === "string" ? basis : "(missing)"}: call plan for the task first (or send the task with the report), then report on the basis it returns (review.seats, contextPack.versions.basisSha256).`
          : `The plan for this task has another basis than ${typeof basis === "string" ? basis : "(missing)"} now (the task text, the files or the skills differ): plan again and report on the basis it returns.`,
      );
    }
    const current = await this.plan(known.task, known.mode);
    const seats = current.review.seats.map((seat) => seat.reviewer);
    const report = appendReport(this.workspaceRoot, raw, { basisSha256: current.contextPack.versions.basisSha256, seats });
    return { report, plan: await this.plan(known.task, known.mode) };
  }

  private async inputs(): Promise<{ snapshot: WorkspaceSnapshot; catalogue: Catalogue }> {
    const stat = fs.statSync(this.workspaceRoot, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isDirectory()) {
      throw new DocketError(ErrorCodes.snapshotUnavailable, `There is no folder at ${this.workspaceRoot} to plan against.`);
    }
    if (this.freshness === "rescan") this.cache = this.modules.createCache(this.workspaceRoot);
    let snapshot: WorkspaceSnapshot;
    try {
      snapshot = await this.cache.get();
    } catch (error) {
      if (error instanceof DocketError) throw error;
      throw new DocketError(ErrorCodes.snapshotUnavailable, `The workspace at ${this.workspaceRoot} cannot be scanned: ${toDocketError(error).message}`);
    }
    let catalogue: Catalogue;
    try {
      catalogue = this.modules.loadCatalogue(this.workspaceRoot, this.packageRoot);
    } catch (error) {
      if (error instanceof DocketError) throw error;
      throw new DocketError(ErrorCodes.snapshotUnavailable, `The skill catalogue cannot be read: ${toDocketError(error).message}`);
    }
    return { snapshot, catalogue };
  }

  private run(task: string, snapshot: WorkspaceSnapshot, catalogue: Catalogue, options: PlanOptions): Plan {
    const result = this.modules.plan(task, snapshot, catalogue, options);
    // The Router's own pipeline checks its plan against the schema before hashing it.
    if (this.modules.plan === pipeline) return result;
    // Every surface hands this plan on as the contract says; a pipeline bug is said, not shipped.
    const checked = Plan.safeParse(result);
    if (!checked.success) {
      const detail = checked.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
      throw new DocketError(ErrorCodes.internal, `The Router produced a plan that fails its schema: ${detail}`);
    }
    return checked.data;
  }

  private remember(basis: string, task: string, mode: ExecutionMode | null): void {
    this.recent.delete(basis);
    this.recent.set(basis, { task, mode });
    while (this.recent.size > REMEMBERED_PLANS) {
      const oldest = this.recent.keys().next().value;
      if (oldest === undefined) break;
      this.recent.delete(oldest);
    }
  }
}
