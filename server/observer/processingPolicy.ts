// How Observer interprets material (design/observer.md §1.4): `off` (bookkeeping only, no
// model), `piggyback` (the default: the developer's own agent does it within its turn) or
// `local` (a background queue on a model of this machine). The choice is a workspace setting,
// `.docket/observer/processing.json`, not a ledger event: it changes how work is done, never
// what was recorded.
//
// Docket names the local model by an OpenAI-compatible endpoint URL and a model id, where the
// reference names a Pi provider: Docket has no provider registry, and the endpoint is what the
// loopback admission (loopbackEndpoint.ts) judges. Decoding checks only the URL's shape; whether
// it is loopback needs the resolver and is checked when local work starts.
//
// A setting that cannot be read or decoded never leaves Observer without a mode: it falls back
// to piggyback with a warning, so no background model starts from a value nobody chose.
import fs from "node:fs";
import path from "node:path";
import { readContained, writeFileAtomicContained } from "../workspace/containedFs";
import { hasKeysExactly, isRecord } from "./observerValues";
import { ENDPOINT_LENGTH_LIMIT } from "./loopbackEndpoint";

export const OBSERVER_PROCESSING_SCHEMA = "observer-processing/v1";
export const PROCESSING_POLICY_PATH = path.join(".docket", "observer", "processing.json");
/** A policy is a few hundred bytes; anything much larger is not one. */
export const PROCESSING_POLICY_BYTES = 64 * 1024;
const MODEL_ID_LIMIT = 300;

export type ProcessingMode = "off" | "piggyback" | "local";

export interface LocalModelRef {
  /** OpenAI-compatible base URL; requests go to `{endpoint}/chat/completions`. */
  readonly endpoint: string;
  readonly model_id: string;
}

export interface ProcessingPolicy {
  readonly observer_processing: typeof OBSERVER_PROCESSING_SCHEMA;
  readonly mode: ProcessingMode;
  readonly local_model: LocalModelRef | null;
}

export type PolicyWarningCode = "observer.processing-policy-invalid" | "observer.processing-policy-unreadable";

/** ok:false still carries a usable policy (the default) and says why it was not the stored one. */
export type PolicyLoad = { readonly ok: true; readonly policy: ProcessingPolicy } | { readonly ok: false; readonly policy: ProcessingPolicy; readonly code: PolicyWarningCode; readonly message: string };

export type PolicySave = { readonly ok: true; readonly file: string } | { readonly ok: false; readonly code: "observer.processing-policy-invalid" | "observer.processing-policy-unwritable"; readonly message: string };

export const DEFAULT_PROCESSING_POLICY: ProcessingPolicy = Object.freeze({ observer_processing: OBSERVER_PROCESSING_SCHEMA, mode: "piggyback", local_model: null });

const RESTORED = "Piggyback was restored without starting a background model.";

function invalidPolicy(why: string): PolicyLoad {
  return { ok: false, policy: DEFAULT_PROCESSING_POLICY, code: "observer.processing-policy-invalid", message: `Observer processing settings are invalid (${why}); ${RESTORED}` };
}

function nonBlank(value: unknown, limit: number): value is string {
  return typeof value === "string" && value.trim().length > 0 && value.length <= limit;
}

/** Syntax only: an http(s) URL without credentials, query or fragment. */
function endpointShapeProblem(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "the local model endpoint is not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "the local model endpoint is not http or https";
  if (url.username !== "" || url.password !== "") return "the local model endpoint carries credentials";
  if (url.search !== "" || url.hash !== "") return "the local model endpoint has a query or fragment";
  return null;
}

function decodeLocalModel(value: unknown): LocalModelRef | string {
  if (!isRecord(value) || !hasKeysExactly(value, ["endpoint", "model_id"])) return "local_model must be exactly {endpoint, model_id}";
  if (!nonBlank(value.endpoint, ENDPOINT_LENGTH_LIMIT) || value.endpoint.trim() !== value.endpoint) return "the local model endpoint must be a URL without surrounding spaces";
  if (!nonBlank(value.model_id, MODEL_ID_LIMIT)) return `the local model id must be non-blank text of at most ${MODEL_ID_LIMIT} characters`;
  const problem = endpointShapeProblem(value.endpoint);
  return problem ?? { endpoint: value.endpoint, model_id: value.model_id };
}

