import assert from "node:assert/strict";
import { test } from "node:test";
import { ClientErrorCodes, DocketError, toDocketError } from "../../extension/errors";

test("JSON-RPC errors with Docket data keep the backend's code and message", () => {
  const error = { code: -32603, message: "internal", data: { code: "docket.already-on", message: "Docket is already on." } };
  const mapped = toDocketError(error, "docket/turnOn");
  assert.equal(mapped.code, "docket.already-on");
  assert.equal(mapped.message, "Docket is already on.");
  assert.equal(mapped.method, "docket/turnOn");
});

test("malformed data is not trusted", () => {
  const mapped = toDocketError({ code: -32603, message: "boom", data: { code: "x", message: "y", extra: 1 } }, null);
  assert.equal(mapped.code, ClientErrorCodes.requestFailed);
  assert.equal(mapped.message, "boom");
});

test("a dropped connection means the backend is unavailable", () => {
  assert.equal(toDocketError({ code: -32097, message: "disposed" }, null).code, ClientErrorCodes.backendUnavailable);
});

test("DocketErrors pass through; anything else becomes request-failed", () => {
  const original = new DocketError("docket.untrusted-workspace", "no");
  assert.equal(toDocketError(original, "m"), original);
  assert.equal(toDocketError("text", null).code, ClientErrorCodes.requestFailed);
  assert.equal(toDocketError(new Error("e"), null).message, "e");
});
