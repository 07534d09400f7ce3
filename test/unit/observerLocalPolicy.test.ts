// The Observer processing policy (server/observer/processingPolicy.ts): the strict decode table,
// the fallback to piggyback with a coded warning, the save rule (a model only in local mode), and
// the workspace file: atomic round trip, and no read or write through a linked `.docket`.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  DEFAULT_PROCESSING_POLICY,
  decodeProcessingPolicy,
  encodeProcessingPolicy,
  processingPolicy,
  processingPolicyFile,
  readProcessingPolicy,
  writeProcessingPolicy,
} from "../../server/observer/processingPolicy";

const SCHEMA = "observer-processing/v1";
const MODEL = { endpoint: "http://127.0.0.1:11434/v1", model_id: "qwen3:8b" };

function sandbox(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "docket-observer-policy-"));
}

test("the default is piggyback without a model", () => {
  assert.deepEqual(DEFAULT_PROCESSING_POLICY, { observer_processing: SCHEMA, mode: "piggyback", local_model: null });
});

test("decode: valid policies, in every mode", () => {
  for (const value of [
    { observer_processing: SCHEMA, mode: "off", local_model: null },
    { observer_processing: SCHEMA, mode: "piggyback", local_model: null },
    { observer_processing: SCHEMA, mode: "local", local_model: MODEL },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: "https://localhost/v1/", model_id: "m" } },
    // The reference reads a model kept beside another mode; saving drops it.
    { observer_processing: SCHEMA, mode: "piggyback", local_model: MODEL },
  ]) {
    const decoded = decodeProcessingPolicy(value);
    assert.deepEqual(decoded, { ok: true, policy: value }, JSON.stringify(value));
  }
});

test("decode: anything else falls back to piggyback with a coded warning", () => {
  const bad: unknown[] = [
    null,
    "piggyback",
    [],
    { observer_processing: SCHEMA, mode: "piggyback" },
    { observer_processing: SCHEMA, mode: "piggyback", local_model: null, extra: true },
    { observer_processing: "observer-processing/v2", mode: "piggyback", local_model: null },
    { observer_processing: SCHEMA, mode: "remote", local_model: null },
    { observer_processing: SCHEMA, mode: "local", local_model: null },
    { observer_processing: SCHEMA, mode: "local", local_model: { provider: "ollama", model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: MODEL.endpoint, model_id: "m", api_key: "secret" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: MODEL.endpoint, model_id: " " } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: MODEL.endpoint, model_id: "m".repeat(301) } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: "", model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: " http://127.0.0.1/v1", model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: "not a url", model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: "ftp://127.0.0.1/v1", model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: "http://user:secret@127.0.0.1/v1", model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: "http://127.0.0.1/v1?key=secret", model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: `http://127.0.0.1/${"a".repeat(2_000)}`, model_id: "m" } },
    { observer_processing: SCHEMA, mode: "local", local_model: { endpoint: 8080, model_id: "m" } },
  ];
  for (const value of bad) {
    const decoded = decodeProcessingPolicy(value);
    assert.equal(decoded.ok, false, JSON.stringify(value));
    assert.deepEqual(decoded.policy, DEFAULT_PROCESSING_POLICY);
    assert.equal(decoded.ok ? "" : decoded.code, "observer.processing-policy-invalid");
  }
});

test("a policy keeps its model only in local mode, and encodes in its fixed key order", () => {
  assert.deepEqual(processingPolicy("off", MODEL), { observer_processing: SCHEMA, mode: "off", local_model: null });
  assert.deepEqual(processingPolicy("local", MODEL).local_model, MODEL);
  const shuffled = { local_model: { model_id: "m", endpoint: "http://[::1]:8080/v1" }, mode: "local", observer_processing: SCHEMA } as const;
  assert.equal(encodeProcessingPolicy(shuffled), `{\n  "observer_processing": "${SCHEMA}",\n  "mode": "local",\n  "local_model": {\n    "endpoint": "http://[::1]:8080/v1",\n    "model_id": "m"\n  }\n}\n`);
});

