// The Judgment engine's only file-system adapter: Node's fs behind JudgmentFileSystem, and the
// contained reader of prepared references (each provider gets its own reader bound to its own
// policy root, so a relative path is never resolved under another provider's root).
import { readFile, realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { isContained, decodeUtf8Strict, type JudgmentFileSystem } from "./containment";
import { ContextSealError } from "./errors";
import type { PreparedReferenceDescriptor } from "./inventory";

export const nodeJudgmentFileSystem: JudgmentFileSystem = {
  realpath: (path) => realpath(path),
  async stat(path) {
    const metadata = await stat(path);
    return { isFile: metadata.isFile(), size: metadata.size };
  },
  readFile: (path, signal) => readFile(path, signal ? { signal } : undefined),
};

export interface LocalReferenceReadOptions {
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

export interface LocalReferenceReader {
  read(source: PreparedReferenceDescriptor, options: LocalReferenceReadOptions): Promise<string>;
}

export function createLocalReferenceReader(policyRoot: string, fileSystem: JudgmentFileSystem = nodeJudgmentFileSystem): LocalReferenceReader {
  const lexicalRoot = resolve(policyRoot);
  let realRoot: Promise<string> | undefined;
  return {
    async read(source, options) {
      const path = source.path;
      const lexicalTarget = resolve(lexicalRoot, path);
      if (!isContained(lexicalRoot, lexicalTarget)) throw new ContextSealError(`Prepared reference escapes its policy root: ${path}.`, { path });
      try {
        realRoot ??= fileSystem.realpath(lexicalRoot);
        const [root, target] = await Promise.all([realRoot, fileSystem.realpath(lexicalTarget)]);
        if (!isContained(root, target)) throw new ContextSealError(`Prepared reference symlink escapes its policy root: ${path}.`, { path });
        const metadata = await fileSystem.stat(target);
        if (!metadata.isFile) throw new ContextSealError(`Local reference is not a regular file: ${path}.`, { path });
        if (metadata.size > options.maxBytes)
          throw new ContextSealError(`Local reference exceeds its byte limit: ${path}.`, { path, bytes: metadata.size, limit: options.maxBytes });
        const bytes = await fileSystem.readFile(target, options.signal);
        if (bytes.byteLength > options.maxBytes)
          throw new ContextSealError(`Local reference grew beyond its byte limit: ${path}.`, { path, bytes: bytes.byteLength, limit: options.maxBytes });
        try {
          return decodeUtf8Strict(bytes);
        } catch (error) {
          throw new ContextSealError(`Local reference is not valid UTF-8: ${path}.`, { path }, { cause: error });
        }
      } catch (error) {
        if (error instanceof ContextSealError) throw error;
        throw new ContextSealError(`Unable to read local reference: ${path}.`, { path }, { cause: error });
      }
    },
  };
}

/** The reader over the real file system. */
export function createNodeLocalReferenceReader(policyRoot: string): LocalReferenceReader {
  return createLocalReferenceReader(policyRoot, nodeJudgmentFileSystem);
}
