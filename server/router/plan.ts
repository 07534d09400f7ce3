// The Router pipeline (design router.md "Contract"): `plan(task, snapshot, catalogue, options)`
// runs the seven stages in order and hashes the result. Pure — the same inputs give the same
// bytes whatever order the snapshot's and catalogue's lists arrive in, because the inputs are
// put in code-unit order first and every stage sorts what it emits.
import * as z from "zod";
import { ErrorCodes } from "../protocol/errorCodes";
import { DocketError } from "../errors";
import { CanonicalJsonError, compareCodeUnits, hashValue } from "../ledger/canonicalJson";
import { Catalogue, PLAN_FORMAT, Plan, PlanOptions, WorkspaceSnapshot } from "./planSchema";
import { asciiBlockOf, rememberAsciiBlock } from "./pathBlock";
import { parseTask } from "./task";
import { deriveIntent } from "./intent";
import { routeSkills } from "./routing";
import { compose } from "./composer";
import { buildContextPack } from "./contextPack";
import { planVerification } from "./verification";
import { reviewStage } from "./reviewBoard";

function byKeys<T>(...keys: ((value: T) => string)[]): (left: T, right: T) => number {
  return (left, right) => {
    for (const key of keys) {
      const order = compareCodeUnits(key(left), key(right));
      if (order !== 0) return order;
    }
    return 0;
  };
}

function sorted(values: readonly string[]): string[] {
  // Snapshots arrive sorted; one pass to see that is far cheaper than sorting 100,000 paths again.
  // `>` is compareCodeUnits(…) > 0 without a call per path (100,000 of them in a fresh process).
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index - 1] as string) > (values[index] as string)) return [...values].sort(compareCodeUnits);
  }
  const copy = [...values];
  // Same entries in the same order: the text they were split from still describes the copy.
  const block = asciiBlockOf(values);
  if (block !== undefined) rememberAsciiBlock(copy, block);
  return copy;
}

/** A copy of `values` in `compare` order: checked in one pass first, since snapshots arrive sorted (a stable sort would keep that order). */
function sortedBy<T>(values: readonly T[], compare: (left: T, right: T) => number): T[] {
  for (let index = 1; index < values.length; index += 1) {
    if (compare(values[index - 1] as T, values[index] as T) > 0) return [...values].sort(compare);
  }
  return [...values];
}

/** The snapshot with every list in code-unit order (its hash already covers the content, not the order). */
export function normalizeSnapshot(snapshot: WorkspaceSnapshot): WorkspaceSnapshot {
  return {
    ...snapshot,
    files: sorted(snapshot.files),
    directories: sorted(snapshot.directories),
    modules: snapshot.modules
      .map((module) => (module.scripts === undefined ? { ...module } : { ...module, scripts: sorted(module.scripts) }))
      .sort(byKeys((module) => module.path, (module) => module.name, (module) => module.kind)),
    technologies: snapshot.technologies.map((technology) => ({ ...technology, sources: sorted(technology.sources) })).sort(byKeys((technology) => technology.name)),
    ruleFiles: [...snapshot.ruleFiles].sort(byKeys((rule) => rule.path, (rule) => rule.sha256)),
    hotPaths: sortedBy(snapshot.hotPaths, byKeys((hot) => hot.path, (hot) => hot.hint)),
    imports: sortedBy(snapshot.imports, (left, right) => compareCodeUnits(left.from, right.from) || compareCodeUnits(left.to, right.to)),
    limits: sorted(snapshot.limits),
    skipped: [...snapshot.skipped].sort(byKeys((item) => item.path, (item) => item.why)),
  };
}

/**
 * Normalized snapshots by the snapshot object they came from: planning several tasks against one
 * snapshot (the backend, the bench) sorts its lists and builds its path index once, not per plan.
 * Snapshots are never mutated once built, so the object is a sound key.
 */
const normalized = new WeakMap<WorkspaceSnapshot, WorkspaceSnapshot>();

function normalizedOnce(snapshot: WorkspaceSnapshot): WorkspaceSnapshot {
  let workspace = normalized.get(snapshot);
  if (workspace === undefined) {
    workspace = normalizeSnapshot(snapshot);
    normalized.set(snapshot, workspace);
  }
  return workspace;
}

/** The catalogue in its documented order: name, then source ("bundled" < "workspace"), then path. */
export function normalizeCatalogue(catalogue: Catalogue): Catalogue {
  return { entries: [...catalogue.entries].sort(byKeys((entry) => entry.name, (entry) => entry.source, (entry) => entry.path, (entry) => entry.revisionSha256)) };
}

function internal(message: string): DocketError {
  return new DocketError(ErrorCodes.internal, `Router produced an invalid plan (a bug): ${message}`);
}

export function plan(taskText: string, snapshot: WorkspaceSnapshot, catalogue: Catalogue, options: PlanOptions): Plan {
  const parsedOptions = PlanOptions.safeParse(options);
  if (!parsedOptions.success) {
    // The surfaces validate at their boundaries; this guards direct callers. A bad report has its own code.
    const badReport = parsedOptions.error.issues.some((issue) => issue.path[0] === "reports");
    throw new DocketError(badReport ? ErrorCodes.reviewReportInvalid : ErrorCodes.invalidParams, `Invalid plan options: ${z.prettifyError(parsedOptions.error)}`);
  }
  const opts = parsedOptions.data;
  const workspace = normalizedOnce(snapshot);
  const skills = normalizeCatalogue(catalogue);

  const task = parseTask(taskText);
  const intent = deriveIntent(task, workspace, opts.mode);
  const routing = routeSkills(task, intent, skills);
  // The derived (or forced) mode decides whether the composer puts an authorization gate before edits.
  const composition = compose(routing, skills, { mode: intent.executionMode.value });
  const contextPack = buildContextPack(task, intent, routing, composition, workspace, skills);
  const verification = planVerification(intent, composition, workspace, opts);
  const review = reviewStage(task, intent, routing, composition, contextPack, workspace, skills, opts);
  const body = { task, intent, routing, composition, contextPack, verification, review };

  let planSha256: string;
  try {
    planSha256 = hashValue({ domain: PLAN_FORMAT, value: body });
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw internal(`${error.message} (${error.path})`);
    throw error;
  }
  const checked = Plan.safeParse({ ...body, planSha256 });
  if (!checked.success) throw internal(z.prettifyError(checked.error));
  return checked.data;
}

