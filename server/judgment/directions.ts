// Model-visible Markdown directions for a policy: when, unless (exclusions win), and each
// prepared reference as an independent candidate.
import type { JudgmentAuthoringPolicy } from "./authoring";
import type { CompiledJudgmentPolicy } from "./compiledPolicy";

function bullets(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join("\n");
}

export function judgmentPolicyDirections(policy: JudgmentAuthoringPolicy | CompiledJudgmentPolicy): { readonly markdown: string } {
  const lines = [
    "## Context Directions",
    "",
    "Use this capability when at least one of these applies:",
    "",
    bullets(policy.when),
    "",
    "Do not use it when any of these applies (exclusions win):",
    "",
    bullets(policy.unless),
    "",
    "Each prepared reference below is an independent candidate: not a requirement, and no authority.",
    "",
    ...policy.references.flatMap((reference) => [`### \`${reference.path}\``, "", bullets(reference.when), ""]),
  ];
  return Object.freeze({ markdown: lines.join("\n").trimEnd() });
}
