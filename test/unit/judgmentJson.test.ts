// judgment.md §1–§2: value conventions, canonical JSON (localeCompare key order) and hashing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { canonicalJson as v8CanonicalJson } from "../../server/ledger/canonicalJson";
import {
  canonicalJson,
  decodeJsonValue,
  graphemeLength,
  hashJson,
  JsonValueError,
  jsonValueFromUnknown,
  JudgmentParseError,
  ContextSealError,
  JudgmentTransitionError,
  sha256,
  validate,
} from "../../server/judgment";
import { NonEmptyText, Identifier, S } from "../../server/judgment/schema";
import { normalizedText, semanticKey, uniqueTextSet } from "../../server/judgment/text";

test("canonical JSON: no whitespace, arrays in order, scalars as JSON", () => {
  assert.equal(canonicalJson({ b: [3, 1, 2], a: { d: null, c: true } }), '{"a":{"c":true,"d":null},"b":[3,1,2]}');
  assert.equal(canonicalJson("é\n\"x\""), JSON.stringify("é\n\"x\""));
  assert.equal(canonicalJson(1e21), "1e+21");
  assert.equal(canonicalJson(-0), "0");
});

test("canonical JSON orders keys by localeCompare, unlike developer/v8's code-unit order", () => {
  const value = { a: 1, B: 2, _z: 3, Z: 4 };
  assert.equal(canonicalJson(value), '{"_z":3,"a":1,"B":2,"Z":4}');
  assert.equal(v8CanonicalJson(value), '{"B":2,"Z":4,"_z":3,"a":1}');
});

test("sha256 is lowercase hex of UTF-8 text or bytes; hashJson hashes the canonical form", () => {
  assert.equal(sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(sha256(new TextEncoder().encode("abc")), sha256("abc"));
  assert.equal(hashJson({ b: 1, a: 2 }), sha256('{"a":2,"b":1}'));
});

test("JSON admission rejects non-JSON values with a path", () => {
  for (const bad of [undefined, () => 1, Number.NaN, Number.POSITIVE_INFINITY, 1n, Symbol("s"), new Date(0), new Map()]) {
    assert.throws(() => jsonValueFromUnknown({ a: [bad] }), (error: unknown) => error instanceof JsonValueError && error.path === "/a/0/");
  }
  assert.deepEqual(jsonValueFromUnknown({ a: [1, "x", null, false] }), { a: [1, "x", null, false] });
  assert.deepEqual(jsonValueFromUnknown(Object.assign(Object.create(null) as object, { k: 1 })), { k: 1 });
  assert.throws(() => decodeJsonValue("{"), /Source is not valid JSON\./u);
});

test("error classes carry their stable codes and frozen details", () => {
  const parse = new JudgmentParseError("m", { a: 1 });
  assert.equal(parse.code, "JUDGMENT_PARSE_INVALID");
  assert.equal(parse.name, "JudgmentParseError");
  assert.ok(Object.isFrozen(parse.details));
  assert.equal(new ContextSealError("m").code, "JUDGMENT_CONTEXT_SEAL_FAILED");
  assert.equal(new JudgmentTransitionError("m").code, "JUDGMENT_TRANSITION_INVALID");
});

test("schema primitives: NonEmptyText, Identifier, exact objects, uniqueItems", () => {
  assert.deepEqual(validate(NonEmptyText, "x"), []);
  assert.equal(validate(NonEmptyText, "   ")[0]?.keyword, "pattern");
  assert.equal(validate(NonEmptyText, "")[0]?.keyword, "minLength");
  assert.equal(validate(NonEmptyText, "x".repeat(4_001))[0]?.keyword, "maxLength");
  assert.deepEqual(validate(Identifier, "judgment-1.a:b/c_d"), []);
  assert.equal(validate(Identifier, "1abc")[0]?.keyword, "pattern");
  assert.equal(validate(Identifier, `a${"b".repeat(160)}`)[0]?.keyword, "maxLength");
  assert.deepEqual(validate(S.object({ a: S.boolean }), { a: true, extra: 1 }), [
    { path: "/extra", message: "Unexpected property", keyword: "additionalProperties" },
  ]);
  assert.equal(validate(S.object({ a: S.boolean }), { a: "true" })[0]?.keyword, "type");
  assert.equal(validate(S.array(S.text(1, 5), { uniqueItems: true }), ["a", "a"])[0]?.keyword, "uniqueItems");
});

test("string lengths count grapheme clusters as the reference's validator does", () => {
  assert.equal(graphemeLength("abc"), 3);
  assert.equal(graphemeLength("😀"), 1);
  assert.equal(graphemeLength("e\u0301"), 1);
  assert.equal(graphemeLength("👩\u200d💻"), 1);
  assert.equal(graphemeLength("🇰🇷"), 1);
  assert.deepEqual(validate(S.text(1, 1), "😀"), []);
});

test("normalised text must equal its trim, is collapsed; text sets dedupe then sort", () => {
  assert.equal(normalizedText("a \t\n b", "/x"), "a b");
  assert.throws(() => normalizedText(" a", "/x"), /Expected directly normalized non-blank text at \/x\./u);
  assert.deepEqual(
    uniqueTextSet(["b", "a  c", "B"], "/s", (v) => `dup ${v}`),
    ["a c", "b", "B"],
  );
  assert.throws(() => uniqueTextSet(["a b", "a  b"], "/s", (v) => `dup ${v}`), /dup a b/u);
});

test("orderings and case folding are pinned to en-US, whatever the process locale", () => {
  const probe = () => {
    const value = { b: 1, B: 2, aa: 3, z: 4, I: 5 };
    return JSON.stringify([canonicalJson(value), uniqueTextSet(["b", "B", "aa", "z"], "/s", (v) => v), semanticKey("DIRECTION Is")]);
  };
  const here = probe();
  assert.equal(JSON.parse(here)[0], '{"aa":3,"b":1,"B":2,"I":5,"z":4}');
  const modulePath = path.join(__dirname, "../../server/judgment/text.js");
  const jsonPath = path.join(__dirname, "../../server/judgment/json.js");
  const script = `const {canonicalJson}=require(${JSON.stringify(jsonPath)});const {uniqueTextSet,semanticKey}=require(${JSON.stringify(modulePath)});
process.stdout.write(JSON.stringify([canonicalJson({b:1,B:2,aa:3,z:4,I:5}),uniqueTextSet(["b","B","aa","z"],"/s",(v)=>v),semanticKey("DIRECTION Is")]));`;
  for (const locale of ["da_DK.UTF-8", "tr_TR.UTF-8", "lt_LT.UTF-8"]) {
    const output = execFileSync(process.execPath, ["-e", script], { env: { ...process.env, LANG: locale, LC_ALL: locale }, encoding: "utf8" });
    assert.equal(output, here, locale);
  }
});
