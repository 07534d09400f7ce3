// The hook bundles' node:crypto (server/hooks/lazyCrypto.ts) hashes short inputs in JavaScript:
// every digest must equal node:crypto's, at every length around the block and padding edges, for
// strings in any encoding and for buffers fed in pieces, and past the short-input limit too.
import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fc from "fast-check";
import { smallSha256 } from "../../server/hooks/smallSha256";
import { SMALL_HASH_LIMIT_BYTES, createHash, hash, randomBytes } from "../../server/hooks/lazyCrypto";

const nativeHex = (bytes: Uint8Array): string => crypto.createHash("sha256").update(bytes).digest("hex");

test("smallSha256 equals node:crypto at every length from 0 to 300 bytes and around the block edges", () => {
  const source = crypto.randomBytes(4_200);
  for (let length = 0; length <= 300; length += 1) assert.equal(smallSha256(source.subarray(0, length)).toString("hex"), nativeHex(source.subarray(0, length)), `length ${length}`);
  for (const length of [511, 512, 513, 1_023, 1_024, 1_025, 4_095, 4_096, 4_097, 4_200]) {
    assert.equal(smallSha256(source.subarray(0, length)).toString("hex"), nativeHex(source.subarray(0, length)), `length ${length}`);
  }
});

test("smallSha256 gives the published digests", () => {
  assert.equal(smallSha256(Buffer.from("")).toString("hex"), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(smallSha256(Buffer.from("abc")).toString("hex"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    smallSha256(Buffer.from("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toString("hex"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

test("lazyCrypto's createHash equals node:crypto for strings, encodings, pieces and every digest encoding", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.string({ unit: "binary" }), fc.uint8Array({ maxLength: 300 })), { maxLength: 6 }), (pieces) => {
      const ours = createHash("sha256");
      const theirs = crypto.createHash("sha256");
      for (const piece of pieces) {
        ours.update(piece);
        theirs.update(piece);
      }
      const expected = theirs.digest();
      const digest = ours.digest();
      assert.deepEqual(Buffer.from(digest), expected);
    }),
    { numRuns: 300 },
  );
  for (const encoding of ["utf8", "latin1", "hex", "base64", "utf16le"] as const) {
    const text = encoding === "hex" ? "00ff10ab" : encoding === "base64" ? "aGVsbG8=" : "héllo \u{1F600} wörld";
    assert.equal(createHash("sha256").update(text, encoding).digest("hex"), crypto.createHash("sha256").update(text, encoding).digest("hex"), encoding);
  }
  for (const encoding of ["hex", "base64", "base64url"] as const) {
    assert.equal(createHash("sha256").update("docket").digest(encoding), crypto.createHash("sha256").update("docket").digest(encoding), encoding);
  }
  assert.equal(hash("sha256", "docket"), crypto.createHash("sha256").update("docket").digest("hex"));
  assert.equal(hash("sha256", "docket", "base64"), crypto.createHash("sha256").update("docket").digest("base64"));
});

test("lazyCrypto keeps the input it was given, and hands long inputs to node:crypto with the same digest", () => {
  const buffer = Buffer.from("before the owner changes it");
  const ours = createHash("sha256").update(buffer);
  const expected = crypto.createHash("sha256").update(buffer).digest("hex");
  buffer.fill(0);
  assert.equal(ours.digest("hex"), expected);
  const long = crypto.randomBytes(SMALL_HASH_LIMIT_BYTES + 10);
  const piecewise = createHash("sha256");
  for (let offset = 0; offset < long.length; offset += 4_096) piecewise.update(long.subarray(offset, offset + 4_096));
  assert.equal(piecewise.digest("hex"), nativeHex(long));
  assert.equal(createHash("sha256").update(long).digest("hex"), nativeHex(long));
  assert.equal(createHash("sha512").update("x").digest("hex"), crypto.createHash("sha512").update("x").digest("hex"));
});

test("lazyCrypto's randomBytes gives the size asked for, and different bytes each time", () => {
  const first = randomBytes(12);
  const second = randomBytes(12);
  assert.equal(first.length, 12);
  assert.equal(randomBytes(0).length, 0);
  assert.notDeepEqual(first, second);
});
