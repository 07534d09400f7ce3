// One local model request end to end (server/observer/localModelClient.ts) against a real HTTP
// server on 127.0.0.1 that plays an OpenAI-compatible chat completion endpoint: the forced tool
// call's arguments come back; a slow, malformed, oversized or failing server and an abort each
// end in their coded failure, quickly; and the connection goes to the admitted address even when
// the name would not resolve now (no second resolution).
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { admitLoopbackEndpoint, type AdmittedEndpoint } from "../../server/observer/loopbackEndpoint";
import { requestLocalToolCall, type LocalToolCallOutcome, type LocalToolCallRequest } from "../../server/observer/localModelClient";

const TOOL = {
  name: "observer_record",
  description: "Record one observation.",
  parameters: { type: "object", properties: { stance: { type: "string" } }, required: ["stance"], additionalProperties: false },
};

interface Seen {
  method: string;
  url: string;
  host: string;
  authorization: string | undefined;
  body: unknown;
}

type Behaviour = (request: http.IncomingMessage, response: http.ServerResponse) => void;

function completion(calls: unknown): string {
  return JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: calls } }] });
}

const call = (name: string, args: unknown) => ({ id: "call_1", type: "function", function: { name, arguments: args } });

async function withServer(behaviour: Behaviour, body: (port: number, seen: Seen[]) => Promise<void>): Promise<void> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push({ method: request.method ?? "", url: request.url ?? "", host: request.headers.host ?? "", authorization: request.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown });
      behaviour(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await body((server.address() as AddressInfo).port, seen);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function admitted(endpoint: string, lookup?: Parameters<typeof admitLoopbackEndpoint>[1]): Promise<AdmittedEndpoint> {
  const admission = await admitLoopbackEndpoint(endpoint, lookup);
  assert.ok(admission.ok, admission.ok ? "" : admission.message);
  return admission.endpoint;
}

function ask(endpoint: AdmittedEndpoint, extra: Partial<LocalToolCallRequest> = {}): Promise<LocalToolCallOutcome> {
  return requestLocalToolCall({ endpoint, modelId: "qwen3:8b", messages: [{ role: "system", content: "You are Observer." }, { role: "user", content: "Material." }], tool: TOOL, ...extra });
}

const json = (text: string): Behaviour => (_request, response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(text);
};

function code(outcome: LocalToolCallOutcome): string {
  return outcome.ok ? "ok" : outcome.code;
}

test("success: POST {endpoint}/chat/completions forcing the one tool; its parsed arguments come back", async () => {
  await withServer(json(completion([call(TOOL.name, JSON.stringify({ stance: "supports" }))])), async (port, seen) => {
    const outcome = await ask(await admitted(`http://127.0.0.1:${port}/v1/`));
    assert.deepEqual(outcome, { ok: true, arguments: { stance: "supports" } });
    assert.equal(seen.length, 1);
    const [request] = seen;
    assert.equal(request?.method, "POST");
    assert.equal(request?.url, "/v1/chat/completions");
    assert.equal(request?.authorization, undefined);
    assert.deepEqual(request?.body, {
      model: "qwen3:8b",
      messages: [
        { role: "system", content: "You are Observer." },
        { role: "user", content: "Material." },
      ],
      tools: [{ type: "function", function: TOOL }],
      tool_choice: { type: "function", function: { name: TOOL.name } },
      stream: false,
    });
  });
});

test("arguments sent as an object (as some local servers do) are accepted too", async () => {
  await withServer(json(completion([call(TOOL.name, { stance: "boundary" })])), async (port) => {
    assert.deepEqual(await ask(await admitted(`http://127.0.0.1:${port}`)), { ok: true, arguments: { stance: "boundary" } });
  });
});

test("the connection goes to the admitted address; the name is not resolved again (and is the Host)", async () => {
  await withServer(json(completion([call(TOOL.name, "{}")])), async (port, seen) => {
    // `observer-model.invalid` resolves nowhere; only the admission's resolver knew it.
    const endpoint = await admitted(`http://observer-model.invalid:${port}/v1`, async () => [{ address: "127.0.0.1", family: 4 }]);
    assert.deepEqual(await ask(endpoint), { ok: true, arguments: {} });
    assert.equal(seen[0]?.host, `observer-model.invalid:${port}`);
  });
});

test("timeout: a server that never answers ends in observer.local-model-timeout", async () => {
  await withServer(
    () => undefined,
    async (port) => {
      const started = Date.now();
      const outcome = await ask(await admitted(`http://127.0.0.1:${port}/v1`), { timeoutMs: 150 });
      assert.equal(code(outcome), "observer.local-model-timeout");
      assert.ok(Date.now() - started < 5_000);
    },
  );
});

test("timeout covers a response that trickles forever", async () => {
  await withServer(
    (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
    },
    async (port) => {
      assert.equal(code(await ask(await admitted(`http://127.0.0.1:${port}/v1`), { timeoutMs: 150 })), "observer.local-model-timeout");
    },
  );
});

test("malformed: not JSON, no tool call, another tool, several calls, arguments that are not a JSON object", async () => {
  const bodies = [
    "<html>model loading</html>",
    JSON.stringify({ choices: [] }),
    JSON.stringify({ choices: [{ message: { role: "assistant", content: "I would rather chat." } }] }),
    completion([]),
    completion([call("bash", "{}")]),
    completion([call(TOOL.name, "{}"), call(TOOL.name, "{}")]),
    completion([call(TOOL.name, "{stance: supports")]),
    completion([call(TOOL.name, "[1, 2]")]),
    completion([call(TOOL.name, null)]),
  ];
  for (const text of bodies) {
    await withServer(json(text), async (port) => {
      const outcome = await ask(await admitted(`http://127.0.0.1:${port}/v1`));
      assert.equal(code(outcome), "observer.local-model-malformed", text);
    });
  }
});

test("oversized: a declared or a streamed body over the bound is cut off", async () => {
  const big = completion([call(TOOL.name, JSON.stringify({ stance: "x".repeat(10_000) }))]);
  await withServer(json(big), async (port) => {
    assert.equal(code(await ask(await admitted(`http://127.0.0.1:${port}/v1`), { maxResponseBytes: 1_000 })), "observer.local-model-oversized");
  });
  await withServer(
    (_request, response) => {
      // Chunked, no length: the bound is enforced while reading.
      response.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => response.write("x".repeat(4_096)), 1);
      response.on("close", () => clearInterval(timer));
    },
    async (port) => {
      assert.equal(code(await ask(await admitted(`http://127.0.0.1:${port}/v1`), { maxResponseBytes: 64 * 1024, timeoutMs: 10_000 })), "observer.local-model-oversized");
    },
  );
});

