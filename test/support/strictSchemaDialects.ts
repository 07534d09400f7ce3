// What two strict tool-calling dialects do with an MCP tool's input schema, written as checkers
// that walk a JSON Schema and name every rule it breaks (an empty list: the client accepts it).
//
// OpenAI strict function calling: the Agents SDKs (Python `ensure_strict_json_schema`, JS
// `toOpenAIStrictToolSchema`) add `additionalProperties: false` to an object that does not set it
// and refuse one that allows more; the API then holds the schema to Structured Outputs' subset:
// the root an object and not a union, every object closed with every property in `required`
// (optional written as a union with null), unions as `anyOf` only (no `oneOf`, `allOf`, `not`,
// `if`), no `default`, and none of the validation keywords (minLength, maxLength, pattern,
// format, minimum, maximum, minItems, maxItems, …) that strict validators have refused for all or
// part of their history; at most 10 levels of object nesting, 5000 properties, 1000 enum values.
//
// Gemini's function-declaration `parameters` (the OpenAPI 3.0 subset `Schema`, before
// `parametersJsonSchema`): only the `Schema` message's own fields (anyOf, default, description,
// enum, example, format, items, maximum, maxItems, maxLength, maxProperties, minimum, minItems,
// minLength, minProperties, nullable, pattern, properties, propertyOrdering, required, title,
// type) — so no `additionalProperties`, `const`, `oneOf`, `exclusiveMinimum`, `$ref` — a single
// `type` from its `Type` enum, `enum` on strings only, `properties` non-empty for an object
// ("should be non-empty for OBJECT type"), parameter names of letters, digits and underscores
// starting with a letter or underscore (at most 64), and on the Developer API `format` only
// "enum"/"date-time" for strings. A tool without parameters leaves `parameters` unset.

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const OPENAI_KEYWORDS = new Set(["type", "description", "title", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "$defs", "$ref"]);
const OPENAI_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const OPENAI_MAX_NESTING = 10;
const OPENAI_MAX_PROPERTIES = 5000;
const OPENAI_MAX_ENUM_VALUES = 1000;

/** The Agents SDKs' strict conversion: close objects that say nothing; refuse ones left open. */
function openAiSdkConversion(node: unknown, at: string, violations: string[]): unknown {
  if (Array.isArray(node)) return node.map((entry, index) => openAiSdkConversion(entry, `${at}/${index}`, violations));
  if (!isObject(node)) return node;
  const converted: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    converted[key] = key === "properties" && isObject(value)
      ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, openAiSdkConversion(schema, `${at}/properties/${name}`, violations)]))
      : key === "enum" || key === "required"
        ? value
        : openAiSdkConversion(value, `${at}/${key}`, violations);
  }
  if (node.type === "object") {
    if (!("additionalProperties" in node)) converted.additionalProperties = false;
    else if (node.additionalProperties !== false) violations.push(`${at}: additionalProperties must be false for a strict schema`);
  }
  return converted;
}

interface OpenAiCounts {
  properties: number;
  enumValues: number;
}

function checkOpenAiNode(node: unknown, at: string, depth: number, counts: OpenAiCounts, violations: string[]): void {
  if (!isObject(node)) {
    violations.push(`${at}: a schema must be an object`);
    return;
  }
  for (const key of Object.keys(node)) {
    if (!OPENAI_KEYWORDS.has(key)) violations.push(`${at}: ${key} is not supported in strict mode`);
  }
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  for (const type of types) if (typeof type !== "string" || !OPENAI_TYPES.has(type)) violations.push(`${at}: type ${JSON.stringify(type)} is not supported`);
  if (node.type === undefined && node.anyOf === undefined && node.oneOf === undefined && node.allOf === undefined && node.$ref === undefined && node.enum === undefined) violations.push(`${at}: a schema needs a type, an enum, an anyOf or a $ref`);
  if (node.enum !== undefined) {
    if (!Array.isArray(node.enum) || node.enum.length === 0) violations.push(`${at}: enum must be a non-empty list`);
    else {
      counts.enumValues += node.enum.length;
      if (node.enum.some((value) => isObject(value) || Array.isArray(value))) violations.push(`${at}: enum values must be strings, numbers, booleans or null`);
    }
  }
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) violations.push(`${at}: anyOf must be a non-empty list`);
    else node.anyOf.forEach((member, index) => checkOpenAiNode(member, `${at}/anyOf/${index}`, depth, counts, violations));
  }
  // Refused above; their members are still walked so every other broken rule is named too.
  for (const keyword of ["oneOf", "allOf"]) {
    const members = node[keyword];
    if (Array.isArray(members)) members.forEach((member, index) => checkOpenAiNode(member, `${at}/${keyword}/${index}`, depth, counts, violations));
  }
  if (types.includes("object")) {
    if (depth + 1 > OPENAI_MAX_NESTING) violations.push(`${at}: more than ${OPENAI_MAX_NESTING} levels of object nesting`);
    if (node.additionalProperties !== false) violations.push(`${at}: additionalProperties must be false`);
    const properties = isObject(node.properties) ? node.properties : null;
    if (properties === null) violations.push(`${at}: an object must list its properties`);
    else {
      const required = Array.isArray(node.required) ? node.required : [];
      for (const key of Object.keys(properties)) {
        counts.properties += 1;
        if (!required.includes(key)) violations.push(`${at}: property ${key} must be listed in required (write an optional field as nullable)`);
        checkOpenAiNode(properties[key], `${at}/properties/${key}`, depth + 1, counts, violations);
      }
      for (const key of required) if (typeof key !== "string" || !(key in properties)) violations.push(`${at}: required names ${String(key)}, which is not a property`);
    }
  }
  if (types.includes("array")) {
    if (!isObject(node.items)) violations.push(`${at}: an array needs one items schema`);
    else checkOpenAiNode(node.items, `${at}/items`, depth, counts, violations);
  }
  if (isObject(node.$defs)) for (const [name, definition] of Object.entries(node.$defs)) checkOpenAiNode(definition, `${at}/$defs/${name}`, depth, counts, violations);
}

