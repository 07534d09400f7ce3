// A deliberately small TOML reader for the few manifest fields the snapshot needs (section
// headers, `key = "string"`, string arrays possibly spanning lines, and the keys of dependency
// tables). It never throws: what it cannot read it leaves out.

export type TomlValue = string | readonly string[] | null;

/** section name ("" for the top) → key → value (null for values it does not read, e.g. inline tables). */
export type TomlSections = ReadonlyMap<string, ReadonlyMap<string, TomlValue>>;

function stripComment(line: string): string {
  let quote: string | null = null;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (quote !== null) {
      if (character === "\\" && quote === '"') index += 1;
      else if (character === quote) quote = null;
    } else if (character === '"' || character === "'") quote = character;
    else if (character === "#") return line.slice(0, index);
  }
  return line;
}

function strings(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/gu)) found.push(match[1] ?? match[2] ?? "");
  return found;
}

/** Splits a dotted key on dots outside quotes (`a."b.c"` is two parts). */
function dottedParts(key: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const character of key) {
    if (quote !== null) {
      if (character === quote) quote = null;
      current += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      current += character;
    } else if (character === ".") {
      parts.push(current);
      current = "";
    } else current += character;
  }
  parts.push(current);
  return parts.map(unquoteKey);
}

function unquoteKey(key: string): string {
  const trimmed = key.trim();
  return /^(["']).*\1$/u.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}

export function readToml(text: string): TomlSections {
  const sections = new Map<string, Map<string, TomlValue>>([["", new Map()]]);
  let current = sections.get("") as Map<string, TomlValue>;
  const lines = text.split(/\r?\n/u);
  for (let index = 0; index < lines.length; index += 1) {
    const line = stripComment(lines[index] ?? "").trim();
    if (line === "") continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/u.exec(line);
    if (header !== null) {
      const name = dottedParts(header[1] ?? "").join(".");
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    const equals = line.indexOf("=");
    if (equals <= 0) continue;
    const key = unquoteKey(line.slice(0, equals));
    let value = line.slice(equals + 1).trim();
    if (value.startsWith("[")) {
      // Arrays may span lines; gather until the brackets balance (strings may not contain brackets
      // for this to be exact, which holds for dependency specifiers in practice).
      let depth = (value.match(/\[/gu) ?? []).length - (value.match(/\]/gu) ?? []).length;
      while (depth > 0 && index + 1 < lines.length) {
        index += 1;
        const next = stripComment(lines[index] ?? "");
        value += `\n${next}`;
        depth += (next.match(/\[/gu) ?? []).length - (next.match(/\]/gu) ?? []).length;
      }
      current.set(key, strings(value));
    } else if (value.startsWith('"') || value.startsWith("'")) {
      current.set(key, strings(value)[0] ?? null);
    } else {
      current.set(key, null);
    }
  }
  return sections;
}

export function tomlString(sections: TomlSections, section: string, key: string): string | null {
  const value = sections.get(section)?.get(key);
  return typeof value === "string" ? value : null;
}