test("abort: a signal aborted during the request, or before it, ends it at once", async () => {
  await withServer(
    () => undefined,
    async (port, seen) => {
      const endpoint = await admitted(`http://127.0.0.1:${port}/v1`);
      const controller = new AbortController();
      const pending = ask(endpoint, { signal: controller.signal, timeoutMs: 10_000 });
      while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      assert.equal(code(await pending), "observer.local-model-aborted");
      const before = new AbortController();
      before.abort();
      assert.equal(code(await ask(endpoint, { signal: before.signal })), "observer.local-model-aborted");
      assert.equal(seen.length, 1, "a pre-aborted request is never sent");
    },
  );
});

test("failed: an HTTP error status, and a port where nothing listens", async () => {
  await withServer(
    (_request, response) => {
      response.writeHead(503, { "content-type": "text/plain" });
      response.end("model is loading");
    },
    async (port) => {
      const outcome = await ask(await admitted(`http://127.0.0.1:${port}/v1`));
      assert.equal(code(outcome), "observer.local-model-failed");
      assert.match(outcome.ok ? "" : outcome.message, /503: model is loading/u);
    },
  );
  let closedPort = 0;
  await withServer(json("{}"), async (port) => {
    closedPort = port;
  });
  assert.equal(code(await ask(await admitted(`http://127.0.0.1:${closedPort}/v1`))), "observer.local-model-failed");
});
