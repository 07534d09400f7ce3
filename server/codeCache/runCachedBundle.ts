// Runs a bundle as a CommonJS module of the loader that stands in its place (dist/docket-hook.js
// and the other entries scripts/build.mjs lists), compiled with V8's code cache when a trusted
// one exists for exactly these bytes, and leaves one behind when it did not. Every failure of the
// cache falls back to compiling without it: the cache can make a call cheaper, never change or
// stop its answer (docs/performance.md "A safe V8 code cache").
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { cacheFileName, decodeCacheFile, encodeCacheFile, sha256With } from "./cacheFormat";
import { codeCacheFolder, ensureTrustedFolder, trustedFolder } from "./cacheFolder";
import { readCacheFile, writeCacheFile } from "./cacheFileIo";
import { pruneCacheFolder } from "./cachePrune";

export interface CachedBundle {
  /** The bundle's absolute path. */
  readonly file: string;
  /** The sha256 (hex) of the bundle's bytes, written into the loader by the build. */
  readonly sha256: string;
}

/** What happened to the cache, printed to stderr only with DOCKET_CODE_CACHE_DEBUG=1 (tests, benches). */
export type CacheOutcome = "off" | "no-folder" | "untrusted-folder" | "source-mismatch" | "missing" | "unusable" | "damaged" | "rejected" | "hit";

// Node's own CommonJS wrapper: the bundle sees the loader's module, so `require.main === module`
// and `module.exports` mean what they meant when the bundle was the entry itself.
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const WRAPPER_TAIL = "\n});";

/** The bundle's path: the build writes it beside its loader. */
export function besideLoader(loaderFolder: string, bundleName: string): string {
  return path.join(loaderFolder, bundleName);
}

function debug(env: NodeJS.ProcessEnv, bundle: CachedBundle, text: string): void {
  if (env.DOCKET_CODE_CACHE_DEBUG === "1") {
    try {
      process.stderr.write(`docket code cache: ${path.basename(bundle.file)}: ${text}\n`);
    } catch {
      // A debug line is never worth a failure.
    }
  }
}

export function runCachedBundle(bundle: CachedBundle, target: NodeJS.Module, targetRequire: NodeJS.Require, env: NodeJS.ProcessEnv = process.env): void {
  // The plan bundle's dynamic import() needs the main context's loader, as it had under require();
  // a Node 20 older than 20.12 has no way to give a vm.Script one: there the bundle is required.
  const mainLoader = (vm.constants as unknown as { USE_MAIN_CONTEXT_DEFAULT_LOADER?: symbol } | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (mainLoader === undefined) {
    debug(env, bundle, "off");
    target.exports = targetRequire(bundle.file) as unknown;
    return;
  }
  const bytes = fs.readFileSync(bundle.file);
  const source = WRAPPER_HEAD + bytes.toString("utf8") + WRAPPER_TAIL;
  let cachedData: Buffer | undefined;
  let store: ((script: vm.Script) => void) | undefined;
  let outcome: CacheOutcome = "off";
  if (env.DOCKET_CODE_CACHE !== "0") {
    try {
      ({ cachedData, store, outcome } = lookUp(bundle, bytes, env));
    } catch {
      // Anything unexpected: no cache, and none written.
      cachedData = undefined;
      store = undefined;
      outcome = "unusable";
    }
  }
  const options: vm.ScriptOptions = { filename: bundle.file, importModuleDynamically: mainLoader as unknown as vm.ScriptOptions["importModuleDynamically"] };
  if (cachedData !== undefined) options.cachedData = cachedData;
  let script: vm.Script;
  try {
    script = new vm.Script(source, options);
  } catch (error) {
    if (cachedData === undefined) throw error;
    // A cache V8 would not take without throwing: compile the source alone.
    outcome = "rejected";
    delete options.cachedData;
    script = new vm.Script(source, options);
  }
  if (cachedData !== undefined && script.cachedDataRejected === true) outcome = "rejected";
  debug(env, bundle, outcome);
  if (store !== undefined && outcome !== "hit") {
    const write = store;
    const made = script;
    // After the process's work: "exit" comes once the event loop is empty, so the answer has been
    // handed to the host, and the cache holds the functions this call compiled lazily.
    process.once("exit", () => write(made));
  }
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;
  run.call(target.exports, target.exports, targetRequire, target, bundle.file, path.dirname(bundle.file));
}

function lookUp(bundle: CachedBundle, bytes: Buffer, env: NodeJS.ProcessEnv): { cachedData: Buffer | undefined; store: ((script: vm.Script) => void) | undefined; outcome: CacheOutcome } {
  const location = codeCacheFolder(env);
  if (location === null) return { cachedData: undefined, store: undefined, outcome: "no-folder" };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto = require("node:crypto") as typeof import("node:crypto");
  const sha256 = sha256With(crypto.createHash);
  // The build's hash of these bytes names the cache; bytes that are not the built ones (edited
  // after the build) get neither a cache nor a new one.
  if (sha256(bytes).toString("hex") !== bundle.sha256) return { cachedData: undefined, store: undefined, outcome: "source-mismatch" };
  const file = path.join(location.folder, cacheFileName(bundle.sha256));
  const store = (script: vm.Script): void => {
    try {
      const payload = script.createCachedData();
      if (payload.length === 0 || !ensureTrustedFolder(location)) return debug(env, bundle, "not written");
      const written = writeCacheFile(file, encodeCacheFile(bundle.sha256, payload, sha256), crypto.randomBytes(6).toString("hex"));
      debug(env, bundle, written ? "written" : "not written");
      if (written) {
        const removed = pruneCacheFolder(location.folder, path.basename(file), Date.now());
        if (removed > 0) debug(env, bundle, `pruned ${removed}`);
      }
    } catch {
      // The cache is an optimisation: a failure to write it changes nothing else.
    }
  };
  if (!trustedFolder(location)) {
    // Missing: this run creates it on exit. Present but someone else's, a link, or writable by
    // others: never read, and the writer's own check refuses it too.
    return { cachedData: undefined, store, outcome: lstatExists(location.folder) ? "untrusted-folder" : "missing" };
  }
  const read = readCacheFile(file);
  if (read.kind !== "bytes") return { cachedData: undefined, store, outcome: read.kind };
  const payload = decodeCacheFile(read.bytes, bundle.sha256, sha256);
  return payload === null ? { cachedData: undefined, store, outcome: "damaged" } : { cachedData: payload, store, outcome: "hit" };
}

function lstatExists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
