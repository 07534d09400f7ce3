// Loads the extension's bundle (dist/extension-main.js) as a CommonJS module through vm.Script
// with V8's code cache, kept in the extension's global storage per version (versionedCache.ts):
// from the second activation on, V8 skips parsing and compiling the bundle and the functions the
// start ran. Scoped to this one file — unlike module.enableCompileCache(), which would cache every
// module the shared extension host loads afterwards, other extensions' included, in our storage.
//
// Trust: the same rule as the backend's NODE_COMPILE_CACHE, and the same file format and reads as
// the hooks' code cache (server/codeCache/: cacheFormat.ts, cacheFileIo.ts). An entry is used only
// when its header names the SHA-256 of the bundle's exact bytes (V8's own check looks at the
// source's length, not its content) and the SHA-256 of the data that follows (V8 does not checksum
// the data in release builds; a damaged entry must never reach it); it is read without following a
// link, and only as a regular file of this user that nobody else can write. Anything else compiles
// the bundle from source, and V8 may still reject the data (another V8 or flags; then, too, the
// source is compiled and the entry rewritten). Any failure to read or write the cache costs only
// the compile.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import Module from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { decodeCacheFile, encodeCacheFile, sha256With } from "../server/codeCache/cacheFormat";
import { readCacheFile, writeCacheFile } from "../server/codeCache/cacheFileIo";

/** Read and accepted; rejected by V8; not for these bytes, damaged or not this user's; none there; no folder. */
export type CodeCacheUse = "used" | "rejected" | "stale" | "absent" | "off";

export interface LoadedBundle {
  readonly exports: unknown;
  /** What the load did with the cache. */
  readonly cache: CodeCacheUse;
  /** Writes the cache (once, unless it was used) with every function compiled so far. */
  save(): void;
}

const sha256 = sha256With(crypto.createHash);

/** The entry's data when it is whole, this user's and for `bundleSha256`'s bytes; "stale" or "absent" otherwise. */
function readEntry(file: string, bundleSha256: string): Buffer | "stale" | "absent" {
  const read = readCacheFile(file);
  if (read.kind === "missing") return "absent";
  if (read.kind === "unusable") return "stale";
  return decodeCacheFile(read.bytes, bundleSha256, sha256) ?? "stale";
}

/**
 * Runs `file` as the CommonJS module Node's loader would make of it (its own `module`, `require`
 * resolving from it — so `require("vscode")` is answered for this extension — and `__filename`),
 * with the code cache of `cacheFolder` (undefined: no cache).
 */
export function loadWithCodeCache(file: string, cacheFolder: string | undefined, parent: NodeModule): LoadedBundle {
  const bytes = fs.readFileSync(file);
  const bundleSha256 = sha256(bytes).toString("hex");
  const entryFile = cacheFolder === undefined ? undefined : path.join(cacheFolder, `${path.basename(file)}.v8cache`);
  const read = entryFile === undefined ? "absent" : readEntry(entryFile, bundleSha256);
  const cachedData = typeof read === "string" ? undefined : read;
  // The source starts on its own line (lineOffset -1), so its lines and columns are the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${bytes.toString("utf8")}\n})`, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  const cache: CodeCacheUse = entryFile === undefined ? "off" : typeof read === "string" ? read : script.cachedDataRejected === true ? "rejected" : "used";

  const loaded = new Module(file, parent);
  loaded.filename = file;
  loaded.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(path.dirname(file));
  const requireFromBundle = ((id: string) => loaded.require(id)) as NodeJS.Require;
  Object.assign(requireFromBundle, { resolve: Module.createRequire(file).resolve, cache: require.cache, main: require.main });
  require.cache[file] = loaded;
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
  try {
    wrapper.call(loaded.exports, loaded.exports, requireFromBundle, loaded, file, path.dirname(file));
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  loaded.loaded = true;

  let saved = cache === "used";
  return {
    exports: loaded.exports,
    cache,
    save(): void {
      if (saved || entryFile === undefined) return;
      saved = true;
      try {
        const data = script.createCachedData();
        if (data.length === 0) return;
        fs.mkdirSync(path.dirname(entryFile), { recursive: true, mode: 0o700 });
        // A fresh temporary file (O_EXCL, 0600, never through a link) renamed over the entry: a
        // reader never sees half an entry.
        writeCacheFile(entryFile, encodeCacheFile(bundleSha256, data, sha256), crypto.randomBytes(6).toString("hex"));
      } catch {
        // a full disk or a read-only profile: the next activation compiles the bundle again
      }
    },
  };
}