/** The schema as the SDK sends it with `strict: true` (what a strict model's arguments satisfy). */
export function openAiStrictConversion(schema: unknown): unknown {
  return openAiSdkConversion(schema, "#", []);
}

/** Every rule of OpenAI strict function calling the schema breaks, after the SDK's strict conversion. */
export function openAiStrictViolations(schema: unknown): string[] {
  const violations: string[] = [];
  const converted = openAiSdkConversion(schema, "#", violations);
  if (!isObject(converted) || converted.type !== "object") violations.push("#: the root must be an object schema");
  if (isObject(converted) && converted.anyOf !== undefined) violations.push("#: the root must not be an anyOf");
  const counts: OpenAiCounts = { properties: 0, enumValues: 0 };
  checkOpenAiNode(converted, "#", 0, counts, violations);
  if (counts.properties > OPENAI_MAX_PROPERTIES) violations.push(`#: ${counts.properties} properties, more than ${OPENAI_MAX_PROPERTIES}`);
  if (counts.enumValues > OPENAI_MAX_ENUM_VALUES) violations.push(`#: ${counts.enumValues} enum values, more than ${OPENAI_MAX_ENUM_VALUES}`);
  return violations;
}

const GEMINI_FIELDS = new Set([
  "anyOf",
  "default",
  "description",
  "enum",
  "example",
  "format",
  "items",
  "maximum",
  "maxItems",
  "maxLength",
  "maxProperties",
  "minimum",
  "minItems",
  "minLength",
  "minProperties",
  "nullable",
  "pattern",
  "properties",
  "propertyOrdering",
  "required",
  "title",
  "type",
]);
const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);
const GEMINI_FORMATS: Record<string, readonly string[]> = { STRING: ["enum", "date-time"], NUMBER: ["float", "double"], INTEGER: ["int32", "int64"] };
const GEMINI_PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/u;

function checkGeminiNode(node: unknown, at: string, violations: string[]): void {
  if (!isObject(node)) {
    violations.push(`${at}: a Schema must be an object`);
    return;
  }
  for (const key of Object.keys(node)) {
    if (!GEMINI_FIELDS.has(key)) violations.push(`${at}: unknown Schema field ${key}`);
  }
  let type: string | null = null;
  if (node.type !== undefined) {
    if (typeof node.type !== "string" || !GEMINI_TYPES.has(node.type.toUpperCase())) violations.push(`${at}: type must be one Type value, not ${JSON.stringify(node.type)}`);
    else type = node.type.toUpperCase();
  }
  if (node.type === undefined && node.anyOf === undefined && node.oneOf === undefined && node.allOf === undefined) violations.push(`${at}: a Schema needs a type or an anyOf`);
  if (node.enum !== undefined) {
    if (type !== "STRING") violations.push(`${at}: enum is allowed on strings only`);
    if (!Array.isArray(node.enum) || node.enum.some((value) => typeof value !== "string")) violations.push(`${at}: enum values must be strings`);
  }
  if (node.format !== undefined && !(type !== null && (GEMINI_FORMATS[type] ?? []).includes(String(node.format)))) violations.push(`${at}: format ${String(node.format)} is not supported for ${type ?? "this type"}`);
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) violations.push(`${at}: anyOf must be a non-empty list`);
    else node.anyOf.forEach((member, index) => checkGeminiNode(member, `${at}/anyOf/${index}`, violations));
  }
  // Unknown fields, reported above; their members are still walked so every other broken rule is named too.
  for (const keyword of ["oneOf", "allOf"]) {
    const members = node[keyword];
    if (Array.isArray(members)) members.forEach((member, index) => checkGeminiNode(member, `${at}/${keyword}/${index}`, violations));
  }
  if (node.properties !== undefined && !isObject(node.properties)) violations.push(`${at}: properties must be a map`);
  if (type === "OBJECT" || isObject(node.properties)) {
    const properties = isObject(node.properties) ? node.properties : {};
    if (Object.keys(properties).length === 0) violations.push(`${at}: properties should be non-empty for OBJECT type`);
    for (const [key, value] of Object.entries(properties)) {
      if (!GEMINI_PARAMETER_NAME.test(key)) violations.push(`${at}: parameter name ${key} is not allowed`);
      checkGeminiNode(value, `${at}/properties/${key}`, violations);
    }
    const required = Array.isArray(node.required) ? node.required : [];
    for (const key of required) if (typeof key !== "string" || !(key in properties)) violations.push(`${at}: required names ${String(key)}, which is not a property`);
  }
  if (node.items !== undefined) checkGeminiNode(node.items, `${at}/items`, violations);
  if (type === "ARRAY" && node.items === undefined) violations.push(`${at}: an ARRAY needs items`);
}

/** Every rule of Gemini's function-declaration `parameters` the schema breaks, as a client would send it. */
export function geminiParametersViolations(schema: unknown): string[] {
  // A tool without parameters leaves `parameters` unset, so an empty root object is never sent.
  if (isObject(schema) && schema.type === "object" && (!isObject(schema.properties) || Object.keys(schema.properties).length === 0)) return [];
  const violations: string[] = [];
  checkGeminiNode(schema, "#", violations);
  return violations;
}
