// The loopback stub model the real-host runs depend on (test/support/realHosts/stubModel.ts), spoken
// to over real HTTP the way Claude Code and Codex speak to it: the script advances by the number of
// tool results a request carries, each dialect's stream has the event sequence its host parses, side
// requests without tools get plain text, the request count is bounded, and what the model was told
// about each call can be read back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startStubModel, stubCallId, toolResultsByCallId, type StubScriptStep, type StubStep } from "../support/realHosts/stubModel";

interface SseEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

async function post(url: string, body: unknown): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
}

function events(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const event = /^event: (.*)$/mu.exec(chunk)?.[1] ?? "";
      const data = JSON.parse(/^data: (.*)$/mu.exec(chunk)?.[1] ?? "{}") as Record<string, unknown>;
      return { event, data };
    });
}

const steps: StubStep[] = [
  { kind: "tool", name: "Bash", input: { command: "touch x" } },
  { kind: "tool", name: "apply_patch", input: "*** Begin Patch\n*** End Patch\n" },
  { kind: "tool", name: "write_marker", namespace: "mcp__stub", input: { name: "m" } },
  { kind: "text", text: "All done." },
];

const tools = [{ name: "Bash" }];

test("Anthropic dialect: a streamed tool_use per step, chosen by the tool results in the request, then end_turn", async () => {
  const stub = await startStubModel({ steps });
  try {
    const first = await post(`${stub.url}/v1/messages`, { model: "m", stream: true, tools, messages: [{ role: "user", content: "go" }] });
    assert.equal(first.status, 200);
    assert.match(first.type, /text\/event-stream/u);
    const sequence = events(first.text);
    assert.deepEqual(
      sequence.map((entry) => entry.event),
      ["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"],
    );
    assert.deepEqual(sequence[1]?.data.content_block, { type: "tool_use", id: stubCallId("anthropic", 0), name: "Bash", input: {} });
    assert.deepEqual(sequence[2]?.data.delta, { type: "input_json_delta", partial_json: '{"command":"touch x"}' });
    assert.deepEqual((sequence[4]?.data.delta as { stop_reason: string }).stop_reason, "tool_use");

    const denial = { type: "tool_result", tool_use_id: stubCallId("anthropic", 0), is_error: true, content: "Docket denied Bash." };
    const later = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: stubCallId("anthropic", 0), name: "Bash", input: {} }] },
      { role: "user", content: [denial] },
      { role: "assistant", content: [] },
      { role: "user", content: [{ ...denial, tool_use_id: stubCallId("anthropic", 1), content: [{ type: "text", text: "second" }] }] },
      { role: "assistant", content: [] },
      { role: "user", content: [{ ...denial, tool_use_id: stubCallId("anthropic", 2), content: "third" }] },
    ];
    const final = events((await post(`${stub.url}/v1/messages`, { model: "m", stream: true, tools, messages: later })).text);
    assert.deepEqual(final[1]?.data.content_block, { type: "text", text: "" });
    assert.deepEqual(final[2]?.data.delta, { type: "text_delta", text: "All done." });
    assert.equal((final[4]?.data.delta as { stop_reason: string }).stop_reason, "end_turn");

    // A side request (no tools: a title, a summary) is answered with text and does not move the script.
    const side = JSON.parse((await post(`${stub.url}/v1/messages`, { model: "m", messages: [] })).text) as { content: { type: string }[] };
    assert.equal(side.content[0]?.type, "text");
    assert.equal((await post(`${stub.url}/v1/messages/count_tokens`, {})).text, '{"input_tokens":10}');

    const results = toolResultsByCallId(stub.requests);
    assert.equal(results.get(stubCallId("anthropic", 0)), "Docket denied Bash.");
    assert.equal(results.get(stubCallId("anthropic", 1)), "second");
    assert.deepEqual(stub.requests.map((request) => request.step), [0, 3, null, null]);
  } finally {
    await stub.close();
  }
});

