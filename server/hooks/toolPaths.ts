// The file system locations a tool call names, read from its input without knowing the tool: a
// gate that only looked at the session's cwd would let `Write /parent/src/a.ts` from inside a
// nested repository through. Hosts name paths differently (`file_path`, `notebook_path`,
// `filePath`, `files`, `workdir`…) and `apply_patch` carries them inside the patch text, so the
// scan walks the whole input, keeps every string under a path-like key and every file header of
// an embedded patch. It is bounded: past the limits it reports overflow, and the caller fails closed.

/** Keys whose string values name a location, compared lower-case without `_` or `-`. */
const PATH_KEYS = new Set([
  "path",
  "paths",
  "filepath",
  "filepaths",
  "file",
  "files",
  "notebookpath",
  "targetfile",
  "cwd",
  "workdir",
  "workingdirectory",
  "dir",
  "dirpath",
  "directory",
  "root",
  "rootpath",
  "uri",
  "uris",
  "oldpath",
  "newpath",
  "destination",
  "source",
]);

/** `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`, `*** Move to: p` (Codex and VS Code apply_patch). */
const PATCH_HEADER = /^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+?)\s*$/gmu;

export const MAX_TOOL_PATHS = 4_096;
const MAX_NODES = 200_000;
/** Longer strings cannot be opened as paths (PATH_MAX), so they name no location. */
const MAX_PATH_LENGTH = 4_096;

export interface ToolPathScan {
  /** Location strings as written (absolute, relative, or `file:` URIs), in input order. */
  readonly paths: readonly string[];
  /** More paths or nodes than the scan follows: the caller must not rely on `paths` being complete. */
  readonly overflow: boolean;
}

function normalizedKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/gu, "");
}

export function scanToolPaths(toolInput: unknown): ToolPathScan {
  const paths: string[] = [];
  let nodes = 0;
  let overflow = false;
  const add = (value: string): void => {
    if (value.trim() === "" || value.length > MAX_PATH_LENGTH) return;
    if (paths.length >= MAX_TOOL_PATHS) {
      overflow = true;
      return;
    }
    paths.push(value);
  };
  const patchPaths = (text: string): void => {
    if (!text.includes("*** ")) return;
    for (const match of text.matchAll(PATCH_HEADER)) add(match[1] ?? "");
  };
  // Iterative, so a deeply nested input cannot overflow the stack.
  const stack: { value: unknown; pathKey: boolean }[] = [{ value: toolInput, pathKey: false }];
  while (stack.length > 0 && !overflow) {
    const { value, pathKey } = stack.pop() as { value: unknown; pathKey: boolean };
    nodes += 1;
    if (nodes > MAX_NODES) {
      overflow = true;
      break;
    }
    if (typeof value === "string") {
      if (pathKey) add(value);
      patchPaths(value);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) stack.push({ value: value[index], pathKey });
    } else if (typeof value === "object" && value !== null) {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, entry] = entries[index] as [string, unknown];
        stack.push({ value: entry, pathKey: PATH_KEYS.has(normalizedKey(key)) });
      }
    }
  }
  return { paths, overflow };
}
