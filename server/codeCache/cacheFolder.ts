// Where the V8 code caches live, and whether that folder may be trusted (docs/performance.md "A safe V8
// code cache"). The cache decides what code a hook runs, so it lives in a per-user folder outside
// every workspace (a repository could ship one) and outside the shared temp folder (any process of
// any user could replace one there), and is used only while nobody else can write to it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The per-user cache folder's parent and the folder itself, or null when there is no per-user
 * place to use (no home, a relative XDG_CACHE_HOME is ignored as the XDG spec asks).
 */
export function codeCacheFolder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): { readonly parent: string; readonly folder: string } | null {
  let base: string | undefined;
  if (platform === "win32") {
    base = env.LOCALAPPDATA !== undefined && path.win32.isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : undefined;
  } else {
    const home = os.homedir();
    if (platform === "darwin") base = home === "" ? undefined : path.join(home, "Library", "Caches");
    else base = env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home === "" ? undefined : path.join(home, ".cache");
  }
  const paths = platform === "win32" ? path.win32 : path;
  if (base === undefined || !paths.isAbsolute(base)) return null;
  const parent = paths.join(base, "docket");
  return { parent, folder: paths.join(parent, "code-cache") };
}

/**
 * True when `stat` (an lstat, so a link is never followed) is a directory (or, with `file`, a
 * regular file) of this user that neither group nor others can write. Windows has no uid or POSIX
 * mode: there the folder's place (%LOCALAPPDATA%, per user) is the whole check.
 */
export function ownedAndPrivate(stat: fs.Stats, kind: "directory" | "file"): boolean {
  if (kind === "directory" ? !stat.isDirectory() : !stat.isFile()) return false;
  if (process.platform === "win32" || typeof process.getuid !== "function") return true;
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

function trustedDirectory(folder: string): boolean {
  try {
    return ownedAndPrivate(fs.lstatSync(folder), "directory");
  } catch {
    return false;
  }
}

/** True when both the `docket` folder and its `code-cache` folder exist and pass the checks. */
export function trustedFolder(location: { readonly parent: string; readonly folder: string }): boolean {
  return trustedDirectory(location.parent) && trustedDirectory(location.folder);
}

/**
 * Creates the folders (mode 0700) when missing, then checks them as a reader would: an existing
 * folder is never chmod-ed or replaced, so a folder someone else controls stays unused.
 */
export function ensureTrustedFolder(location: { readonly parent: string; readonly folder: string }): boolean {
  try {
    fs.mkdirSync(path.dirname(location.parent), { recursive: true, mode: 0o700 });
    for (const folder of [location.parent, location.folder]) {
      try {
        fs.mkdirSync(folder, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      }
    }
  } catch {
    return false;
  }
  return trustedFolder(location);
}
