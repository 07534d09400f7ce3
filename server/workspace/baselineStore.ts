// Workspace baselines on disk, so a restarted VS Code window or a separate hook process can still
// authorize and land (developer/v8 §6.3 kept them in memory only, which made a restart a dead
// end, §11 item 7). One file per baseline under `<workspace>/.docket/baselines/`, written
// atomically and self-checking: a torn, edited or foreign file is reported, never trusted.
import fs from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { canonicalJson, h24, hashValue, type JsonValue } from "../ledger/canonicalJson";
import type { WorkspaceSnapshot } from "../developer/workspaceDelta";
import { ensureDocketFolder } from "./docketFolder";
import { UnsafePathError, assertContained, readContained, writeFileAtomicContained } from "./containedFs";

export const BASELINE_FORMAT = "docket/workspace-baseline/v1";
export const BASELINES_RELATIVE_DIRECTORY = path.join(".docket", "baselines");

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9._:/-]*$/u;
const identifier = z.string().max(160).regex(IDENTIFIER);
const sha256 = z.string().regex(/^[a-f0-9]{64}$/u);
const identity = z.string().regex(/^(absent|directory|(file|symlink):[a-f0-9]{64}|other:\d+:\d+)$/u);

const Snapshot = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("git"),
    root: z.string().min(1),
    cwd: z.string().min(1),
    head: z.string().regex(/^[a-f0-9]{40,64}$/u).nullable(),
    dirty: z
      .array(z.strictObject({ path: z.string().min(1), identity }))
      .refine((entries) => entries.every((entry, index) => index === 0 || (entries[index - 1] as { path: string }).path < entry.path), {
        message: "dirty paths must be strictly ascending",
      }),
  }),
  z.strictObject({ kind: z.literal("unavailable"), reason: z.string().min(1) }),
]);

const Baseline = z
  .strictObject({
    workScopeId: identifier,
    role: z.enum(["scope", "authorization", "landing"]),
    authorizationId: identifier.nullable(),
    snapshot: Snapshot,
  })
  .refine((value) => (value.role !== "scope") === (value.authorizationId !== null), {
    message: "an authorization or landing baseline names its authorization and a scope baseline names none",
  });

const BaselineFile = z.strictObject({ format: z.literal(BASELINE_FORMAT), baseline: Baseline, sha256 });

/**
 * `scope`: the workspace when the scope was first seen; `authorization`: when a change was
 * authorized (what its landing is reconciled against); `landing`: right after that change landed
 * (what the next authorization is measured against).
 */
export type BaselineRole = "scope" | "authorization" | "landing";

export interface BaselineKey {
  readonly workScopeId: string;
  readonly role: BaselineRole;
  /** Required for `authorization` and `landing`, absent for `scope`. */
  readonly authorizationId?: string;
}

/**
 * The baseline an authorization in a scope is measured against: the workspace after the scope's
 * last landing (named by that landing's authorization), or as the scope found it. A landing saves
 * its own file instead of overwriting `scope`, so a landing that fails after saving (it saves
 * before appending) never changes what is in force.
 */
export function inForceBaselineKey(workScopeId: string, lastLandingAuthorizationId: string | null): BaselineKey {
  return lastLandingAuthorizationId === null ? { workScopeId, role: "scope" } : { workScopeId, role: "landing", authorizationId: lastLandingAuthorizationId };
}

export interface WorkspaceBaseline extends BaselineKey {
  readonly snapshot: WorkspaceSnapshot;
}

export type BaselineProblem = "missing" | "corrupt" | "unreadable";

export type LoadedBaseline =
  | { readonly ok: true; readonly baseline: WorkspaceBaseline }
  | { readonly ok: false; readonly problem: BaselineProblem; readonly message: string; readonly file: string };

export class BaselineStoreError extends Error {
  constructor(
    readonly code: "invalid-baseline" | "baseline-unwritable",
    message: string,
  ) {
    super(message);
    this.name = "BaselineStoreError";
  }
}

export function baselinesDirectory(workspaceFolder: string): string {
  return path.join(workspaceFolder, BASELINES_RELATIVE_DIRECTORY);
}

/** Ids contain `:` and `/`, which are not file-name safe; a hash is, and the file repeats the id. */
function scopeDirectory(workspaceFolder: string, workScopeId: string): string {
  return path.join(baselinesDirectory(workspaceFolder), `scope-${h24({ domain: "docket/baseline-scope/v1", workScopeId })}`);
}

export function baselineFile(workspaceFolder: string, key: BaselineKey): string {
  const name =
    key.role === "scope"
      ? "scope.json"
      : `${key.role}-${h24({ domain: `docket/baseline-${key.role}/v1`, authorizationId: key.authorizationId ?? "" })}.json`;
  return path.join(scopeDirectory(workspaceFolder, key.workScopeId), name);
}

