// `docket notebook validate` with its persistent Phase A cache (validationCache.ts): every record
// file is read and hashed every time; a file whose bytes have an entry takes its Phase A answer
// from there, any other is parsed; Phase B then runs over all of them as always. The verdict is
// the one validateRecordSet gives for the same files (recordSetVerdict), diagnostics byte for byte.
import { notebookDiagnostic, type NotebookDiagnostic } from "./diagnostics";
import type { GraphRecord } from "./graphValidation";
import type { NotebookResult } from "./manifest";
import { parseRecordMarkdownUnremembered } from "./markdownProfile";
import { readNotebookHashed, rereadRecordFile, sha256Hex, type HashedRecordFile, type NotebookListing } from "./notebookStore";
import { plainRecordFacts } from "./recordFacts";
import { recordSetVerdict, type RecordSetVerdict } from "./recordSet";
import {
  loadValidationCache,
  recordSetDigest,
  recordsFolderIdentity,
  saveValidationCache,
  type CachedOutcome,
  type LoadedValidationCache,
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
  readonly notebook: NotebookListing;
  readonly validation: RecordSetVerdict;
  /** null when no cache location was given. */
  readonly cache: CacheUse | null;
}

function outcomeOf(path: string, bytes: Uint8Array, sha256: string): CachedOutcome {
  // A record written the plain way gives its facts directly (recordFacts.ts); any other goes through the general path.
  const facts = plainRecordFacts(bytes);
  if (facts !== undefined) return { passed: true, facts };
  const result = parseRecordMarkdownUnremembered(path, bytes, sha256);
  if (!result.ok) return { passed: false, diagnostics: result.diagnostics.map(({ path: _path, ...rest }) => rest) };
  const { recordId, type, status, record } = result.record;
  return { passed: true, facts: { recordId, type, status, record: { sources: record.sources, lineage: record.lineage, relations: record.relations } } };
}

/**
 * Reads the Notebook (layout, manifest, every record's hash: readNotebookHashed) and validates its
 * records, using and refreshing the cache at `cache` when one is given. When the record set is the
 * one the cache's verdict is for (same paths, same bytes), that verdict is the answer; otherwise
 * Phase A answers come from the entries where the bytes match, and Phase B runs. Writes nothing
 * but that cache file, and that only when the record set changed.
 *
 * Without a usable cache every record is parsed while its bytes are in the reader's buffer. With
 * one, the reader keeps only hashes (the unchanged case needs nothing else), and a record whose
 * hash the cache lacks is read again; if it changed in between, its second read is what is
 * validated and hashed into the record set, so the verdict and the cache written are for one set
 * of bytes, each file's as it was at one moment of the run (as with a single read of each).
 */
export function validateNotebookCached(root: string, cache: ValidationCacheLocation | null): NotebookResult<CachedValidation> {
  let binding: ValidationCacheBinding | null = null;
  let loaded: LoadedValidationCache | null = null;
  const current = new Map<string, CachedOutcome>();
  let parsed = 0;
  const read = readNotebookHashed(root, (location) => {
    const identity = cache === null ? null : recordsFolderIdentity(location.recordsDir);
    binding = identity === null ? null : { root: location.root, recordsFolder: identity };
    loaded = cache !== null && binding !== null ? loadValidationCache(cache, binding) : null;
    if (loaded !== null) return null;
    return (file, bytes) => {
      if (current.has(file.sha256)) return;
      current.set(file.sha256, outcomeOf(file.path, bytes, file.sha256));
      parsed += 1;
    };
  });
  if (!read.ok) return read;
  const notebook = read.value;
  // Assigned in the reader's callback; TypeScript cannot see that it ran.
  const usable = loaded as LoadedValidationCache | null;
  const bound = binding as ValidationCacheBinding | null;
  if (usable !== null && usable.set === recordSetDigest(notebook.files)) {
    return { ok: true, value: { notebook, validation: usable.verdict, cache: { hits: notebook.files.length, parsed: 0, unchanged: true, written: false } } };
  }
  const known = usable?.entries() ?? null;

  const files: HashedRecordFile[] = [];
  const passed: GraphRecord[] = [];
  const fileDiagnostics: NotebookDiagnostic[] = [];
  let hits = 0;
  for (const listed of notebook.files) {
    let file = listed;
    let outcome = current.get(file.sha256);
    if (outcome === undefined) {
      outcome = known?.get(file.sha256);
      if (outcome !== undefined) hits += 1;
      else {
        // Only hashes were kept (a cache was there): this record's bytes are read again.
        const again = rereadRecordFile(file);
        if (!again.ok) return again;
        const sha256 = sha256Hex(again.value);
        if (sha256 !== file.sha256) {
          file = { ...file, sha256 };
          outcome = current.get(sha256) ?? known?.get(sha256);
          if (outcome !== undefined && !current.has(sha256)) hits += 1;
        }
        if (outcome === undefined) {
          outcome = outcomeOf(file.path, again.value, sha256);
          parsed += 1;
        }
      }
      current.set(file.sha256, outcome);
    }
    files.push(file);
    if (outcome.passed) {
      const { recordId, type, status, record } = outcome.facts;
      passed.push({ path: file.path, recordId, type, status, sha256: file.sha256, record });
    }
    else for (const diagnostic of outcome.diagnostics) fileDiagnostics.push(notebookDiagnostic({ ...diagnostic, path: file.path }));
  }
  const validation = recordSetVerdict(files.length, passed, fileDiagnostics);
  const result = { ...notebook, files };
  if (cache === null) return { ok: true, value: { notebook: result, validation, cache: null } };
  const written = bound !== null && saveValidationCache(cache, bound, recordSetDigest(files), validation, current);
  return { ok: true, value: { notebook: result, validation, cache: { hits, parsed, unchanged: false, written } } };
}
