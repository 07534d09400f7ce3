// The input schema `tools/list` publishes: the derived schema (inputSchema.ts) reshaped into the
// subset that strict tool-calling clients accept, so an agent behind OpenAI's strict function
// calling or Gemini's function-declaration `parameters` can call every Docket tool (docs/mcp.md,
// "Input schemas"). The two dialects meet only in a small common core: objects whose every key is
// required, "absent" written as null, unions as `anyOf`, `enum` for single values, and no
// validation keywords at all. What those keywords said moves into each node's description in
// words; the server keeps validating every call with the full zod schema (toolDefinition.ts).
import type { ToolInputSchema } from "./inputSchema";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords the derivation may emit; anything else cannot be carried to a strict client, so it stops the server at startup. */
const STRUCTURE = new Set(["type", "properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "enum", "const", "description", "title"]);
const CONSTRAINTS = new Set(["minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "default"]);

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function range(min: unknown, max: unknown, noun: string): string | null {
  const low = typeof min === "number" ? min : null;
  const high = typeof max === "number" ? max : null;
  if (low !== null && high !== null) return low === high ? plural(low, noun) : `${low}–${high} ${noun}s`;
  if (high !== null) return `at most ${plural(high, noun)}`;
  if (low !== null) return low === 1 ? `at least 1 ${noun}` : `at least ${low} ${noun}s`;
  return null;
}

/** What the validation keywords of one node require, in words (empty when none). */
function constraintWords(node: JsonObject): string[] {
  const words: string[] = [];
  const length = range(node.minLength, node.maxLength, "character");
  if (length !== null) words.push(length);
  if (typeof node.pattern === "string") words.push(`matching ${node.pattern}`);
  if (typeof node.format === "string") words.push(`format ${node.format}`);
  if (typeof node.minimum === "number" && node.minimum > Number.MIN_SAFE_INTEGER) words.push(`≥ ${node.minimum}`);
  if (typeof node.exclusiveMinimum === "number") words.push(`> ${node.exclusiveMinimum}`);
  if (typeof node.maximum === "number" && node.maximum < Number.MAX_SAFE_INTEGER) words.push(`≤ ${node.maximum}`);
  if (typeof node.exclusiveMaximum === "number") words.push(`< ${node.exclusiveMaximum}`);
  if (typeof node.multipleOf === "number") words.push(`a multiple of ${node.multipleOf}`);
  const items = range(node.minItems, node.maxItems, "item");
  if (items !== null) words.push(items);
  if (node.uniqueItems === true) words.push("no item twice");
  return words;
}

/** The description, then the words as one more sentence. */
function withWords(description: unknown, words: readonly string[]): string | undefined {
  const text = typeof description === "string" && description.trim() !== "" ? description.trim() : null;
  if (words.length === 0) return text ?? undefined;
  const joined = words.join("; ");
  const sentence = `${joined.charAt(0).toUpperCase()}${joined.slice(1)}.`;
  if (text === null) return sentence;
  return /[.!?)]$/u.test(text) ? `${text} ${sentence}` : `${text}. ${sentence}`;
}

function acceptsNull(node: JsonObject): boolean {
  if (node.type === "null") return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  return Array.isArray(node.anyOf) && node.anyOf.some((member) => isObject(member) && acceptsNull(member));
}

/** `anyOf: [node, null]`, the description moved outside (one list when the node is a bare union already). */
function nullable(node: JsonObject, note: string): JsonObject {
  const { description, ...inner } = node;
  const keys = Object.keys(inner);
  const members = keys.length === 1 && Array.isArray(inner.anyOf) ? (inner.anyOf as unknown[]) : [inner];
  const text = withWords(description, [note]);
  return { ...(text === undefined ? {} : { description: text }), anyOf: [...members, { type: "null" }] };
}

function shapeNode(node: unknown, at: string): JsonObject {
  if (!isObject(node)) throw new Error(`${at}: a schema node must be an object to be published`);
  const unknownKeyword = Object.keys(node).find((key) => !STRUCTURE.has(key) && !CONSTRAINTS.has(key));
  if (unknownKeyword !== undefined) throw new Error(`${at}: the keyword ${unknownKeyword} has no form strict clients accept`);
  if (Array.isArray(node.type)) {
    // Gemini's `type` is one value: a type list becomes a union of single types.
    const { type: types, description, ...rest } = node;
    const members = (types as unknown[]).map((type) => (type === "null" ? { type: "null" } : { ...rest, type }));
    return shapeNode({ ...(description === undefined ? {} : { description }), anyOf: members }, at);
  }
  const shaped: JsonObject = {};
  const description = withWords(node.description, constraintWords(node));
  if (description !== undefined) shaped.description = description;
  if (typeof node.title === "string") shaped.title = node.title;
  if (typeof node.type === "string") shaped.type = node.type;
  if (node.const !== undefined) {
    // Neither dialect is sure to accept `const`; a one-value `enum` says the same.
    if (typeof node.const !== "string") throw new Error(`${at}: only a string const can be published`);
    shaped.type = "string";
    shaped.enum = [node.const];
  }
  if (Array.isArray(node.enum)) shaped.enum = node.enum;
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : null;
  if (union !== null) shaped.anyOf = union.map((member, index) => shapeNode(member, `${at}/anyOf/${index}`));
  if (node.items !== undefined) shaped.items = shapeNode(node.items, `${at}/items`);
  if (node.type === "object" || isObject(node.properties)) {
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) throw new Error(`${at}: an open object has no form strict clients accept`);
    const properties = isObject(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required : [];
    const shapedProperties: JsonObject = {};
    for (const [key, value] of Object.entries(properties)) {
      const child = shapeNode(value, `${at}/properties/${key}`);
      const fallback = isObject(value) && value.default !== undefined ? ` (then ${JSON.stringify(value.default)})` : "";
      shapedProperties[key] = required.includes(key) || acceptsNull(child) ? child : nullable(child, `null when not given${fallback}`);
    }
    // `additionalProperties: false` is left out: Gemini's `parameters` refuses the keyword, OpenAI's
    // SDKs add it back to every object when they make a schema strict, and zod refuses unknown keys.
    shaped.type = "object";
    shaped.properties = shapedProperties;
    shaped.required = Object.keys(shapedProperties);
  }
  return shaped;
}

/** The schema `tools/list` carries: every key required, nullable where it may be absent, no validation keywords. */
export function strictInputSchema(derived: ToolInputSchema): ToolInputSchema {
  const shaped = shapeNode(derived, "#");
  return { ...shaped, type: "object", properties: shaped.properties as Record<string, object> };
}