test("OpenAI Responses dialect: function_call, custom_tool_call for a freeform input, a namespace for MCP tools, then a message", async () => {
  const stub = await startStubModel({ steps });
  try {
    const item = async (input: unknown[]): Promise<Record<string, unknown>> => {
      const answer = events((await post(`${stub.url}/v1/responses`, { model: "m", stream: true, tools, input })).text);
      assert.deepEqual(
        answer.map((entry) => entry.event),
        ["response.created", "response.output_item.done", "response.completed"],
      );
      assert.ok((answer[2]?.data.response as { usage?: unknown }).usage !== undefined, "response.completed carries usage");
      return answer[1]?.data.item as Record<string, unknown>;
    };
    const output = (index: number, type = "function_call_output"): Record<string, unknown> => ({ type, call_id: stubCallId("openai", index), output: `result ${index}` });
    assert.deepEqual(await item([{ type: "message", role: "user", content: [] }]), {
      type: "function_call",
      id: "fc_stub_0",
      call_id: stubCallId("openai", 0),
      name: "Bash",
      arguments: '{"command":"touch x"}',
      status: "completed",
    });
    const patch = await item([output(0)]);
    assert.equal(patch.type, "custom_tool_call");
    assert.equal(patch.input, "*** Begin Patch\n*** End Patch\n");
    const mcp = await item([output(0), output(1, "custom_tool_call_output")]);
    assert.equal(mcp.namespace, "mcp__stub");
    assert.equal(mcp.name, "write_marker");
    const done = await item([output(0), output(1, "custom_tool_call_output"), output(2)]);
    assert.equal(done.type, "message");
    assert.equal(toolResultsByCallId(stub.requests).get(stubCallId("openai", 1)), "result 1");
    assert.equal((await post(`${stub.url}/v1/models`, {})).status, 200);
  } finally {
    await stub.close();
  }
});

test("bounded: past maxRequests the stub ends the turn and counts the overflow; a step's before runs once, its failure is reported", async () => {
  let prepared = 0;
  const stub = await startStubModel({
    maxRequests: 2,
    steps: [
      {
        kind: "tool",
        name: "Bash",
        input: {},
        before: () => {
          prepared += 1;
        },
      },
    ],
  });
  try {
    for (let round = 0; round < 4; round += 1) await post(`${stub.url}/v1/messages`, { model: "m", tools, messages: [] });
    assert.equal(prepared, 1);
    assert.equal(stub.overflow(), 2);
    assert.deepEqual(stub.requests.map((request) => request.step), [0, 0, null, null], "past the bound every turn ends with text");
    assert.deepEqual(stub.errors(), []);
  } finally {
    await stub.close();
  }
  const failing = await startStubModel({
    steps: [
      {
        kind: "text",
        text: "x",
        before: () => {
          throw new Error("could not prepare");
        },
      },
    ],
  });
  try {
    assert.equal((await post(`${failing.url}/v1/messages`, { model: "m", tools, messages: [] })).status, 500);
    assert.deepEqual(failing.errors(), ["could not prepare"]);
  } finally {
    await failing.close();
  }
});

test("a step built at answer time reads earlier tool results by step, in both dialects; a builder that throws ends the turn and is reported", async () => {
  const built: StubScriptStep[] = [
    { kind: "tool", name: "review_open", input: {} },
    (turn) => ({ kind: "tool", name: "review_submit", input: { reviewId: /review:\w+/u.exec(turn.resultOf(0) ?? "")?.[0] ?? "none", dialect: turn.dialect } }),
    (turn) => {
      throw new Error(`cannot answer after ${turn.resultOf(1) ?? "nothing"}`);
    },
  ];
  const stub = await startStubModel({ steps: built });
  try {
    const anthropic = events(
      (
        await post(`${stub.url}/v1/messages`, {
          model: "m",
          stream: true,
          tools,
          messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: stubCallId("anthropic", 0), content: [{ type: "text", text: '{"reviewId":"review:abc"}' }] }] }],
        })
      ).text,
    );
    assert.deepEqual(JSON.parse((anthropic[2]?.data.delta as { partial_json: string }).partial_json), { reviewId: "review:abc", dialect: "anthropic" });
    const openai = events((await post(`${stub.url}/v1/responses`, { model: "m", stream: true, tools, input: [{ type: "function_call_output", call_id: stubCallId("openai", 0), output: "Output:\nreview:def" }] })).text);
    assert.deepEqual(JSON.parse(String((openai[1]?.data.item as { arguments: string }).arguments)), { reviewId: "review:def", dialect: "openai" });
    const failed = events(
      (
        await post(`${stub.url}/v1/responses`, {
          model: "m",
          stream: true,
          tools,
          input: [
            { type: "function_call_output", call_id: stubCallId("openai", 0), output: "a" },
            { type: "function_call_output", call_id: stubCallId("openai", 1), output: "b" },
          ],
        })
      ).text,
    );
    const message = failed[1]?.data.item as { type: string; content: { text: string }[] };
    assert.equal(message.type, "message", "a failed builder ends the turn with text");
    assert.match(message.content[0]?.text ?? "", /cannot answer after b/u);
    assert.deepEqual(stub.errors(), ["building a step: cannot answer after b"]);
  } finally {
    await stub.close();
  }
});
