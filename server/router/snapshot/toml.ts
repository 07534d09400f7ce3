// TOML manifests (Cargo.toml, pyproject.toml) for the snapshot, read with a maintained TOML parser
// (server/toml/toml.ts) and walked for the few fields the snapshot needs. Never throws: a manifest
// that is not TOML comes back as a sentence naming its first error, the way a package.json that is
// not JSON does.
import { isTomlTable, readTomlDocument, type TomlTable } from "../../toml/toml";

export type { TomlTable };

export type TomlManifest = { readonly ok: true; readonly value: TomlTable } | { readonly ok: false; readonly problem: string };

export function readTomlManifest(text: string, file: string): TomlManifest {
  const read = readTomlDocument(text);
  return read.ok ? read : { ok: false, problem: `${file} is not valid TOML: ${read.message}` };
}

/** The table at `keys` below `table`, or null when any step is missing or not a table. */
export function tomlTableAt(table: TomlTable, ...keys: readonly string[]): TomlTable | null {
  let current: unknown = table;
  for (const key of keys) {
    if (!isTomlTable(current) || !Object.hasOwn(current, key)) return null;
    current = current[key];
  }
  return isTomlTable(current) ? current : null;
}

/** The string at `keys` below `table`, or null. */
export function tomlStringAt(table: TomlTable, ...keys: readonly string[]): string | null {
  const parent = tomlTableAt(table, ...keys.slice(0, -1));
  const last = keys[keys.length - 1];
  if (parent === null || last === undefined || !Object.hasOwn(parent, last)) return null;
  const value = parent[last];
  return typeof value === "string" ? value : null;
}

/** The strings of an array value (other items left out); none for anything but an array. */
export function tomlStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** The keys of the table at `keys` below `table` (none when it is missing). */
export function tomlKeysAt(table: TomlTable, ...keys: readonly string[]): string[] {
  return Object.keys(tomlTableAt(table, ...keys) ?? {});
}
