// One request to a local OpenAI-compatible model (design/observer.md §1.4, local mode): a chat
// completion that must answer with a call of the single function tool it is offered, whose parsed
// arguments are returned. The caller validates those arguments against its own schema; this file
// only moves bytes safely:
//
// - It connects only to the addresses the endpoint was admitted with (loopbackEndpoint.ts): the
//   host name is never resolved again, whatever the resolver says now.
// - It is bounded in time (120 s by default, the whole exchange) and in size (4 MiB of response),
//   and an abort signal ends it at once. A model that streams forever cannot hold the queue.
// - No retry: the queue defers a failed job to a later turn instead (§1.5).
// - No credentials are sent or stored; a local server needs none.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { AdmittedEndpoint } from "./loopbackEndpoint";

export type LocalModelFailureCode = "observer.local-model-failed" | "observer.local-model-timeout" | "observer.local-model-malformed" | "observer.local-model-oversized" | "observer.local-model-aborted";

export type JsonSchemaObject = { readonly [key: string]: unknown };

export interface LocalChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

export interface LocalToolCallRequest {
  readonly endpoint: AdmittedEndpoint;
  readonly modelId: string;
  readonly messages: readonly LocalChatMessage[];
  /** The one function the model must call; `parameters` is its JSON schema. */
  readonly tool: { readonly name: string; readonly description: string; readonly parameters: JsonSchemaObject };
  readonly signal?: AbortSignal;
  /** Milliseconds for the whole exchange; default 120 000. */
  readonly timeoutMs?: number;
  /** Bytes of response body accepted; default 4 MiB. */
  readonly maxResponseBytes?: number;
}

export type LocalToolCallOutcome = { readonly ok: true; readonly arguments: { readonly [key: string]: unknown } } | { readonly ok: false; readonly code: LocalModelFailureCode; readonly message: string };

export const DEFAULT_LOCAL_MODEL_TIMEOUT_MS = 120_000;
export const DEFAULT_LOCAL_MODEL_RESPONSE_BYTES = 4 * 1024 * 1024;
/** How much of an error body a failure message quotes (a server's own words help; a page of HTML does not). */
const QUOTED_ERROR_CHARS = 300;

function failure(code: LocalModelFailureCode, message: string): LocalToolCallOutcome {
  return { ok: false, code, message };
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A lookup that answers with the admitted addresses and never asks the resolver. */
function pinnedLookup(endpoint: AdmittedEndpoint): LookupFunction {
  return (_hostname, options, callback) => {
    const first = endpoint.addresses[0];
    if (first === undefined) {
      callback(Object.assign(new Error("no admitted address"), { code: "ENOTFOUND" }), "", 4);
      return;
    }
    // Happy-eyeballs connects (Node ≥ 20) ask for every address; plain connects for one.
    if (options.all === true) callback(null, endpoint.addresses.map((entry) => ({ address: entry.address, family: entry.family })));
    else callback(null, first.address, first.family);
  };
}

export function chatCompletionBody(request: LocalToolCallRequest): string {
  return JSON.stringify({
    model: request.modelId,
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
    tools: [{ type: "function", function: { name: request.tool.name, description: request.tool.description, parameters: request.tool.parameters } }],
    tool_choice: { type: "function", function: { name: request.tool.name } },
    stream: false,
  });
}

/** The arguments of the one call of `toolName` in an OpenAI-compatible chat completion, or why not. */
export function toolCallArguments(body: unknown, toolName: string): LocalToolCallOutcome {
  if (!isObject(body) || !Array.isArray(body.choices) || body.choices.length === 0) return failure("observer.local-model-malformed", "the response has no choices");
  const choice: unknown = body.choices[0];
  const message = isObject(choice) ? choice.message : undefined;
  const calls = isObject(message) ? message.tool_calls : undefined;
  if (!Array.isArray(calls) || calls.length === 0) return failure("observer.local-model-malformed", `the model answered without calling ${toolName}`);
  if (calls.length !== 1) return failure("observer.local-model-malformed", `the model made ${calls.length} tool calls; exactly one call of ${toolName} is expected`);
  const call: unknown = calls[0];
  const fn = isObject(call) ? call.function : undefined;
  if (!isObject(fn) || fn.name !== toolName) return failure("observer.local-model-malformed", `the model called ${isObject(fn) && typeof fn.name === "string" ? fn.name : "an unnamed tool"}, not ${toolName}`);
  // OpenAI sends the arguments as JSON text; some local servers send the object itself.
  let parsed: unknown = fn.arguments;
  if (typeof parsed === "string") {
    try {
      parsed = JSON.parse(parsed) as unknown;
    } catch {
      return failure("observer.local-model-malformed", `the arguments of ${toolName} are not JSON`);
    }
  }
  if (!isObject(parsed)) return failure("observer.local-model-malformed", `the arguments of ${toolName} are not a JSON object`);
  return { ok: true, arguments: parsed };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Sends one chat completion and returns the forced tool call's arguments, or a coded failure. Never throws. */
export function requestLocalToolCall(request: LocalToolCallRequest): Promise<LocalToolCallOutcome> {
  const timeoutMs = positive(request.timeoutMs, DEFAULT_LOCAL_MODEL_TIMEOUT_MS);
  const maxBytes = positive(request.maxResponseBytes, DEFAULT_LOCAL_MODEL_RESPONSE_BYTES);
  const endpoint = request.endpoint;
  const body = Buffer.from(chatCompletionBody(request), "utf8");
  return new Promise((resolve) => {
    let finished = false;
    let outgoing: http.ClientRequest | null = null;
    const timer = setTimeout(() => finish(failure("observer.local-model-timeout", `the local model did not answer within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = (): void => finish(failure("observer.local-model-aborted", "the request was aborted"));

    function finish(outcome: LocalToolCallOutcome): void {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      outgoing?.destroy();
      resolve(outcome);
    }

    if (request.signal?.aborted === true) return onAbort();
    request.signal?.addEventListener("abort", onAbort, { once: true });

    const transport = endpoint.protocol === "https:" ? https : http;
    outgoing = transport.request(
      {
        method: "POST",
        hostname: endpoint.hostname,
        port: endpoint.port,
        path: `${endpoint.basePath}/chat/completions`,
        lookup: pinnedLookup(endpoint),
        // A fresh connection each time: a pooled socket would outlive the admission it was made under.
        agent: false,
        headers: { "content-type": "application/json", accept: "application/json", "content-length": String(body.length) },
      },
      (response) => {
        const declared = Number(response.headers["content-length"]);
        if (Number.isFinite(declared) && declared > maxBytes) return finish(failure("observer.local-model-oversized", `the response declares ${declared} bytes, more than the ${maxBytes} accepted`));
        const chunks: Buffer[] = [];
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) return finish(failure("observer.local-model-oversized", `the response exceeds the ${maxBytes} bytes accepted`));
          chunks.push(chunk);
        });
        response.on("error", (error) => finish(failure("observer.local-model-failed", `the response broke off: ${error.message}`)));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = response.statusCode ?? 0;
          if (status < 200 || status > 299) return finish(failure("observer.local-model-failed", `the local model answered HTTP ${status}: ${text.slice(0, QUOTED_ERROR_CHARS)}`));
          let parsed: unknown;
          try {
            parsed = JSON.parse(text) as unknown;
          } catch {
            return finish(failure("observer.local-model-malformed", "the response is not JSON"));
          }
          finish(toolCallArguments(parsed, request.tool.name));
        });
      },
    );
    outgoing.on("error", (error) => finish(failure("observer.local-model-failed", `the local model could not be reached: ${error.message}`)));
    outgoing.end(body);
  });
}
