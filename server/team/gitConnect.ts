// `docket connect git` / `docket disconnect git` (issue 17): what Docket installs into a Git
// repository, as a plan shown before anything is written (like the agent installers):
//   (a) the `.gitattributes` line `<ledger path> merge=docket-ledger` in the workspace folder,
//   (b) the repo-local `merge.docket-ledger.name` and `.driver` (Git runs the driver through its
//       shell, so both paths are single-quoted), and
//   (c) the prepare-commit-msg hook where Git will run it (`git rev-parse --git-path hooks`,
//       which follows core.hooksPath), refused when that folder lies outside the repository
//       and its Git folder.
// Disconnect removes exactly these: only our line, only config values Docket's shape, only a hook
// file that is Docket's script. A hook, driver or attributes file Docket did not write is a coded
// conflict and nothing changes. A repository can ship `.gitattributes` but never config, so a
// cloned `merge=docket-ledger` line does nothing until a person connects.
import fs from "node:fs";
import path from "node:path";
import { canonicalize, sha256Hex } from "../ledger/canonicalJson";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { resolveLedgerPath } from "../workspace/ledgerPaths";
import { git } from "./gitCommand";
import { repoLayout } from "./repoLayout";

export const MERGE_DRIVER = "docket-ledger";
export const MERGE_DRIVER_NAME = "Docket ledger merge";
const NAME_KEY = `merge.${MERGE_DRIVER}.name`;
const DRIVER_KEY = `merge.${MERGE_DRIVER}.driver`;
const HOOK_NAME = "prepare-commit-msg";
const HOOK_MARKER = "# Docket prepare-commit-msg hook (docket connect git).";

export interface GitPlanFile {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  /** The hook is written executable. */
  readonly executable: boolean;
}

export interface GitPlanConfig {
  readonly key: string;
  readonly before: string | null;
  readonly after: string | null;
}

export interface GitPlan {
  readonly target: "git";
  // Mutable arrays: the backend answers this object as the protocol's GitPlan (server/protocol/messages.ts).
  files: GitPlanFile[];
  config: GitPlanConfig[];
  notes: string[];
  readonly planSha256: string;
}

export interface GitInstallation {
  readonly workspaceFolder: string;
  /** Absolute real path of dist/docket.js. */
  readonly runtimePath: string;
  /** Absolute path of the node that runs it (process.execPath). */
  readonly nodePath: string;
}

/** POSIX single quotes: the shell Git runs hooks and drivers with takes the text literally. */
export function shellQuote(value: string): string {
  if (/[\0\r\n]/u.test(value)) throw new DocketError(ErrorCodes.agentRuntimeMissing, `${JSON.stringify(value)} cannot be written into a shell command.`);
  return `'${value.replace(/'/gu, `'\\''`)}'`;
}

const QUOTED = `'(?:[^']|'\\\\'')*'`;
const DOCKET_DRIVER = new RegExp(`^${QUOTED} '(?:[^']|'\\\\'')*docket[^'/\\\\]*\\.js' merge-ledger %O %A %B %P$`, "u");
const DOCKET_HOOK = new RegExp(
  `^#!/bin/sh\\n${HOOK_MARKER.replace(/[.()]/gu, "\\$&")}[^\\n]*\\n(?:#[^\\n]*\\n)*${QUOTED} '(?:[^']|'\\\\'')*docket[^'/\\\\]*\\.js' link --prepare-commit-msg --workspace (${QUOTED}) -- "\\$@" \\|\\| [^\\n]*\\nexit 0\\n$`,
  "u",
);

export function driverCommand(installation: GitInstallation): string {
  return `${shellQuote(installation.nodePath)} ${shellQuote(installation.runtimePath)} merge-ledger %O %A %B %P`;
}

export function isDocketDriver(value: string): boolean {
  return DOCKET_DRIVER.test(value);
}

