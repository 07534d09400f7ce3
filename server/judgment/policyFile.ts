// Loading judgment.json from disk (contained, regular file, byte-limited, strict UTF-8) and
// checking every prepared reference exists inside both roots. File access goes through the
// injected JudgmentFileSystem (the Node adapter by default).
//
// Deliberate difference from the reference: a present policy whose reference file is missing is
// reported as "invalid" (the reference reports "absent" because it detects ENOENT on a wrapped
// cause); only a missing policy file itself is "absent".
import { dirname, resolve } from "node:path";
import { parseJudgmentAuthoringPolicyJson } from "./authoring";
import { compileJudgmentPolicy, type CompiledJudgmentPolicy } from "./compiledPolicy";
import { decodeUtf8Strict, isContained, isMissingFileError, type JudgmentFileSystem } from "./containment";
import { JudgmentParseError } from "./errors";
import { sha256 } from "./json";
import { nodeJudgmentFileSystem } from "./localReferenceReader";
import type { PolicyOwner } from "./owner";

export const MAX_JUDGMENT_POLICY_BYTES = 128_000;

export interface LoadedJudgmentPolicy {
  readonly path: string;
  readonly root: string;
  readonly sourceSha256: string;
  readonly policy: CompiledJudgmentPolicy;
}

export type OptionalJudgmentPolicyLoad =
  | { readonly kind: "absent" }
  | { readonly kind: "loaded"; readonly value: LoadedJudgmentPolicy }
  | { readonly kind: "invalid"; readonly diagnostic: string };

export interface ReadJudgmentPolicyInput {
  readonly path: string;
  readonly owner: PolicyOwner;
  readonly allowedRoot?: string;
  readonly maxBytes?: number;
  readonly fileSystem?: JudgmentFileSystem;
}

/** Marks the one failure the optional loader reports as absence. */
class PolicyFileMissing extends JudgmentParseError {}

async function readPolicySource(fs: JudgmentFileSystem, path: string, maxBytes: number): Promise<{ readonly source: string; readonly realPath: string }> {
  let realPath: string;
  try {
    realPath = await fs.realpath(path);
  } catch (error) {
    if (isMissingFileError(error)) throw new PolicyFileMissing(`Judgment policy does not exist: ${path}.`, { path }, { cause: error });
    throw error;
  }
  const metadata = await fs.stat(realPath);
  if (!metadata.isFile) throw new JudgmentParseError(`Judgment policy is not a regular file: ${path}.`);
  if (metadata.size > maxBytes) throw new JudgmentParseError(`Judgment policy exceeds its byte limit: ${path}.`);
  const bytes = await fs.readFile(realPath);
  if (bytes.byteLength > maxBytes) throw new JudgmentParseError(`Judgment policy grew beyond its byte limit: ${path}.`);
  try {
    return { source: decodeUtf8Strict(bytes), realPath };
  } catch (error) {
    throw new JudgmentParseError(`Judgment policy is not valid UTF-8: ${path}.`, {}, { cause: error });
  }
}

export async function readJudgmentPolicyFile(input: ReadJudgmentPolicyInput): Promise<LoadedJudgmentPolicy> {
  const fs = input.fileSystem ?? nodeJudgmentFileSystem;
  const lexicalPath = resolve(input.path);
  const lexicalRoot = dirname(lexicalPath);
  const lexicalAllowedRoot = resolve(input.allowedRoot ?? lexicalRoot);
  if (!isContained(lexicalAllowedRoot, lexicalPath)) throw new JudgmentParseError("Judgment policy is outside its allowed root.");
  try {
    const { source, realPath } = await readPolicySource(fs, lexicalPath, input.maxBytes ?? MAX_JUDGMENT_POLICY_BYTES);
    const [realRoot, realAllowedRoot] = await Promise.all([fs.realpath(lexicalRoot), fs.realpath(lexicalAllowedRoot)]);
    if (!isContained(realAllowedRoot, realPath)) throw new JudgmentParseError("Judgment policy physically escapes its allowed root.");
    const authoring = parseJudgmentAuthoringPolicyJson(source);
    for (const reference of authoring.references) {
      const lexicalReference = resolve(lexicalRoot, reference.path);
      if (!isContained(lexicalRoot, lexicalReference)) throw new JudgmentParseError(`Prepared reference escapes its policy root: ${reference.path}.`);
      let realReference: string;
      try {
        realReference = await fs.realpath(lexicalReference);
      } catch (error) {
        if (isMissingFileError(error)) throw new JudgmentParseError(`Prepared reference does not exist: ${reference.path}.`, { path: reference.path }, { cause: error });
        throw error;
      }
      if (!isContained(realRoot, realReference) || !isContained(realAllowedRoot, realReference))
        throw new JudgmentParseError(`Prepared reference symlink escapes its policy root: ${reference.path}.`);
      const metadata = await fs.stat(realReference);
      if (!metadata.isFile) throw new JudgmentParseError(`Prepared reference is not a regular file: ${reference.path}.`);
    }
    return Object.freeze({
      path: lexicalPath,
      root: lexicalRoot,
      sourceSha256: sha256(source),
      policy: compileJudgmentPolicy({ owner: input.owner, policy: authoring }),
    });
  } catch (error) {
    if (error instanceof JudgmentParseError) throw error;
    throw new JudgmentParseError(`Unable to read Judgment policy: ${input.path}.`, {}, { cause: error });
  }
}

/** Absent file = normal; present but malformed (or with a broken reference) = invalid. */
export async function loadOptionalJudgmentPolicyFile(input: ReadJudgmentPolicyInput): Promise<OptionalJudgmentPolicyLoad> {
  try {
    return Object.freeze({ kind: "loaded", value: await readJudgmentPolicyFile(input) });
  } catch (error) {
    if (error instanceof PolicyFileMissing) return Object.freeze({ kind: "absent" });
    return Object.freeze({ kind: "invalid", diagnostic: error instanceof Error ? error.message : String(error) });
  }
}
