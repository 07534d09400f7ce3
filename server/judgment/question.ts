// The dynamic question: the runtime question an owner asks on one branch, bound to a policy.
import { hashJson, type JsonValue } from "./json";
import { decodePolicyOwnerData, parsePolicyOwner, PolicyOwnerSchema, policyOwnerIdentity, type PolicyOwner, type PolicyOwnerData } from "./owner";
import { Identifier, S, Sha256, decodeWith, type Schema } from "./schema";
import { normalizedText, uniqueTextSet } from "./text";

export interface DynamicJudgmentQuestionData {
  readonly judgmentId: string;
  readonly owner: PolicyOwnerData;
  readonly policySha256?: string;
  readonly question: string;
  readonly basisMaterialIds: readonly string[];
  readonly branchRef: string;
}

export const DynamicJudgmentQuestionSchema: Schema = S.object(
  {
    judgmentId: Identifier,
    owner: PolicyOwnerSchema,
    policySha256: Sha256,
    question: S.text(1, 4_000),
    basisMaterialIds: S.array(S.text(1, 300), { maxItems: 128, uniqueItems: true }),
    branchRef: S.text(1, 300),
  },
  ["policySha256"],
);

declare const questionBrand: unique symbol;

export interface DynamicJudgmentQuestion {
  readonly [questionBrand]: true;
  readonly judgmentId: string;
  readonly owner: PolicyOwner;
  readonly policySha256?: string;
  readonly question: string;
  readonly basisMaterialIds: readonly string[];
  readonly branchRef: string;
  readonly questionSha256: string;
}

export function decodeDynamicJudgmentQuestionData(value: JsonValue): DynamicJudgmentQuestionData {
  return decodeWith<DynamicJudgmentQuestionData>(DynamicJudgmentQuestionSchema, value, "Dynamic judgment question has an invalid representation.");
}

export function parseDynamicJudgmentQuestion(data: DynamicJudgmentQuestionData): DynamicJudgmentQuestion {
  const owner = parsePolicyOwner(decodePolicyOwnerData(data.owner as unknown as JsonValue));
  const question = normalizedText(data.question, "/question");
  const branchRef = normalizedText(data.branchRef, "/branchRef");
  const basisMaterialIds = uniqueTextSet(data.basisMaterialIds, "/basisMaterialIds", (value) => `Duplicate dynamic-question basis material: ${value}.`);
  const policy: { readonly policySha256?: string } = data.policySha256 ? { policySha256: data.policySha256 } : {};
  const questionSha256 = hashJson({
    judgmentId: data.judgmentId,
    owner: policyOwnerIdentity(owner),
    ...(data.policySha256 ? { policySha256: data.policySha256 } : {}),
    question,
    basisMaterialIds,
    branchRef,
  });
  return Object.freeze({ judgmentId: data.judgmentId, owner, ...policy, question, basisMaterialIds, branchRef, questionSha256 }) as DynamicJudgmentQuestion;
}

/** JSON → question in one step. */
export function questionFromJson(value: JsonValue): DynamicJudgmentQuestion {
  return parseDynamicJudgmentQuestion(decodeDynamicJudgmentQuestionData(value));
}