test("file: missing is the default without warning; a save round-trips and drops a model outside local mode", () => {
  const root = sandbox();
  try {
    assert.deepEqual(readProcessingPolicy(root), { ok: true, policy: DEFAULT_PROCESSING_POLICY });
    const saved = writeProcessingPolicy(root, processingPolicy("local", MODEL));
    assert.equal(saved.ok, true);
    assert.deepEqual(readProcessingPolicy(root), { ok: true, policy: processingPolicy("local", MODEL) });
    assert.deepEqual(writeProcessingPolicy(root, { observer_processing: SCHEMA, mode: "off", local_model: MODEL }).ok, true);
    assert.deepEqual(readProcessingPolicy(root).policy, { observer_processing: SCHEMA, mode: "off", local_model: null });
    // Atomic replace leaves no temporary file behind.
    assert.deepEqual(fs.readdirSync(path.dirname(processingPolicyFile(fs.realpathSync(root)))), ["processing.json"]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("file: an invalid value is never written", () => {
  const root = sandbox();
  try {
    const refused = writeProcessingPolicy(root, { observer_processing: SCHEMA, mode: "local", local_model: null });
    assert.equal(refused.ok ? "" : refused.code, "observer.processing-policy-invalid");
    assert.equal(fs.existsSync(processingPolicyFile(root)), false);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("file: unreadable or undecodable content is the default with a warning", () => {
  const root = sandbox();
  try {
    const file = processingPolicyFile(root);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "{ not json");
    const notJson = readProcessingPolicy(root);
    assert.deepEqual([notJson.ok, notJson.ok ? "" : notJson.code, notJson.policy], [false, "observer.processing-policy-invalid", DEFAULT_PROCESSING_POLICY]);
    fs.writeFileSync(file, JSON.stringify({ observer_processing: SCHEMA, mode: "local", local_model: null }));
    assert.equal(readProcessingPolicy(root).ok, false);
    fs.writeFileSync(file, " ".repeat(64 * 1024 + 1));
    const huge = readProcessingPolicy(root);
    assert.deepEqual([huge.ok, huge.ok ? "" : huge.code], [false, "observer.processing-policy-unreadable"]);
    fs.rmSync(file);
    fs.mkdirSync(file);
    const folder = readProcessingPolicy(root);
    assert.deepEqual([folder.ok, folder.ok ? "" : folder.code, folder.policy], [false, "observer.processing-policy-unreadable", DEFAULT_PROCESSING_POLICY]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("file: a linked .docket (or processing.json) is neither read nor written through", { skip: process.platform === "win32" ? "symbolic links need privileges on Windows" : false }, () => {
  const root = sandbox();
  const elsewhere = sandbox();
  try {
    fs.mkdirSync(path.join(elsewhere, "observer"), { recursive: true });
    const outside = path.join(elsewhere, "observer", "processing.json");
    fs.writeFileSync(outside, encodeProcessingPolicy(processingPolicy("local", MODEL)));
    fs.symlinkSync(elsewhere, path.join(root, ".docket"));
    const read = readProcessingPolicy(root);
    assert.deepEqual([read.ok, read.ok ? "" : read.code, read.policy], [false, "observer.processing-policy-unreadable", DEFAULT_PROCESSING_POLICY]);
    const write = writeProcessingPolicy(root, processingPolicy("off"));
    assert.equal(write.ok ? "" : write.code, "observer.processing-policy-unwritable");
    assert.equal(fs.readFileSync(outside, "utf8"), encodeProcessingPolicy(processingPolicy("local", MODEL)));

    fs.rmSync(path.join(root, ".docket"));
    fs.mkdirSync(path.join(root, ".docket", "observer"), { recursive: true });
    fs.symlinkSync(outside, path.join(root, ".docket", "observer", "processing.json"));
    assert.equal(readProcessingPolicy(root).ok, false);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("file: a workspace reached through a link is resolved first, so its own files still work", { skip: process.platform === "win32" ? "symbolic links need privileges on Windows" : false }, () => {
  const real = sandbox();
  const parent = sandbox();
  try {
    const linked = path.join(parent, "workspace");
    fs.symlinkSync(real, linked);
    assert.equal(writeProcessingPolicy(linked, processingPolicy("off")).ok, true);
    assert.equal(fs.existsSync(path.join(real, ".docket", "observer", "processing.json")), true);
    assert.deepEqual(readProcessingPolicy(linked), { ok: true, policy: processingPolicy("off") });
  } finally {
    fs.rmSync(real, { recursive: true, force: true });
    fs.rmSync(parent, { recursive: true, force: true });
  }
});
