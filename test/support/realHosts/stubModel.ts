// A loopback HTTP server that plays the model for the real Claude Code and Codex programs
// (real-hosts.md): Anthropic `POST /v1/messages` and OpenAI `POST /v1/responses`, both streamed as
// Server-Sent Events. It follows a script: each request gets the step after as many steps as the
// request carries tool results, so the host's own loop (run tool → send result → ask again) walks
// the script, and a denied tool is just another tool result. Every request is recorded, so a test
// can read exactly what the model was told about each call. A step may be built when it is answered,
// from the results of earlier calls (an id a tool returned, say).
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One model turn: call a tool, or answer with text (which ends the host's loop). */
export type StubStep = (
  | {
      readonly kind: "tool";
      readonly name: string;
      /** JSON arguments; a string is a freeform (custom) tool's raw input, as Codex's `apply_patch` takes. */
      readonly input: Readonly<Record<string, unknown>> | string;
      /** Codex groups MCP tools in namespaces (`mcp__<server>`); the call names the namespace and the bare tool. */
      readonly namespace?: string;
    }
  | { readonly kind: "text"; readonly text: string }
) & {
  /** Runs once before this step is answered (the world changing between two model turns). */
  readonly before?: () => Promise<void> | void;
};

export type StubDialect = "anthropic" | "openai";

/** What a step built at answer time can read: the request's dialect and the results of earlier calls. */
export interface StubTurn {
  readonly dialect: StubDialect;
  /** The text the model received for step `index`'s tool call, or undefined when the request does not carry it. */
  resultOf(index: number): string | undefined;
}

/**
 * A step the stub builds when it answers, from what the host sent back so far: the next tool input
 * or the final text that depends on an earlier tool result (an id a tool returned, say). Throwing
 * ends the turn with a text naming the problem, recorded in `errors()`.
 */
export type StubStepBuilder = (turn: StubTurn) => StubStep;

/** One entry of a script: a fixed step, or one built from the request it answers. */
export type StubScriptStep = StubStep | StubStepBuilder;

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The parsed JSON body; null when there was none or it was not JSON. */
  readonly body: unknown;
  /** Which model API the path belongs to; null for anything else (model lists, token counts…). */
  readonly dialect: StubDialect | null;
  /** The step answered (index into the script), or null for a side request answered with plain text. */
  readonly step: number | null;
}

export interface StubModelOptions {
  readonly steps: readonly StubScriptStep[];
  /** Requests answered before the stub only ends turns (a host stuck in a loop); default 60. */
  readonly maxRequests?: number;
}

export interface StubModel {
  /** `http://127.0.0.1:PORT`: ANTHROPIC_BASE_URL as is, Codex's base_url with `/v1`. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Requests past `maxRequests`, answered with a final text instead of the script. */
  overflow(): number;
  /** Errors the stub answered with HTTP 500 (a failing `before`, an unreadable body). */
  errors(): readonly string[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const FINAL_TEXT = "Done.";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The id the stub gives the tool call of step `index` (Claude's `tool_use_id`, Codex's `call_id`). */
export function stubCallId(dialect: StubDialect, index: number): string {
  return `${dialect === "anthropic" ? "toolu" : "call"}_stub_${String(index).padStart(4, "0")}`;
}

/** Claude Code sends every tool result back as a `tool_result` block of a user message. */
export function anthropicToolResults(body: unknown): Json[] {
  if (!isObject(body)) return [];
  return asArray(body.messages)
    .filter(isObject)
    .flatMap((message) => asArray(message.content))
    .filter((block): block is Json => isObject(block) && block.type === "tool_result");
}

/** Codex sends every tool result back as a `function_call_output` / `custom_tool_call_output` input item. */
export function openaiToolResults(body: unknown): Json[] {
  if (!isObject(body)) return [];
  return asArray(body.input).filter(
    (item): item is Json => isObject(item) && (item.type === "function_call_output" || item.type === "custom_tool_call_output"),
  );
}

/** The text of one tool result as the model received it (strings and text parts joined). */
export function toolResultText(result: Json): string {
  const flatten = (value: unknown): string => {
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return value.map(flatten).join("\n");
    if (isObject(value)) {
      if (typeof value.text === "string") return value.text;
      if ("content" in value) return flatten(value.content);
      if ("output" in value) return flatten(value.output);
    }
    return "";
  };
  return flatten("content" in result ? result.content : result.output);
}

/**
 * What the model was told about each of the stub's tool calls, by call id, from the last request
 * that carried it (a later request repeats the whole conversation).
 */
export function toolResultsByCallId(requests: readonly RecordedRequest[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const request of requests) {
    if (request.dialect === "anthropic") {
      for (const result of anthropicToolResults(request.body)) if (typeof result.tool_use_id === "string") results.set(result.tool_use_id, toolResultText(result));
    } else if (request.dialect === "openai") {
      for (const result of openaiToolResults(request.body)) if (typeof result.call_id === "string") results.set(result.call_id, toolResultText(result));
    }
  }
  return results;
}

/** Whether a request is the host's main loop: side requests (titles, summaries) offer no tools. */
function offersTools(body: unknown): boolean {
  return isObject(body) && asArray(body.tools).length > 0;
}

function sse(response: http.ServerResponse, events: readonly Json[]): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
  for (const event of events) response.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  response.end();
}

function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", connection: "close" });
  response.end(JSON.stringify(body));
}

// ------------------------------------------------------------------------------------- Anthropic

