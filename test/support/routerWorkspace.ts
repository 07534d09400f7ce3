// A generated, realistic-looking workspace for the Router's snapshot tests and bench: an npm
// workspaces monorepo of TypeScript packages with relative imports, a Go service, a README and an
// AGENTS.md. Deterministic (the same count gives the same tree). It can be written to disk
// (`generateWorkspace`) or served from memory through the snapshot's injectable file system
// (`memoryWorkspaceFs`), which is how the 200k-file case runs without waiting on a disk.
import fs from "node:fs";
import path from "node:path";
import type { EntryKind, FileStat, SnapshotFs, WalkEntry } from "../../server/router/snapshot/fsAdapter";

const FILES_PER_FOLDER = 50;
const FOLDERS_PER_PACKAGE = 4;
const HOT_NAMES = ["cache", "parser", "render", "query"];

export interface GeneratedWorkspace {
  /** Every file written, relative POSIX paths, in writing order. */
  readonly files: readonly string[];
}

/** The generated tree as [relative POSIX path, content] pairs: exactly `fileCount` (at least 6). */
export function workspaceEntries(fileCount: number): Array<readonly [string, string]> {
  const entries: Array<readonly [string, string]> = [
    ["package.json", `${JSON.stringify({ name: "generated-monorepo", private: true, workspaces: ["packages/*"], devDependencies: { typescript: "^5.0.0" } }, null, 2)}\n`],
    ["README.md", "# Generated workspace\n\nA monorepo generated for Router tests and benchmarks.\n"],
    ["AGENTS.md", "# Agent rules\n\n- Run the tests before you finish.\n"],
    [".gitignore", "node_modules/\ndist/\n*.log\n"],
    ["services/api/go.mod", "module example.com/generated/api\n\ngo 1.22\n\nrequire github.com/gin-gonic/gin v1.10.0\n"],
    ["services/api/main.go", "package main\n\nfunc main() {}\n"],
  ];
  let remaining = Math.max(0, fileCount - entries.length);
  for (let pkg = 0; remaining > 0; pkg += 1) {
    const name = `pkg-${String(pkg).padStart(4, "0")}`;
    entries.push([`packages/${name}/package.json`, `{"name":"@generated/${name}","version":"1.0.0","dependencies":{"react":"^18.0.0"}}\n`]);
    remaining -= 1;
    for (let folder = 0; folder < FOLDERS_PER_PACKAGE && remaining > 0; folder += 1) {
      // Some folders have names the snapshot treats as hot-path hints (cache, parser, …).
      const folderName = folder === 0 ? "src" : `src/${HOT_NAMES[(pkg + folder) % HOT_NAMES.length] as string}-${folder}`;
      for (let index = 0; index < FILES_PER_FOLDER && remaining > 0; index += 1) {
        // Each module imports its predecessor: a chain of relative imports per folder.
        const body =
          index === 0
            ? `export const value${index} = ${index};\n`
            : `import { value${index - 1} } from "./module${index - 1}";\nexport const value${index} = value${index - 1} + 1;\n`;
        entries.push([`packages/${name}/${folderName}/module${index}.ts`, body]);
        remaining -= 1;
      }
    }
  }
  return entries.slice(0, Math.max(fileCount, 6));
}

/** Writes the generated tree under `dir` (which must exist). */
export function generateWorkspace(dir: string, fileCount: number): GeneratedWorkspace {
  const made = new Set<string>();
  const files: string[] = [];
  for (const [relative, content] of workspaceEntries(fileCount)) {
    const folder = path.dirname(relative);
    if (!made.has(folder)) {
      fs.mkdirSync(path.join(dir, folder), { recursive: true });
      made.add(folder);
    }
    fs.writeFileSync(path.join(dir, relative), content);
    files.push(relative);
  }
  return { files };
}

interface MemoryFolder {
  readonly folders: Map<string, MemoryFolder>;
  readonly files: Map<string, Buffer>;
}

/**
 * The generated tree served from memory under `root` (an absolute path that need not exist), as
 * the snapshot's file system. `order` may permute each directory listing (e.g. shuffle it).
 */
export function memoryWorkspaceFs(
  root: string,
  entries: ReadonlyArray<readonly [string, string | Buffer]>,
  order: (entries: WalkEntry[]) => WalkEntry[] = (listing) => listing,
): SnapshotFs {
  const top: MemoryFolder = { folders: new Map(), files: new Map() };
  for (const [relative, content] of entries) {
    const parts = relative.split("/");
    let folder = top;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (next === undefined) {
        next = { folders: new Map(), files: new Map() };
        folder.folders.set(part, next);
      }
      folder = next;
    }
    folder.files.set(parts[parts.length - 1] as string, Buffer.isBuffer(content) ? content : Buffer.from(content));
  }
  const missing = (): Error => Object.assign(new Error("ENOENT: not in the generated tree"), { code: "ENOENT" });
  const locate = (absolute: string): { folder: MemoryFolder } | { file: Buffer } | null => {
    const relative = path.relative(root, absolute);
    if (relative === "") return { folder: top };
    if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
    const parts = relative.split(path.sep);
    let folder = top;
    for (const [index, part] of parts.entries()) {
      const last = index === parts.length - 1;
      const next = folder.folders.get(part);
      if (next !== undefined) {
        if (last) return { folder: next };
        folder = next;
        continue;
      }
      const file = last ? folder.files.get(part) : undefined;
      return file === undefined ? null : { file };
    }
    return null;
  };
  return {
    async readdir(absolute) {
      const found = locate(absolute);
      if (found === null || !("folder" in found)) throw missing();
      const listing: WalkEntry[] = [];
      for (const name of found.folder.folders.keys()) listing.push({ name: Buffer.from(name), kind: "directory" });
      for (const name of found.folder.files.keys()) listing.push({ name: Buffer.from(name), kind: "file" });
      return order(listing);
    },
    async lstat(absolute): Promise<FileStat> {
      const found = locate(absolute);
      if (found === null) throw missing();
      const kind: EntryKind = "folder" in found ? "directory" : "file";
      return { size: "file" in found ? found.file.length : 0, mtimeMs: 0, kind };
    },
    async realpath(absolute) {
      if (locate(absolute) === null) throw missing();
      return absolute;
    },
    async readPrefix(absolute, maxBytes) {
      const found = locate(absolute);
      if (found === null || !("file" in found)) throw missing();
      return found.file.subarray(0, maxBytes);
    },
  };
}
