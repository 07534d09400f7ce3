// MCP tool input schemas, derived mechanically from the zod schemas the backend validates with
// (server/protocol/messages.ts), so the two can never drift. Nothing here is written by hand.
import * as z from "zod";
import { compareCodeUnits } from "../ledger/canonicalJson";

/** A JSON Schema object as MCP's `tools/list` carries it (the root must be `type: "object"`). */
export interface ToolInputSchema {
  readonly type: "object";
  readonly properties: Record<string, object>;
  readonly required?: string[];
  readonly [keyword: string]: unknown;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type ObjectSchema = JsonObject & { properties: Record<string, object> };

function objectVariant(value: unknown): ObjectSchema | null {
  if (!isObject(value) || value.type !== "object" || !isObject(value.properties)) return null;
  return Object.values(value.properties).every(isObject) ? (value as ObjectSchema) : null;
}

function requiredOf(variant: JsonObject): string[] {
  return Array.isArray(variant.required) ? variant.required.filter((key): key is string => typeof key === "string") : [];
}

/**
 * Several model APIs refuse `oneOf`/`anyOf`/`allOf` at the root of a tool's input schema (the
 * Anthropic API answers "input_schema does not support oneOf, allOf, or anyOf at the top level"),
 * so a root union of objects is merged into one object: each property keeps its variant's schema
 * (a property shared by variants as different `const`s becomes an `enum`, otherwise an `anyOf`),
 * only keys every variant requires stay required, and the description says which keys each
 * variant requires. The exact union is still enforced by the zod schema on every call.
 */
function mergeRootUnion(variants: readonly unknown[]): ToolInputSchema | null {
  const objects = variants.map(objectVariant);
  if (objects.length === 0 || objects.some((variant) => variant === null)) return null;
  const members = objects as ObjectSchema[];
  const keys = [...new Set(members.flatMap((variant) => Object.keys(variant.properties)))];
  const properties: Record<string, object> = {};
  for (const key of keys) {
    const schemas = members.map((variant) => variant.properties[key]).filter((schema) => schema !== undefined);
    const consts = schemas.map((schema) => (isObject(schema) ? schema.const : undefined));
    const distinct = [...new Map(schemas.map((schema) => [JSON.stringify(schema), schema])).values()];
    if (consts.every((value) => typeof value === "string")) {
      properties[key] = { type: "string", enum: [...new Set(consts as string[])] };
    } else {
      properties[key] = distinct.length === 1 && distinct[0] !== undefined ? distinct[0] : { anyOf: distinct };
    }
  }
  const requiredByAll = keys.filter((key) => members.every((variant) => requiredOf(variant).includes(key)));
  const discriminator = requiredByAll.find((key) => {
    const values = members.map((variant) => (isObject(variant.properties[key]) ? (variant.properties[key] as JsonObject).const : undefined));
    return values.every((value) => typeof value === "string") && new Set(values).size === values.length;
  });
  const variantsText = members.map((variant) => {
    const required = requiredOf(variant).filter((key) => key !== discriminator);
    const tag = discriminator === undefined ? "one variant" : `${discriminator} "${String((variant.properties[discriminator] as JsonObject).const)}"`;
    const allowed = Object.keys(variant.properties).filter((key) => key !== discriminator);
    const optional = allowed.filter((key) => !required.includes(key));
    return `${tag}: requires ${required.length === 0 ? "nothing else" : required.join(", ")}${optional.length === 0 ? "" : `; optional ${optional.join(", ")}`}; no other keys`;
  });
  return {
    type: "object",
    description: `Exactly one of: ${variantsText.join(" | ")}. A key the chosen variant does not use is null or left out.`,
    properties,
    required: requiredByAll,
    additionalProperties: false,
  };
}

/**
 * zod's own conversion of what a schema accepts (the input side: defaults make a key optional),
 * unions and all, without the `$schema` key.
 */
export function derivedJsonSchema(schema: z.ZodType): JsonObject {
  const converted = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12", unrepresentable: "throw" }) as JsonObject;
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}

/**
 * The JSON Schema (2020-12 dialect, the MCP default, so no `$schema` key) of what a tool accepts:
 * zod's own conversion of the input side (defaults make a key optional), root unions merged.
 */
export function toolInputSchema(schema: z.ZodType): ToolInputSchema {
  return rootObjectSchema(derivedJsonSchema(schema));
}

/** A derived schema (`derivedJsonSchema`) as one object schema, a root union merged. */
export function rootObjectSchema(rest: JsonObject): ToolInputSchema {
  const union = Array.isArray(rest.oneOf) ? rest.oneOf : Array.isArray(rest.anyOf) ? rest.anyOf : null;
  if (union !== null) {
    const merged = mergeRootUnion(union);
    if (merged === null) throw new Error("a tool's input schema must be an object or a union of objects");
    return merged;
  }
  const root = objectVariant(rest);
  if (root === null) throw new Error("a tool's input schema must be an object");
  return { ...root, type: "object", properties: root.properties };
}

/** `path: message` for every issue, naming the offending field (sorted for a stable sentence). */
export function describeIssues(error: z.ZodError): string {
  const lines = error.issues.map((issue) => `${issue.path.length === 0 ? "(arguments)" : issue.path.map(String).join(".")}: ${issue.message}`);
  return [...new Set(lines)].sort(compareCodeUnits).join("; ");
}