export function hookScript(installation: GitInstallation, workspace: string): string {
  return [
    "#!/bin/sh",
    `${HOOK_MARKER} Remove it with: docket disconnect git`,
    "# Adds Docket-Landing/Docket-Scope trailers for the open scope's landed paths; never fails a commit.",
    `${shellQuote(installation.nodePath)} ${shellQuote(installation.runtimePath)} link --prepare-commit-msg --workspace ${shellQuote(workspace)} -- "$@" || echo "docket: prepare-commit-msg failed; the commit message was left as it was" >&2`,
    "exit 0",
    "",
  ].join("\n");
}

/** The workspace a Docket hook script names, or null when the text is not Docket's hook. */
export function docketHookWorkspace(text: string): string | null {
  const match = DOCKET_HOOK.exec(text);
  if (match === null) return null;
  return (match[1] as string).slice(1, -1).replace(/'\\''/gu, "'");
}

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The real path of a path that may not exist yet: its nearest existing ancestor's, plus the rest. */
function realPathAhead(file: string): string {
  const rest: string[] = [];
  let current = path.resolve(file);
  for (;;) {
    if (fs.existsSync(current)) return path.join(realPath(current), ...rest.reverse());
    const parent = path.dirname(current);
    if (parent === current) return path.join(current, ...rest.reverse());
    rest.push(path.basename(current));
    current = parent;
  }
}

function inside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

const MAX_FILE_BYTES = 1024 * 1024;

/** A file's text, null when absent; a link or anything but a small regular file is refused. */
function readPlain(file: string, what: string): string | null {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return null;
  if (!stat.isFile() || stat.size > MAX_FILE_BYTES) {
    throw new DocketError(ErrorCodes.gitHookConflict, `${file} (${what}) is ${stat.isSymbolicLink() ? "a symbolic link" : "not a small regular file"}; Docket will not edit it. Nothing was changed.`);
  }
  return fs.readFileSync(file, "utf8");
}

/** The ledger path as a `.gitattributes` pattern: workspace-relative, POSIX, nothing Git would read specially. */
function attributesPattern(workspaceFolder: string): string {
  const ledger = resolveLedgerPath(workspaceFolder, null);
  const relative = path.relative(workspaceFolder, ledger).split(path.sep).join("/");
  if (!/^[A-Za-z0-9._/-]+$/u.test(relative) || relative.startsWith("..")) {
    throw new DocketError(ErrorCodes.invalidParams, `The ledger path ${relative} cannot be written as a .gitattributes pattern.`);
  }
  return relative;
}

export function attributesLine(workspaceFolder: string): string {
  return `${attributesPattern(workspaceFolder)} merge=${MERGE_DRIVER}`;
}

function withLine(before: string | null, line: string): string {
  const text = before ?? "";
  if (text.split("\n").some((entry) => entry.replace(/\r$/u, "") === line)) return text;
  return `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${line}\n`;
}

function withoutLine(before: string, line: string): string {
  // Line by line with each line's own ending, so every other byte stays as it was.
  const pieces = before.match(/[^\n]*\n|[^\n]+$/gu) ?? [];
  return pieces.filter((piece) => piece.replace(/\r?\n$/u, "") !== line).join("");
}

async function localConfig(cwd: string, key: string): Promise<string | null> {
  const result = await git(cwd, ["config", "--local", "--get-all", key], { acceptedExitCodes: [1] });
  if (result.exitCode === 1) return null;
  const values = result.stdout.replace(/\n$/u, "").split("\n");
  if (values.length > 1) throw new DocketError(ErrorCodes.gitHookConflict, `git config ${key} has several values; Docket will not edit it. Nothing was changed.`);
  return values[0] as string;
}

interface HookLocation {
  readonly file: string;
}

async function hookLocation(cwd: string, toplevel: string): Promise<HookLocation> {
  const hooks = path.resolve(cwd, (await git(cwd, ["rev-parse", "--git-path", "hooks"])).stdout.replace(/\n$/u, ""));
  const common = realPath(path.resolve(cwd, (await git(cwd, ["rev-parse", "--git-common-dir"])).stdout.replace(/\n$/u, "")));
  const real = realPathAhead(hooks);
  if (!inside(toplevel, real) && !inside(common, real)) {
    throw new DocketError(
      ErrorCodes.gitHooksOutside,
      `Git runs this repository's hooks from ${real} (core.hooksPath), outside the repository ${toplevel}; Docket will not write there. Nothing was changed.`,
    );
  }
  return { file: path.join(real, HOOK_NAME) };
}

export function gitPlanDigest(files: readonly GitPlanFile[], config: readonly GitPlanConfig[]): string {
  return sha256Hex(canonicalize({ target: "git", files: files.map((file) => ({ ...file })), config: config.map((entry) => ({ ...entry })) }));
}

/** What connect (or disconnect) would change. Throws a coded conflict for anything Docket did not write. */
export async function planGit(installation: GitInstallation, mode: "connect" | "disconnect"): Promise<GitPlan> {
  const workspaceFolder = realPath(installation.workspaceFolder);
  const layout = await repoLayout(workspaceFolder, workspaceFolder);
  const connect = mode === "connect";
  const files: GitPlanFile[] = [];
  const config: GitPlanConfig[] = [];
  const notes: string[] = [];

  const attributesFile = path.join(workspaceFolder, ".gitattributes");
  const attributesBefore = readPlain(attributesFile, ".gitattributes");
  const line = attributesLine(workspaceFolder);
  const attributesAfter = connect ? withLine(attributesBefore, line) : attributesBefore === null ? null : withoutLine(attributesBefore, line);
  const attributesFinal = !connect && attributesAfter === "" ? null : attributesAfter;
  if (attributesFinal !== attributesBefore) files.push({ path: attributesFile, before: attributesBefore, after: attributesFinal, executable: false });

  const driver = driverCommand(installation);
  const nameBefore = await localConfig(workspaceFolder, NAME_KEY);
  const driverBefore = await localConfig(workspaceFolder, DRIVER_KEY);
  if (connect) {
    if (driverBefore !== null && !isDocketDriver(driverBefore)) {
      throw new DocketError(ErrorCodes.gitHookConflict, `git config ${DRIVER_KEY} is already set to a command Docket did not write (${driverBefore}). Nothing was changed.`);
    }
    if (nameBefore !== MERGE_DRIVER_NAME) config.push({ key: NAME_KEY, before: nameBefore, after: MERGE_DRIVER_NAME });
    if (driverBefore !== driver) config.push({ key: DRIVER_KEY, before: driverBefore, after: driver });
  } else {
    if (nameBefore === MERGE_DRIVER_NAME) config.push({ key: NAME_KEY, before: nameBefore, after: null });
    if (driverBefore !== null && isDocketDriver(driverBefore)) config.push({ key: DRIVER_KEY, before: driverBefore, after: null });
    else if (driverBefore !== null) notes.push(`git config ${DRIVER_KEY} holds a command Docket did not write; it was left alone.`);
  }

  // Asked from the top level: Git runs hooks there, so a relative core.hooksPath means a folder under it.
  const hook = await hookLocation(layout.toplevel, layout.toplevel);
  const hookBefore = readPlain(hook.file, "the prepare-commit-msg hook");
  const owner = hookBefore === null ? null : docketHookWorkspace(hookBefore);
  if (connect) {
    if (hookBefore !== null && owner === null) {
      throw new DocketError(ErrorCodes.gitHookConflict, `${hook.file} is a prepare-commit-msg hook Docket did not write; Docket will not replace it. Nothing was changed.`);
    }
    if (owner !== null && owner !== workspaceFolder) {
      throw new DocketError(ErrorCodes.gitHookConflict, `${hook.file} is Docket's hook for another workspace (${owner}); disconnect that one first. Nothing was changed.`);
    }
    const script = hookScript(installation, workspaceFolder);
    if (hookBefore !== script) files.push({ path: hook.file, before: hookBefore, after: script, executable: true });
  } else if (hookBefore !== null) {
    if (owner === workspaceFolder) files.push({ path: hook.file, before: hookBefore, after: null, executable: true });
    else notes.push(`${hook.file} is not Docket's hook for this workspace; it was left alone.`);
  }

  // A shipped line can hand other paths to the driver too; the driver refuses what is not a ledger, but say so.
  const others = (attributesBefore ?? "").split("\n").map((entry) => entry.replace(/\r$/u, "")).filter((entry) => entry !== line && new RegExp(`(^|\\s)merge=${MERGE_DRIVER}(\\s|$)`, "u").test(entry));
  if (connect && others.length > 0) notes.push(`.gitattributes also gives these paths to the ${MERGE_DRIVER} merge driver, which Docket did not write: ${others.join("; ")}. Remove them unless you meant them.`);

  if (files.length + config.length > 0) {
    notes.push(
      connect
        ? "New commits that contain a path the open scope landed get Docket-Landing and Docket-Scope trailers; link older commits with `docket link <range>`."
        : "Trailers and notes already written stay; remove the notes with `git notes --ref=refs/notes/docket remove <commit>` if you want them gone.",
    );
  }
  return { target: "git", files, config, notes, planSha256: gitPlanDigest(files, config) };
}

let tempCounter = 0;

function writeFile(file: GitPlanFile): void {
  if (file.after === null) {
    fs.rmSync(file.path, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(file.path), { recursive: true });
  tempCounter += 1;
  const temp = path.join(path.dirname(file.path), `.${path.basename(file.path)}.docket-${process.pid}-${tempCounter}.tmp`);
  try {
    fs.writeFileSync(temp, file.after, { encoding: "utf8", flag: "wx", mode: file.executable ? 0o755 : 0o644 });
    if (file.executable) fs.chmodSync(temp, 0o755);
    fs.renameSync(temp, file.path);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Re-plans, checks the plan is the one shown (when a digest is given), then writes it. */
export async function applyGit(installation: GitInstallation, mode: "connect" | "disconnect", expectedSha256: string | null): Promise<GitPlan> {
  const plan = await planGit(installation, mode);
  if (expectedSha256 !== null && plan.planSha256 !== expectedSha256) {
    throw new DocketError(ErrorCodes.agentPlanChanged, "The repository changed since the plan was shown; nothing was written. Review the new plan and confirm again.");
  }
  const cwd = realPath(installation.workspaceFolder);
  try {
    for (const file of plan.files) writeFile(file);
    for (const entry of plan.config) {
      if (entry.after === null) await git(cwd, ["config", "--local", "--unset", entry.key], { acceptedExitCodes: [5] });
      else await git(cwd, ["config", "--local", entry.key, entry.after]);
    }
    if (mode === "disconnect" && plan.config.length > 0) {
      // An emptied [merge "docket-ledger"] header would stay behind; remove it only when nothing is left in it.
      const rest = await git(cwd, ["config", "--local", "--get-regexp", `^merge\\.${MERGE_DRIVER}\\.`], { acceptedExitCodes: [1] });
      if (rest.exitCode === 1) await git(cwd, ["config", "--local", "--remove-section", `merge.${MERGE_DRIVER}`], { acceptedExitCodes: [128] });
    }
  } catch (error) {
    if (error instanceof DocketError) throw error;
    throw new DocketError(ErrorCodes.agentConfigUnwritable, `Cannot write the Git configuration: ${(error as Error).message}`);
  }
  return plan;
}

/** Whether the folder lies in a Git work tree. */
export async function gitRepository(workspaceFolder: string): Promise<boolean> {
  try {
    await repoLayout(workspaceFolder, workspaceFolder);
    return true;
  } catch {
    return false;
  }
}

/** Whether the workspace's repository has all three pieces (for the `docket on` hint). */
export async function gitConnected(installation: GitInstallation): Promise<boolean> {
  try {
    const plan = await planGit(installation, "connect");
    return plan.files.length === 0 && plan.config.length === 0;
  } catch {
    return false;
  }
}
