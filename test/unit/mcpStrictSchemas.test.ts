// The schemas `tools/list` publishes, held to the two strict dialects (test/support/
// strictSchemaDialects.ts): every tool passes OpenAI's strict conversion and Gemini's
// `parameters`, the checkers do refuse the schemas as zod derives them, and the reshaping keeps
// every key and says in words what the validation keywords said.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConcludeJudgmentParams, OpenJudgmentParams, RecordLandingParams } from "../../server/protocol/messages";
import { SeatReportSubmission } from "../../server/router/planSchema";
import { ObserverCommitRequest } from "../../server/observer/observerCommit";
import { toolInputSchema } from "../../server/mcp/inputSchema";
import { strictInputSchema } from "../../server/mcp/strictInputSchema";
import { listTools } from "../../server/mcp/mcpServer";
import { geminiParametersViolations, openAiStrictViolations } from "../support/strictSchemaDialects";

type JsonObject = Record<string, unknown>;

function propertiesOf(schema: unknown): JsonObject {
  return (schema as { properties?: JsonObject }).properties ?? {};
}

test("every tool's published input schema passes OpenAI's strict conversion and Gemini's parameters", () => {
  const tools = listTools();
  assert.equal(tools.length, 14);
  for (const tool of tools) {
    assert.deepEqual(openAiStrictViolations(tool.inputSchema), [], `${tool.name} (OpenAI strict)`);
    assert.deepEqual(geminiParametersViolations(tool.inputSchema), [], `${tool.name} (Gemini parameters)`);
  }
});

test("the checkers refuse the schemas as zod derives them, naming each rule", () => {
  const openJudgment = toolInputSchema(OpenJudgmentParams);
  const openAi = openAiStrictViolations(openJudgment);
  assert.ok(openAi.includes("#: property purpose must be listed in required (write an optional field as nullable)"), openAi.join("\n"));
  assert.ok(openAi.includes("#/properties/question: maxLength is not supported in strict mode"), openAi.join("\n"));
  assert.ok(openAi.includes("#/properties/obligations: minItems is not supported in strict mode"), openAi.join("\n"));
  assert.ok(openAi.includes("#/properties/routeDefinitionId: pattern is not supported in strict mode"), openAi.join("\n"));
  assert.ok(geminiParametersViolations(openJudgment).includes("#: unknown Schema field additionalProperties"));

  const conclude = openAiStrictViolations(toolInputSchema(ConcludeJudgmentParams));
  assert.ok(conclude.includes("#/properties/applicability: oneOf is not supported in strict mode"), conclude.join("\n"));
  assert.ok(conclude.some((violation) => /: default is not supported in strict mode$/u.test(violation)), conclude.join("\n"));
  assert.ok(openAiStrictViolations(toolInputSchema(RecordLandingParams)).includes("#/properties/verification: default is not supported in strict mode"));

  const report = geminiParametersViolations(toolInputSchema(SeatReportSubmission));
  assert.ok(report.some((violation) => /: unknown Schema field const$/u.test(violation)), report.join("\n"));
  assert.ok(report.some((violation) => /: unknown Schema field exclusiveMinimum$/u.test(violation)), report.join("\n"));
  assert.ok(report.some((violation) => /: unknown Schema field oneOf$/u.test(violation)), report.join("\n"));
  const observer = geminiParametersViolations(toolInputSchema(ObserverCommitRequest));
  assert.ok(observer.some((violation) => /: type must be one Type value, not \["null","string"\]$/u.test(violation)), observer.join("\n"));
});

test("the checkers know the rules a published schema could still break", () => {
  const object = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({ type: "object", properties, required: Object.keys(properties), ...extra });
  assert.deepEqual(openAiStrictViolations({ anyOf: [object({ a: { type: "string" } })] }), ["#: the root must be an object schema", "#: the root must not be an anyOf"]);
  assert.deepEqual(openAiStrictViolations(object({ a: { type: "object", properties: {}, additionalProperties: true } })), [
    "#/properties/a: additionalProperties must be false for a strict schema",
    "#/properties/a: additionalProperties must be false",
  ]);
  assert.deepEqual(openAiStrictViolations(object({ a: { type: "string", const: "x" } })), ["#/properties/a: const is not supported in strict mode"]);
  let nested: JsonObject = { type: "string" };
  for (let level = 0; level < 11; level += 1) nested = object({ a: nested });
  assert.deepEqual(openAiStrictViolations(nested), ["#/properties/a/properties/a/properties/a/properties/a/properties/a/properties/a/properties/a/properties/a/properties/a/properties/a: more than 10 levels of object nesting"]);

  assert.deepEqual(geminiParametersViolations(object({ a: { type: "integer", enum: [1, 2] } })), ["#/properties/a: enum is allowed on strings only", "#/properties/a: enum values must be strings"]);
  assert.deepEqual(geminiParametersViolations(object({ a: object({}) })), ["#/properties/a: properties should be non-empty for OBJECT type"]);
  assert.deepEqual(geminiParametersViolations(object({ "a-b": { type: "string", format: "uri" } })), ["#: parameter name a-b is not allowed", "#/properties/a-b: format uri is not supported for STRING"]);
  assert.deepEqual(geminiParametersViolations(object({ a: { type: "array" } })), ["#/properties/a: an ARRAY needs items"]);
  // A tool without parameters sends no `parameters` at all.
  assert.deepEqual(geminiParametersViolations({ type: "object", properties: {}, required: [] }), []);
});

test("reshaping keeps every key, requires it, and makes exactly the optional ones nullable", () => {
  for (const params of [OpenJudgmentParams, ConcludeJudgmentParams, RecordLandingParams, SeatReportSubmission]) {
    const derived = toolInputSchema(params);
    const published = strictInputSchema(derived);
    assert.deepEqual(Object.keys(published.properties), Object.keys(derived.properties));
    assert.deepEqual(published.required, Object.keys(derived.properties));
  }
  const landing = strictInputSchema(toolInputSchema(RecordLandingParams)).properties as Record<string, JsonObject>;
  assert.deepEqual(landing.result, { description: "1–4000 characters.", type: "string" });
  assert.deepEqual(landing.changedPaths?.anyOf, [{ type: "array", items: { description: "1–4096 characters.", type: "string" } }, { type: "null" }]);
  assert.equal(landing.changedPaths?.description, "1–200 items. Null when not given.");
  assert.equal(landing.verification?.description, "At most 100 items. Null when not given (then []).");
  // A key that was nullable already (plan's mode, a finding citation's line) is not wrapped twice.
  const report = strictInputSchema(toolInputSchema(SeatReportSubmission));
  assert.deepEqual((report.properties as Record<string, JsonObject>).mode, {
    anyOf: [{ type: "string", enum: ["plan-only", "implement", "review", "investigate"] }, { type: "null" }],
  });
  const citation = JSON.stringify(propertiesOf(report).findings);
  assert.match(citation, /"line":\{"anyOf":\[\{"description":"> 0\.","type":"integer"\},\{"type":"null"\}\]\}/u);
  assert.match(citation, /"kind":\{"type":"string","enum":\["file"\]\}/u);
});

test("the merged root of conclude_judgment says which keys each disposition uses, the rest null", () => {
  const published = strictInputSchema(toolInputSchema(ConcludeJudgmentParams));
  assert.match(String(published.description), /disposition "judgment": requires outcome; optional applicability, nominations, selectionBasis, coverage; no other keys/u);
  assert.match(String(published.description), /A key the chosen variant does not use is null or left out\./u);
  assert.deepEqual((published.properties as Record<string, JsonObject>).disposition, { type: "string", enum: ["not-applicable", "judgment"] });
});