function anthropicBlock(step: StubStep, index: number): { start: Json; delta: Json; final: Json } {
  if (step.kind === "text") {
    return {
      start: { type: "text", text: "" },
      delta: { type: "text_delta", text: step.text },
      final: { type: "text", text: step.text },
    };
  }
  const input = typeof step.input === "string" ? { input: step.input } : step.input;
  const id = stubCallId("anthropic", index);
  return {
    start: { type: "tool_use", id, name: step.name, input: {} },
    delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
    final: { type: "tool_use", id, name: step.name, input },
  };
}

function answerAnthropic(body: unknown, response: http.ServerResponse, step: StubStep, index: number): void {
  const model = isObject(body) && typeof body.model === "string" ? body.model : "claude-stub";
  const block = anthropicBlock(step, index);
  const stopReason = step.kind === "tool" ? "tool_use" : "end_turn";
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const id = `msg_stub_${index}`;
  if (isObject(body) && body.stream !== true) {
    json(response, 200, { id, type: "message", role: "assistant", model, content: [block.final], stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }
  sse(response, [
    { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: block.start },
    { type: "content_block_delta", index: 0, delta: block.delta },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ]);
}

// ---------------------------------------------------------------------------------------- OpenAI

function openaiItem(step: StubStep, index: number): Json {
  if (step.kind === "text") {
    return { type: "message", id: `msg_stub_${index}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] };
  }
  const callId = stubCallId("openai", index);
  if (typeof step.input === "string") {
    return { type: "custom_tool_call", id: `ctc_stub_${index}`, call_id: callId, name: step.name, input: step.input, status: "completed" };
  }
  const namespace = step.namespace === undefined ? {} : { namespace: step.namespace };
  return { type: "function_call", id: `fc_stub_${index}`, call_id: callId, name: step.name, ...namespace, arguments: JSON.stringify(step.input), status: "completed" };
}

function answerOpenai(body: unknown, response: http.ServerResponse, step: StubStep, index: number): void {
  const model = isObject(body) && typeof body.model === "string" ? body.model : "gpt-stub";
  const item = openaiItem(step, index);
  const id = `resp_stub_${index}`;
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  const base = { id, object: "response", created_at: 0, model };
  sse(response, [
    { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: { ...base, status: "completed", output: [item], usage } },
  ]);
}

// ---------------------------------------------------------------------------------------- server

function dialectOf(method: string, pathname: string): StubDialect | null {
  if (method !== "POST") return null;
  if (/\/v1\/messages$/u.test(pathname)) return "anthropic";
  if (/\/v1\/responses$/u.test(pathname)) return "openai";
  return null;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function resultTexts(dialect: StubDialect, results: readonly Json[]): Map<string, string> {
  const key = dialect === "anthropic" ? "tool_use_id" : "call_id";
  const texts = new Map<string, string>();
  for (const result of results) if (typeof result[key] === "string") texts.set(result[key], toolResultText(result));
  return texts;
}

/** The step to answer: the script's (built now when it is a builder), or the final text past its end. */
function buildStep(entry: StubScriptStep | undefined, dialect: StubDialect, results: readonly Json[], errors: string[]): StubStep {
  if (entry === undefined) return { kind: "text", text: FINAL_TEXT };
  if (typeof entry !== "function") return entry;
  const texts = resultTexts(dialect, results);
  try {
    return entry({ dialect, resultOf: (index) => texts.get(stubCallId(dialect, index)) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`building a step: ${message}`);
    return { kind: "text", text: `Stub model error: ${message}` };
  }
}

/** Starts the stub on 127.0.0.1 (an ephemeral port); nothing else can reach it. */
export async function startStubModel(options: StubModelOptions): Promise<StubModel> {
  const maxRequests = options.maxRequests ?? 60;
  const requests: RecordedRequest[] = [];
  let overflow = 0;
  const prepared = new Set<number>();
  const errors: string[] = [];

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    const method = request.method ?? "GET";
    const pathname = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const body = parseJson(await readBody(request));
    const dialect = dialectOf(method, pathname);
    const over = requests.length >= maxRequests;
    if (over) overflow += 1;
    if (dialect === null) {
      requests.push({ method, path: pathname, body, dialect, step: null });
      // count_tokens, model lists and the like: a small body every host accepts.
      if (/count_tokens$/u.test(pathname)) json(response, 200, { input_tokens: 10 });
      else if (/\/models$/u.test(pathname)) json(response, 200, { object: "list", data: [], models: [] });
      else json(response, 200, {});
      return;
    }
    const answer = dialect === "anthropic" ? answerAnthropic : answerOpenai;
    if (!offersTools(body) || over) {
      requests.push({ method, path: pathname, body, dialect, step: null });
      answer(body, response, { kind: "text", text: FINAL_TEXT }, requests.length);
      return;
    }
    const results = dialect === "anthropic" ? anthropicToolResults(body) : openaiToolResults(body);
    const index = results.length;
    requests.push({ method, path: pathname, body, dialect, step: index });
    const step = buildStep(options.steps[index], dialect, results, errors);
    if (step.before !== undefined && !prepared.has(index)) {
      prepared.add(index);
      await step.before();
    }
    answer(body, response, step, index);
  };

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      errors.push(error instanceof Error ? error.message : String(error));
      if (!response.headersSent) json(response, 500, { error: { message: error instanceof Error ? error.message : String(error) } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    overflow: () => overflow,
    errors: () => [...errors],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
