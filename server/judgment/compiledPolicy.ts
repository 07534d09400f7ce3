// Owner-bound compiled policy and policySha256; compiled data round-trips only when both
// stored hashes equal the ones recomputed from content.
import { authoringIdentity, parseJudgmentAuthoringPolicy, StatementsSchema, type JudgmentAuthoringPolicy } from "./authoring";
import { JudgmentParseError } from "./errors";
import { hashJson, type JsonValue } from "./json";
import { policyOwnerIdentity, parsePolicyOwner, PolicyOwnerSchema, type PolicyOwner, type PolicyOwnerData } from "./owner";
import { S, Sha256, decodeWith, type Schema } from "./schema";

export interface CompiledPreparedReference {
  readonly path: string;
  readonly when: readonly string[];
  readonly referenceId: string;
}

declare const compiledBrand: unique symbol;

export interface CompiledJudgmentPolicy {
  readonly [compiledBrand]: true;
  readonly specVersion: "0.1";
  readonly owner: PolicyOwner;
  readonly when: readonly string[];
  readonly unless: readonly string[];
  readonly references: readonly CompiledPreparedReference[];
  readonly authoringSha256: string;
  readonly policySha256: string;
}

export interface CompiledJudgmentPolicyData {
  readonly specVersion: "0.1";
  readonly owner: PolicyOwnerData;
  readonly when: readonly string[];
  readonly unless: readonly string[];
  readonly references: readonly { readonly path: string; readonly when: readonly string[] }[];
  readonly authoringSha256: string;
  readonly policySha256: string;
}

export const CompiledJudgmentPolicySchema: Schema = S.object({
  specVersion: S.literal("0.1"),
  owner: PolicyOwnerSchema,
  when: StatementsSchema,
  unless: StatementsSchema,
  references: S.array(S.object({ path: S.text(1, 1_024), when: StatementsSchema }), { minItems: 1, maxItems: 128 }),
  authoringSha256: Sha256,
  policySha256: Sha256,
});

export function compileJudgmentPolicy(input: { readonly owner: PolicyOwner; readonly policy: JudgmentAuthoringPolicy }): CompiledJudgmentPolicy {
  const { owner, policy } = input;
  const identity: JsonValue = {
    ...(authoringIdentity(policy) as { readonly [key: string]: JsonValue }),
    owner: policyOwnerIdentity(owner),
    authoringSha256: policy.authoringSha256,
  };
  const references = Object.freeze(policy.references.map((item) => Object.freeze({ path: item.path, when: item.when, referenceId: item.path })));
  return Object.freeze({
    specVersion: "0.1",
    owner,
    when: policy.when,
    unless: policy.unless,
    references,
    authoringSha256: policy.authoringSha256,
    policySha256: hashJson(identity),
  }) as CompiledJudgmentPolicy;
}

export function compiledJudgmentPolicyData(policy: CompiledJudgmentPolicy): CompiledJudgmentPolicyData {
  return {
    specVersion: "0.1",
    owner: policyOwnerIdentity(policy.owner) as unknown as PolicyOwnerData,
    when: [...policy.when],
    unless: [...policy.unless],
    references: policy.references.map((item) => ({ path: item.path, when: [...item.when] })),
    authoringSha256: policy.authoringSha256,
    policySha256: policy.policySha256,
  };
}

export function decodeCompiledJudgmentPolicyData(value: JsonValue): CompiledJudgmentPolicyData {
  return decodeWith<CompiledJudgmentPolicyData>(CompiledJudgmentPolicySchema, value, "Compiled Judgment policy has an invalid representation.");
}

export function parseCompiledJudgmentPolicy(data: CompiledJudgmentPolicyData): CompiledJudgmentPolicy {
  const owner = parsePolicyOwner(data.owner);
  const authoring = parseJudgmentAuthoringPolicy({ specVersion: "0.1", when: data.when, unless: data.unless, references: data.references });
  if (authoring.authoringSha256 !== data.authoringSha256) throw new JudgmentParseError("Compiled policy authoring identity does not match its content.");
  const compiled = compileJudgmentPolicy({ owner, policy: authoring });
  if (compiled.policySha256 !== data.policySha256) throw new JudgmentParseError("Compiled policy identity does not match its content.");
  return compiled;
}