/** Strict decoding: exact keys and a known mode; `local` needs a model, the other modes may carry one (as the reference reads them). */
export function decodeProcessingPolicy(value: unknown): PolicyLoad {
  if (!isRecord(value) || !hasKeysExactly(value, ["observer_processing", "mode", "local_model"])) return invalidPolicy("expected exactly observer_processing, mode and local_model");
  if (value.observer_processing !== OBSERVER_PROCESSING_SCHEMA) return invalidPolicy(`observer_processing is not ${OBSERVER_PROCESSING_SCHEMA}`);
  const mode = value.mode;
  if (mode !== "off" && mode !== "piggyback" && mode !== "local") return invalidPolicy("mode is not off, piggyback or local");
  let localModel: LocalModelRef | null = null;
  if (value.local_model !== null) {
    const decoded = decodeLocalModel(value.local_model);
    if (typeof decoded === "string") return invalidPolicy(decoded);
    localModel = decoded;
  }
  if (mode === "local" && localModel === null) return invalidPolicy("local mode requires an explicit loopback model");
  return { ok: true, policy: { observer_processing: OBSERVER_PROCESSING_SCHEMA, mode, local_model: localModel } };
}

/** A policy for `mode`; the model is kept only for local mode (the reference's save rule). */
export function processingPolicy(mode: ProcessingMode, localModel: LocalModelRef | null = null): ProcessingPolicy {
  return { observer_processing: OBSERVER_PROCESSING_SCHEMA, mode, local_model: mode === "local" ? localModel : null };
}

/** The file's text: the decoded policy in its fixed key order, two-space JSON, newline-terminated. */
export function encodeProcessingPolicy(policy: ProcessingPolicy): string {
  const model = policy.local_model === null ? null : { endpoint: policy.local_model.endpoint, model_id: policy.local_model.model_id };
  return `${JSON.stringify({ observer_processing: policy.observer_processing, mode: policy.mode, local_model: model }, null, 2)}\n`;
}

export function processingPolicyFile(workspaceRoot: string): string {
  return path.join(workspaceRoot, PROCESSING_POLICY_PATH);
}

/** The workspace's real path: containment is checked against where the files really are. */
function realRoot(workspaceRoot: string): string {
  return fs.realpathSync(workspaceRoot);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads the workspace's policy; a missing file is the default, anything unusable the default with a warning. */
export function readProcessingPolicy(workspaceRoot: string): PolicyLoad {
  let bytes: Buffer | null;
  try {
    const root = realRoot(workspaceRoot);
    bytes = readContained(root, processingPolicyFile(root), PROCESSING_POLICY_BYTES);
  } catch (error) {
    return { ok: false, policy: DEFAULT_PROCESSING_POLICY, code: "observer.processing-policy-unreadable", message: `Observer processing settings could not be read (${errorText(error)}); ${RESTORED}` };
  }
  if (bytes === null) return { ok: true, policy: DEFAULT_PROCESSING_POLICY };
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    return invalidPolicy("the file is not JSON");
  }
  return decodeProcessingPolicy(parsed);
}

/** Writes the policy atomically inside the workspace; never through a link, never an invalid value. */
export function writeProcessingPolicy(workspaceRoot: string, policy: ProcessingPolicy): PolicySave {
  const decoded = decodeProcessingPolicy(policy);
  if (!decoded.ok) return { ok: false, code: "observer.processing-policy-invalid", message: decoded.message };
  try {
    const root = realRoot(workspaceRoot);
    const file = processingPolicyFile(root);
    writeFileAtomicContained(root, file, encodeProcessingPolicy(processingPolicy(decoded.policy.mode, decoded.policy.local_model)));
    return { ok: true, file };
  } catch (error) {
    return { ok: false, code: "observer.processing-policy-unwritable", message: `Observer processing settings could not be saved: ${errorText(error)}` };
  }
}
