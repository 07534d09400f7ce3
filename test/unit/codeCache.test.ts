// The code cache's pure parts (server/codeCache/): where the per-user folder is on each platform,
// and the file format's checks. The loader itself runs as real processes in
// test/integration/codeCache.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { codeCacheFolder } from "../../server/codeCache/cacheFolder";
import { CODE_CACHE_FORMAT, cacheFileName, decodeCacheFile, encodeCacheFile, sha256With } from "../../server/codeCache/cacheFormat";

const sha256 = sha256With(createHash);
const HASH = "0123456789abcdef".repeat(4);

test("the cache folder is per user and outside the temp folder on every platform", () => {
  const home = os.homedir();
  assert.deepEqual(codeCacheFolder({ XDG_CACHE_HOME: "/x/cache" }, "linux"), { parent: path.join("/x/cache", "docket"), folder: path.join("/x/cache", "docket", "code-cache") });
  assert.equal(codeCacheFolder({ XDG_CACHE_HOME: "relative" }, "linux")?.folder, path.join(home, ".cache", "docket", "code-cache"));
  assert.equal(codeCacheFolder({}, "linux")?.folder, path.join(home, ".cache", "docket", "code-cache"));
  assert.equal(codeCacheFolder({ XDG_CACHE_HOME: "/x/cache" }, "darwin")?.folder, path.join(home, "Library", "Caches", "docket", "code-cache"));
  assert.equal(codeCacheFolder({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")?.folder, path.win32.join("C:\\Users\\u\\AppData\\Local", "docket", "code-cache"));
  assert.equal(codeCacheFolder({}, "win32"), null);
  assert.equal(codeCacheFolder({ LOCALAPPDATA: "relative" }, "win32"), null);
  for (const location of [codeCacheFolder({}, "linux"), codeCacheFolder({}, "darwin")]) assert.ok(!location?.folder.startsWith(`${os.tmpdir()}${path.sep}`));
});

test("the file name carries the bundle's hash, Node's version, the architecture and the format", () => {
  assert.equal(cacheFileName(HASH, "v20.20.2", "x64"), `${HASH}-v20.20.2-x64-f${CODE_CACHE_FORMAT}.cache`);
});

test("a file decodes to its payload only when it is whole and made for this bundle", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (payloadBytes, at, flip) => {
      const payload = Buffer.from(payloadBytes);
      const file = encodeCacheFile(HASH, payload, sha256);
      assert.ok(decodeCacheFile(file, HASH, sha256)?.equals(payload));
      assert.equal(decodeCacheFile(file, "f".repeat(64), sha256), null, "another bundle's hash");
      const damaged = Buffer.from(file);
      const index = at % damaged.length;
      damaged[index] = (damaged[index] as number) ^ flip;
      assert.equal(decodeCacheFile(damaged, HASH, sha256), null, `byte ${index} changed`);
      for (const length of [0, 75, 76, file.length - 1]) assert.equal(decodeCacheFile(file.subarray(0, length), HASH, sha256), null, `cut at ${length}`);
      assert.equal(decodeCacheFile(Buffer.concat([file, Buffer.from([0])]), HASH, sha256), null, "a byte appended");
    }),
  );
});
