// Sealing a review's original sources: each becomes a `source:<n>` the model must cite, bound to
// the SHA-256 of what it was when the review opened. A workspace file is sealed by its exact bytes
// (a regular file inside the workspace, reached without any symbolic link), a captured tool result
// by the digest of its captured record, a user input by its text's digest — the text itself is
// never stored. Re-hashing a sealed file later tells whether the review still describes it.
import { createHash } from "node:crypto";
import path from "node:path";
import { DocketError } from "../errors";
import { hashValue } from "../ledger/canonicalJson";
import { ErrorCodes } from "../protocol/messages";
import type { EvidenceLookup } from "../developer/operations/evidence";
import type { SealedSource } from "./guardEntry";
import { MAX_USER_INPUT_BYTES, type SourceInput } from "./guardSchema";
import { MAX_SOURCE_FILE_BYTES, digestWorkspaceFile, fileDrift } from "./sourceDigest";

function sha256Of(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function refuse(message: string): never {
  throw new DocketError(ErrorCodes.reviewSourceInvalid, message);
}

/** A source path as the ledger records it: workspace-relative, POSIX separators, no `..`. */
export function workspaceRelative(workspaceFolder: string, given: string): string {
  if (given.includes("\0")) refuse("A source path must not contain NUL.");
  const absolute = path.resolve(workspaceFolder, given);
  const relative = path.relative(path.resolve(workspaceFolder), absolute);
  if (relative === "" || path.isAbsolute(relative) || relative === ".." || relative.startsWith(`..${path.sep}`)) {
    refuse(`${given} is not a file inside the workspace ${workspaceFolder}; Docket seals only workspace files.`);
  }
  return relative.split(path.sep).join("/");
}

/** The digest a captured tool result is sealed by; null when the handle is unknown. */
export function digestEvidence(evidence: EvidenceLookup, handle: string): string | null {
  const record = evidence.toolResult(handle);
  if (record === undefined) return null;
  return hashValue({
    domain: "docket/guard-evidence/v1",
    value: { branchResultId: record.branchResultId, toolCallId: record.toolCallId, toolName: record.toolName, argumentsSha256: record.argumentsSha256, parts: record.parts, isError: record.isError, truncated: record.truncated },
  });
}

export function sealSources(workspaceFolder: string, evidence: EvidenceLookup, sources: readonly SourceInput[]): SealedSource[] {
  return sources.map((source, index): SealedSource => {
    const sourceId = `source:${index + 1}`;
    if (source.kind === "file") {
      const relative = workspaceRelative(workspaceFolder, source.path);
      const digest = digestWorkspaceFile(workspaceFolder, relative);
      if (digest.kind === "unreadable") refuse(`${sourceId}: ${digest.why}; Docket seals only regular files inside the workspace, reached without symbolic links, of at most ${MAX_SOURCE_FILE_BYTES} bytes.`);
      return { sourceId, kind: "file", path: relative, sha256: digest.sha256, bytes: digest.bytes };
    }
    if (source.kind === "evidence") {
      const sha256 = digestEvidence(evidence, source.handle);
      if (sha256 === null) {
        throw new DocketError(ErrorCodes.unknownEvidenceHandle, `${sourceId}: no captured tool result has the handle ${JSON.stringify(source.handle)} in this workspace (status lists recent ones).`);
      }
      return { sourceId, kind: "evidence", handle: source.handle, sha256 };
    }
    const bytes = Buffer.byteLength(source.text, "utf8");
    if (bytes > MAX_USER_INPUT_BYTES) refuse(`${sourceId}: the user input has ${bytes} bytes, more than the ${MAX_USER_INPUT_BYTES} Docket seals.`);
    return { sourceId, kind: "user-input", sha256: sha256Of(source.text), bytes };
  });
}

/** Why a sealed source no longer matches what it was sealed as; null while it does. */
export function sourceDrift(workspaceFolder: string, evidence: EvidenceLookup | null, source: SealedSource): string | null {
  if (source.kind === "file") return fileDrift(workspaceFolder, source);
  if (source.kind === "evidence" && evidence !== null) {
    const sha256 = digestEvidence(evidence, source.handle);
    if (sha256 === null) return `${source.sourceId} (${source.handle}) is no longer in the evidence store`;
    return sha256 === source.sha256 ? null : `${source.sourceId} (${source.handle}) changed since it was sealed`;
  }
  return null;
}
