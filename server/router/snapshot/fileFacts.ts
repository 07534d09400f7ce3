// What the snapshot needs from a file's bytes, by role. Only these small derived facts are kept
// between rebuilds (never the bytes), so the incremental cache stays small on large workspaces.
import { sha256Hex } from "../../ledger/canonicalJson";
import { hasSourceExtension, relativeSpecifiers } from "./importGraph";
import { manifestKind, manifestLanguage, readManifest, type ManifestFacts, type ManifestKind } from "./manifests";
import type { ResolvedLimits } from "./options";
import { isRuleFile } from "./ruleFiles";
import { decodeUtf8 } from "./utf8";

export type FileRole = { readonly role: "manifest"; readonly kind: ManifestKind } | { readonly role: "rule" } | { readonly role: "source" };

export type FileFacts =
  | { readonly role: "manifest"; readonly facts: ManifestFacts }
  | { readonly role: "rule"; readonly sha256: string }
  | { readonly role: "source"; readonly specifiers: readonly string[]; readonly truncated: boolean }
  /** The file could not be used at all (unreadable, too large to hash). */
  | { readonly role: "unusable"; readonly why: string };

function inNodeModules(path: string): boolean {
  return path.startsWith("node_modules/") || path.includes("/node_modules/");
}

/** Why the snapshot would read this file, or null when its name is all it needs. */
export function roleOf(path: string): FileRole | null {
  // Asked once for both roles that node_modules rules out (isSourceFile asks it again otherwise):
  // a cold build decides the role of every listed file.
  const nodeModules = inNodeModules(path);
  const kind = nodeModules ? null : manifestKind(path);
  if (kind !== null) return { role: "manifest", kind };
  if (isRuleFile(path)) return { role: "rule" };
  if (!nodeModules && hasSourceExtension(path)) return { role: "source" };
  return null;
}

/**
 * Bytes worth reading for a role: one more than the cap, so "over the cap" is visible without
 * reading the rest. A reader returning the whole file gives the same facts.
 */
export function readBudget(role: FileRole, limits: ResolvedLimits): number {
  switch (role.role) {
    case "manifest":
      return limits.maxManifestBytes + 1;
    case "rule":
      return limits.maxRuleFileBytes + 1;
    case "source":
      return limits.maxImportBytesPerFile + 1;
  }
}

const lenient = new TextDecoder("utf-8");

export function deriveFacts(path: string, role: FileRole, bytes: Uint8Array | null, limits: ResolvedLimits): FileFacts {
  if (bytes === null) return { role: "unusable", why: "could not be read" };
  switch (role.role) {
    case "manifest": {
      const language = manifestLanguage(role.kind);
      const fallback = (problem: string): FileFacts => ({ role: "manifest", facts: { modules: [], technologies: language === null ? [] : [language], problem } });
      if (bytes.length > limits.maxManifestBytes) return fallback(`manifest larger than ${limits.maxManifestBytes} bytes; not parsed`);
      const text = decodeUtf8(bytes);
      if (text === null) return fallback("manifest is not valid UTF-8; not parsed");
      return { role: "manifest", facts: readManifest(path, role.kind, text) };
    }
    case "rule":
      if (bytes.length > limits.maxRuleFileBytes) return { role: "unusable", why: `rule file larger than ${limits.maxRuleFileBytes} bytes; not hashed` };
      return { role: "rule", sha256: sha256Hex(bytes) };
    case "source": {
      const truncated = bytes.length > limits.maxImportBytesPerFile;
      // Lenient: a cut at the cap can split a character, and specifiers are ASCII in practice.
      const text = lenient.decode(truncated ? bytes.subarray(0, limits.maxImportBytesPerFile) : bytes);
      return { role: "source", specifiers: relativeSpecifiers(text), truncated };
    }
  }
}
