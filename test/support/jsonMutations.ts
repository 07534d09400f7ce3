// One-field mutations of a JSON value, for the differential tests that hold a direct shape check
// to its zod schema (anchorShape, checkpointShape, evidenceRecordShape, guardEntryShape).

export type JsonPath = readonly (string | number)[];

/** Every path into the value's objects and arrays (each may be replaced, removed or joined by an extra member). */
export function valuePaths(value: unknown, prefix: JsonPath = []): JsonPath[] {
  const found: JsonPath[] = [];
  if (Array.isArray(value)) value.forEach((inner, index) => found.push([...prefix, index], ...valuePaths(inner, [...prefix, index])));
  else if (typeof value === "object" && value !== null) for (const [key, inner] of Object.entries(value)) found.push([...prefix, key], ...valuePaths(inner, [...prefix, key]));
  return found;
}

/**
 * A copy of `value` with the member at `at` replaced, removed, or joined by a sibling (an extra
 * key beside an object member, an extra element at the end of an array), as JSON.parse would hand
 * it over (undefined members gone).
 */
export function mutatedAt(value: unknown, at: JsonPath, how: "replace" | "remove" | "extra", replacement: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  let parent: Record<string, unknown> | unknown[] = copy;
  for (const key of at.slice(0, -1)) parent = (parent as Record<string, unknown>)[key as string] as Record<string, unknown>;
  const last = at[at.length - 1] as string | number;
  if (Array.isArray(parent)) {
    if (how === "replace") parent[last as number] = replacement;
    else if (how === "remove") parent.splice(last as number, 1);
    else parent.push(replacement);
  } else if (how === "replace") parent[last as string] = replacement;
  else if (how === "remove") delete parent[last as string];
  else parent[`${String(last)}Extra`] = replacement;
  return JSON.parse(JSON.stringify(copy));
}
