// A strict client cannot leave a key out (strictInputSchema.ts publishes every key as required),
// so it writes null for "not given". Before the zod schema sees the arguments, a null is removed
// wherever the key is optional and null is not a value the key itself accepts, so null means
// exactly what omitting the key means. A null the schema does accept (plan's `mode`, a citation's
// `line`) is kept, and a null for a required key stays for zod to refuse.
type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function acceptsNull(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
  if (schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))) return true;
  return (unionOf(schema) ?? []).some(acceptsNull);
}

/** The single value a property pins (a discriminator), or undefined. */
function pinned(schema: unknown): unknown {
  if (!isObject(schema)) return undefined;
  if (schema.const !== undefined) return schema.const;
  return Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined;
}

function propertiesOf(schema: JsonObject): JsonObject {
  return isObject(schema.properties) ? schema.properties : {};
}

function unionOf(schema: JsonObject): readonly unknown[] | null {
  return Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
}

/** The members of a union with nested unions spread out (zod writes a nullable union as a union in a union). */
function flatMembers(members: readonly unknown[]): unknown[] {
  return members.flatMap((member) => {
    const nested = isObject(member) && !isObject(member.properties) ? unionOf(member) : null;
    return nested === null ? [member] : flatMembers(nested);
  });
}

/** The union member an object value is meant for: the first whose pinned properties it matches. */
function memberFor(members: readonly unknown[], value: JsonObject): JsonObject | null {
  for (const member of flatMembers(members)) {
    if (!isObject(member) || !isObject(member.properties)) continue;
    const matches = Object.entries(member.properties).every(([key, schema]) => {
      const expected = pinned(schema);
      return expected === undefined || value[key] === expected;
    });
    if (matches) return member;
  }
  return null;
}

function objectWithoutAbsentNulls(schema: JsonObject, value: JsonObject, siblingKeys: ReadonlySet<string>): JsonObject {
  const properties = propertiesOf(schema);
  const required = Array.isArray(schema.required) ? schema.required : [];
  const result: JsonObject = {};
  for (const [key, entry] of Object.entries(value)) {
    const property = properties[key];
    if (entry === null) {
      // A key of another member of the union (published merged with this one) means "not this one".
      if (property === undefined && siblingKeys.has(key)) continue;
      if (property !== undefined && !required.includes(key) && !acceptsNull(property)) continue;
    }
    result[key] = property === undefined ? entry : withoutAbsentNulls(property, entry);
  }
  return result;
}

/** `value` with every null that stands for an omitted optional key removed, read against zod's own JSON Schema. */
export function withoutAbsentNulls(schema: unknown, value: unknown): unknown {
  if (!isObject(schema)) return value;
  if (Array.isArray(value)) return isObject(schema.items) ? value.map((entry) => withoutAbsentNulls(schema.items, entry)) : value;
  if (!isObject(value)) return value;
  const union = unionOf(schema);
  if (union !== null) {
    const member = memberFor(union, value);
    if (member === null) return value;
    const siblingKeys = new Set(flatMembers(union).flatMap((other) => (isObject(other) ? Object.keys(propertiesOf(other)) : [])));
    return objectWithoutAbsentNulls(member, value, siblingKeys);
  }
  return isObject(schema.properties) ? objectWithoutAbsentNulls(schema, value, new Set()) : value;
}
