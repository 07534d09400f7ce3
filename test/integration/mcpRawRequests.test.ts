// `docket mcp` answered by a raw JSON-RPC client over stdio (issue 12, finding 7): `arguments` that
// is not a JSON object (a number, an array, a string, null, a boolean) is a coded
// docket.invalid-params tool result for every tool, never a JSON-RPC error with a zod dump; a call
// without a tool name is coded too; the server keeps answering afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { listTools } from "../../server/mcp/mcpServer";
import { RawMcpClient, toolErrorCode } from "../support/rawMcpClient";

const NOT_OBJECTS: readonly unknown[] = [5, [], ["a"], "x", "", null, true, 1.5];

test("a non-object `arguments` is docket.invalid-params for every tool, as a tool result", async () => {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-mcp-raw-")));
  const client = await RawMcpClient.start(workspace);
  try {
    const listed = await client.request("tools/list", {});
    const names = ((listed.response.result?.["tools"] ?? []) as { name: string }[]).map((tool) => tool.name);
    assert.deepEqual(names, listTools().map((tool) => tool.name));
    for (const name of names) {
      for (const args of NOT_OBJECTS) {
        const { response } = await client.callTool(name, args);
        const shown = `${name} with arguments ${JSON.stringify(args)}`;
        assert.equal(response.error, undefined, `${shown} answered a JSON-RPC error: ${JSON.stringify(response.error)}`);
        assert.equal(toolErrorCode(response), "docket.invalid-params", shown);
        const text = JSON.stringify(response.result);
        assert.match(text, /must be a JSON object/u, shown);
        assert.doesNotMatch(text, /"code":\s*"invalid_type"|ZodError|expected":/u, `${shown} leaks a zod dump`);
      }
    }
    // No `arguments` at all is no arguments: status needs none.
    assert.equal(toolErrorCode((await client.callTool("status")).response), null);
  } finally {
    await client.close();
  }
});

test("a call without a usable tool name is coded; other methods keep the SDK's answers", async () => {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-mcp-raw-")));
  const client = await RawMcpClient.start(workspace);
  try {
    for (const params of [{}, { name: 5 }, { name: null, arguments: {} }, { name: ["status"] }]) {
      const { response } = await client.request("tools/call", params);
      assert.equal(response.error, undefined, JSON.stringify(params));
      assert.equal(toolErrorCode(response), "docket.invalid-params", JSON.stringify(params));
    }
    const unknownTool = await client.callTool("no_such_tool", {});
    assert.equal(toolErrorCode(unknownTool.response), "docket.invalid-params");
    const unknownMethod = await client.request("resources/list", {});
    assert.deepEqual(unknownMethod.response.error, { code: -32601, message: "Method not found" });
    const ping = await client.request("ping");
    assert.deepEqual(ping.response.result, {});
    // Still serving after every refusal.
    const status = await client.callTool("status", {});
    assert.equal(toolErrorCode(status.response), null, JSON.stringify(status.response));
  } finally {
    await client.close();
  }
});
