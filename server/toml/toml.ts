// TOML through smol-toml (a maintained, spec-complete TOML 1.0 parser), for the readers that need
// it: the Router's manifest snapshot and the Codex config installer. smol-toml ships a CommonJS
// build for require() but declares its types for ESM only, which TypeScript's node16 resolution
// will not import statically into this CommonJS build; so the types come with resolution-mode
// "import" and the CommonJS build is loaded with require (esbuild bundles the same file).
import type * as SmolToml from "smol-toml" with { "resolution-mode": "import" };

let loaded: typeof SmolToml | null = null;

/** Loaded on first use: most readers (e.g. `docket status` with no Codex config) never parse TOML. */
function smolToml(): typeof SmolToml {
  loaded ??= require("smol-toml") as typeof SmolToml;
  return loaded;
}

export type TomlTable = Record<string, unknown>;

export type TomlRead = { readonly ok: true; readonly value: TomlTable } | { readonly ok: false; readonly message: string };

/** Parses a TOML document; never throws. `message` names the line and column of the first error. */
export function readTomlDocument(text: string): TomlRead {
  try {
    return { ok: true, value: smolToml().parse(text) };
  } catch (error) {
    if (error instanceof smolToml().TomlError) return { ok: false, message: `${error.message.split("\n")[0] ?? "invalid TOML"} (line ${error.line}, column ${error.column})` };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A table (smol-toml makes them with a null prototype), not an array or a date-time. */
export function isTomlTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * Whether two parsed TOML values mean the same: tables with the same keys (in any order) and equal
 * values, arrays item by item, date-times as written, everything else by Object.is.
 */
export function sameTomlValue(left: unknown, right: unknown): boolean {
  if (left instanceof Date || right instanceof Date) {
    return left instanceof Date && right instanceof Date && left.constructor === right.constructor && left.toISOString() === right.toISOString();
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && left.length === right.length && left.every((item, index) => sameTomlValue(item, right[index]));
  }
  if (isTomlTable(left) || isTomlTable(right)) {
    if (!isTomlTable(left) || !isTomlTable(right)) return false;
    const keys = Object.keys(left);
    return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameTomlValue(left[key], right[key]));
  }
  return Object.is(left, right);
}
