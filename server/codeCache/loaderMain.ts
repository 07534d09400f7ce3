// The entry scripts/build.mjs writes in place of a cached bundle (dist/docket-hook.js and the
// others it lists): the bundle's file name and the sha256 of its bytes are constants the build
// defines, so the cache a run looks for is named by the exact bytes it was built with.
// CommonJS on purpose: the bundle runs as this very module (same `module`, `require.main`).
declare const DOCKET_CACHED_BUNDLE_FILE: string;
declare const DOCKET_CACHED_BUNDLE_SHA256: string;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runCachedBundle, besideLoader } = require("./runCachedBundle") as typeof import("./runCachedBundle");

runCachedBundle({ file: besideLoader(__dirname, DOCKET_CACHED_BUNDLE_FILE), sha256: DOCKET_CACHED_BUNDLE_SHA256 }, module, require);
