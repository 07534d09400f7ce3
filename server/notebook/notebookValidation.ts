// `docket notebook validate` with its persistent Phase A cache (validationCache.ts): every record
// file is read and hashed every time; a file whose bytes have an entry takes its Phase A answer
// from there, any other is parsed; Phase B then runs over all of them as always. The verdict is
// the one validateRecordSet gives for the same files (recordSetVerdict), diagnostics byte for byte.
import { notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import type { GraphRecord } from "./graphValidation";
import type { NotebookResult } from "./manifest";
import { parseRecordMarkdownUnremembered } from "./markdownProfile";
import { readNotebookFiles, type NotebookFiles } from "./notebookStore";
import { recordSetVerdict, type RecordSetVerdict } from "./recordSet";
import {
  loadValidationCache,
  recordSetDigest,
  recordsFolderIdentity,
  saveValidationCache,
  type CachedOutcome,
  type ValidationCacheBinding,
  type ValidationCacheLocation,
} from "./validationCache";

export interface CacheUse {
  /** Distinct record contents whose Phase A answer came from the cache. */
  readonly hits: number;
  /** Distinct record contents parsed (not in the cache, or no usable cache). */
  readonly parsed: number;
  /** The record set was the one the cached verdict is for: neither phase ran. */
  readonly unchanged: boolean;
  readonly written: boolean;
}

export interface CachedValidation {
  readonly notebook: NotebookFiles;
  readonly validation: RecordSetVerdict;
  /** null when no cache location was given. */
  readonly cache: CacheUse | null;
}

function outcomeOf(path: string, bytes: Uint8Array, sha256: string): CachedOutcome {
  const result = parseRecordMarkdownUnremembered(path, bytes, sha256);
  if (!result.ok) return { passed: false, diagnostics: result.diagnostics.map(({ path: _path, ...rest }) => rest) };
  const { recordId, type, status, record } = result.record;
  return { passed: true, facts: { recordId, type, status, record: { sources: record.sources, lineage: record.lineage, relations: record.relations } } };
}

/**
 * Reads the Notebook (readNotebookFiles: layout, manifest, every record's bytes and hash) and
 * validates its records, using and refreshing the cache at `cache` when one is given. When the
 * record set is the one the cache's verdict is for (same paths, same bytes), that verdict is the
 * answer; otherwise Phase A answers come from the entries where the bytes match, and Phase B runs.
 * Writes nothing but that cache file, and that only when the record set changed.
 */
export function validateNotebookCached(root: string, cache: ValidationCacheLocation | null): NotebookResult<CachedValidation> {
  const read = readNotebookFiles(root);
  if (!read.ok) return read;
  const notebook = read.value;
  const identity = cache === null ? null : recordsFolderIdentity(notebook.recordsDir);
  const binding: ValidationCacheBinding | null = identity === null ? null : { root: notebook.root, recordsFolder: identity };
  const loaded = cache !== null && binding !== null ? loadValidationCache(cache, binding) : null;
  const set = binding === null ? "" : recordSetDigest(notebook.files);
  if (loaded !== null && loaded.set === set) {
    return { ok: true, value: { notebook, validation: loaded.verdict, cache: { hits: notebook.files.length, parsed: 0, unchanged: true, written: false } } };
  }
  const known = loaded?.entries() ?? null;

  const current = new Map<string, CachedOutcome>();
  const passed: GraphRecord[] = [];
  const fileDiagnostics: NotebookDiagnostic[] = [];
  let hits = 0;
  let parsed = 0;
  for (const file of notebook.files) {
    let outcome = current.get(file.sha256);
    if (outcome === undefined) {
      outcome = known?.get(file.sha256);
      if (outcome !== undefined) hits += 1;
      else {
        outcome = outcomeOf(file.path, file.bytes, file.sha256);
        parsed += 1;
      }
      current.set(file.sha256, outcome);
    }
    if (outcome.passed) passed.push({ ...outcome.facts, path: file.path, sha256: file.sha256 });
    else for (const diagnostic of outcome.diagnostics) fileDiagnostics.push(notebookDiagnostic({ ...diagnostic, path: file.path }));
  }
  const validation = recordSetVerdict(notebook.files.length, passed, fileDiagnostics);
  if (cache === null) return { ok: true, value: { notebook, validation, cache: null } };
  const written = binding !== null && saveValidationCache(cache, binding, set, validation, current);
  return { ok: true, value: { notebook, validation, cache: { hits, parsed, unchanged: false, written } } };
}
