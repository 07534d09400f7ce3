// The folders in the extension's global storage where Node keeps compiled code for this version
// of the extension: the backend's NODE_COMPILE_CACHE (extension/backend.ts) and the extension's own
// code cache (extension/codeCache.ts). One trust rule for both: the folder is per extension
// version, lives in the extension's own storage (never the workspace's), and every entry is
// checked against the content of the file it was compiled from before it is used.
import * as fs from "node:fs";
import * as path from "node:path";

/** The part of vscode.ExtensionContext this needs (the entry module does not load `vscode`). */
export interface VersionedCacheContext {
  readonly globalStorageUri: { readonly fsPath: string };
  readonly extension: { readonly packageJSON: unknown };
}

/**
 * `<global storage>/<root>/<version>`. Every version is installed in a folder of its own and the
 * caches name entries after each file's path, so the folders of other versions would only
 * accumulate: they are removed, in the background (a failure leaves them, harmlessly).
 */
export function versionedCacheFolder(context: VersionedCacheContext, root: string): string {
  const base = path.join(context.globalStorageUri.fsPath, root);
  const version = (context.extension.packageJSON as { version?: unknown } | undefined)?.version;
  const current = typeof version === "string" && /^[0-9A-Za-z.+-]{1,64}$/u.test(version) ? version : "unknown";
  void fs.promises
    .readdir(base)
    .then((names) => Promise.all(names.filter((name) => name !== current).map((name) => fs.promises.rm(path.join(base, name), { recursive: true, force: true }))))
    .catch(() => undefined);
  return path.join(base, current);
}