function recordOf(baseline: WorkspaceBaseline): Readonly<Record<string, unknown>> {
  return {
    workScopeId: baseline.workScopeId,
    role: baseline.role,
    authorizationId: baseline.role === "scope" ? null : (baseline.authorizationId ?? null),
    snapshot: baseline.snapshot,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes a baseline atomically: temp file, fsync, rename over the final name. A reader (another
 * process) therefore sees the old file or the new one, never a torn mix. Returns the file path.
 */
export async function saveBaseline(workspaceFolder: string, baseline: WorkspaceBaseline): Promise<string> {
  return saveBaselineSync(workspaceFolder, baseline);
}

/**
 * saveBaseline, synchronously: for a writer that must persist a baseline inside the ledger lock,
 * *before* the batch that needs it is appended, so a crash can never leave the batch without it.
 */
export function saveBaselineSync(workspaceFolder: string, baseline: WorkspaceBaseline): string {
  const parsed = Baseline.safeParse(recordOf(baseline));
  if (!parsed.success) {
    throw new BaselineStoreError("invalid-baseline", `Refusing to save an invalid baseline: ${z.prettifyError(parsed.error)}`);
  }
  // The schema is exactly what load accepts, so nothing is written that could not be read back.
  const record = parsed.data as unknown as JsonValue;
  const text = `${canonicalJson({ format: BASELINE_FORMAT, baseline: record, sha256: hashValue({ format: BASELINE_FORMAT, baseline: record }) })}\n`;
  const file = baselineFile(workspaceFolder, baseline);
  try {
    ensureDocketFolder(workspaceFolder);
    // Temp file, fsync, rename, folder fsync; never through a link a repository placed there.
    writeFileAtomicContained(workspaceFolder, file, text, { durable: true });
    return file;
  } catch (error) {
    if (error instanceof UnsafePathError) throw error;
    throw new BaselineStoreError("baseline-unwritable", `Could not save the workspace baseline ${file}: ${errorText(error)}`);
  }
}

/** A snapshot holds hashes of dirty paths, never contents; a larger file is `unreadable`. */
const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

/** Reads and verifies one baseline; every problem is a value, so callers can explain it. */
export async function loadBaseline(workspaceFolder: string, key: BaselineKey): Promise<LoadedBaseline> {
  const file = baselineFile(workspaceFolder, key);
  const corrupt = (message: string): LoadedBaseline => ({
    ok: false,
    problem: "corrupt",
    file,
    message: `The workspace baseline ${file} is damaged (${message}); Docket will not trust it.`,
  });
  let text: string;
  try {
    const bytes = readContained(workspaceFolder, file, MAX_BASELINE_BYTES);
    if (bytes === null) return { ok: false, problem: "missing", file, message: `No workspace baseline was saved at ${file}.` };
    text = bytes.toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { ok: false, problem: "missing", file, message: `No workspace baseline was saved at ${file}.` };
    }
    return { ok: false, problem: "unreadable", file, message: `Could not read the workspace baseline ${file}: ${errorText(error)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return corrupt(`not JSON: ${errorText(error)}`);
  }
  const parsed = BaselineFile.safeParse(json);
  if (!parsed.success) return corrupt(z.prettifyError(parsed.error).replace(/\n/gu, " "));
  const { baseline: record, sha256: recorded } = parsed.data;
  const expected = hashValue({ format: BASELINE_FORMAT, baseline: record as unknown as JsonValue });
  if (expected !== recorded) return corrupt("its content does not match its sha256");
  if (text !== `${canonicalJson(json as JsonValue)}\n`) return corrupt("not in canonical form");
  const wantedAuthorization = key.role === "scope" ? null : (key.authorizationId ?? null);
  if (record.workScopeId !== key.workScopeId || record.role !== key.role || record.authorizationId !== wantedAuthorization) {
    return corrupt("it belongs to another scope or authorization");
  }
  const baseline: WorkspaceBaseline =
    record.role !== "scope" && record.authorizationId !== null
      ? { workScopeId: record.workScopeId, role: record.role, authorizationId: record.authorizationId, snapshot: record.snapshot }
      : { workScopeId: record.workScopeId, role: "scope", snapshot: record.snapshot };
  return { ok: true, baseline };
}

/** Removes every baseline of a scope (after it closes); removing nothing is not an error. */
export async function discardBaselines(workspaceFolder: string, workScopeId: string): Promise<void> {
  const directory = scopeDirectory(workspaceFolder, workScopeId);
  // Through a linked `.docket` or `baselines/` this would delete someone else's folder.
  assertContained(workspaceFolder, directory);
  await fs.rm(directory, { recursive: true, force: true });
}
