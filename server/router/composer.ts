// Stage 4, SKILL COMPOSITION: turns routed candidates into ordered steps, parallel groups and
// gates, and says what it could not resolve (design router.md "Composer"). Pure.
//
// What it resolves: duplicates (the same skill among the candidates more than once: the strongest
// role is kept, work > review > context) and unavailable candidates (dropped, said). What it refuses
// to resolve, making the plan not executable: a REQUIRES target that is not an available catalogue
// entry (or that the task excluded), two selected skills in CONFLICTS_WITH (both stay), and cycles in
// the execution edges (steps and groups come back empty). A REQUIRES target that is available but
// was not routed is pulled in as a step; the REQUIRES edge (declaredBy the requiring skill) says why.
//
// Gates (docs/router.md): the bundled skills are judgment methods that conclude before Docket's
// Authorize Change, so in implement mode an `authorization` gate sits after the last group that
// contains a work step (decide, then authorize, then edit); a `verification` gate sits there too
// (the edit's checks must pass before anything after it, such as verify, judges them); a `review`
// gate (the Review Board) sits after the last group. A plan without steps has no gates.
import { countOf } from "../plural";
import { canonicalize, compareCodeUnits } from "../ledger/canonicalJson";
import { availableEntry } from "./catalogue";
import type {
  Candidate,
  Catalogue,
  CompositionIssue,
  CompositionStage,
  ExecutionEdge,
  ExecutionMode,
  Gate,
  RelationType,
  RoutingStage,
  SkillRole,
  Step,
} from "./planSchema";

const ROLE_STRENGTH: Readonly<Record<SkillRole, number>> = { work: 3, review: 2, context: 1 };
const ISSUE_ORDER: Readonly<Record<CompositionIssue["kind"], number>> = { duplicate: 0, unavailable: 1, "missing-requirement": 2, conflict: 3, cycle: 4 };
const GATE_ORDER: Readonly<Record<Gate["kind"], number>> = { authorization: 0, verification: 1, review: 2 };

export interface ComposeOptions {
  /** The plan's execution mode; `implement` adds the authorization gate. */
  readonly mode?: ExecutionMode | null;
}

/**
 * The execution edge a relation "from REL to" imposes, as [runs first, runs after], or null when
 * it imposes no order. Three relations reverse: the prerequisite, the verified work and the
 * reviewed work run first.
 */
export function relationEdge(from: string, relation: RelationType, to: string): readonly [string, string] | null {
  switch (relation) {
    case "REQUIRES":
    case "VERIFIES":
    case "REVIEWS":
      return [to, from];
    case "PRECEDES":
    case "PROVIDES_CONTEXT_FOR":
      return [from, to];
    case "COMPOSES_WITH":
    case "CONFLICTS_WITH":
      return null;
  }
}

interface Selected {
  readonly skill: string;
  role: SkillRole;
}

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodeUnits);
}

/** Kahn's algorithm by layers; names sorted within a layer. Returns the layers and what is left. */
function layers(nodes: readonly string[], edges: readonly ExecutionEdge[]): { groups: string[][]; rest: string[] } {
  const incoming = new Map<string, Set<string>>(nodes.map((node) => [node, new Set<string>()]));
  for (const edge of edges) incoming.get(edge.after)?.add(edge.before);
  const done = new Set<string>();
  const groups: string[][] = [];
  for (;;) {
    const layer = nodes.filter((node) => !done.has(node) && [...(incoming.get(node) ?? [])].every((before) => done.has(before)));
    if (layer.length === 0) break;
    groups.push(layer);
    for (const node of layer) done.add(node);
  }
  return { groups, rest: nodes.filter((node) => !done.has(node)) };
}

/** Strongly connected groups of two or more skills among `rest` (the members of each cycle), sorted. */
function cycles(rest: readonly string[], edges: readonly ExecutionEdge[]): string[][] {
  const inRest = new Set(rest);
  const next = new Map<string, string[]>(rest.map((node) => [node, []]));
  for (const edge of edges) if (inRest.has(edge.before) && inRest.has(edge.after)) next.get(edge.before)?.push(edge.after);
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.pop() as string;
      for (const after of next.get(node) ?? []) {
        if (seen.has(after)) continue;
        seen.add(after);
        stack.push(after);
      }
    }
    return seen;
  };
  const reachable = new Map(rest.map((node) => [node, reach(node)]));
  const assigned = new Set<string>();
  const result: string[][] = [];
  for (const node of rest) {
    if (assigned.has(node) || !(reachable.get(node)?.has(node) ?? false)) continue;
    const members = rest.filter((other) => (reachable.get(node)?.has(other) ?? false) && (reachable.get(other)?.has(node) ?? false));
    for (const member of members) assigned.add(member);
    result.push(sortedUnique(members));
  }
  return result;
}

/** Orders the routed candidates into a plan of steps, or says why it cannot. */
export function compose(routing: RoutingStage, catalogue: Catalogue, options: ComposeOptions = {}): CompositionStage {
  const issues: CompositionIssue[] = [];
  const selected = new Map<string, Selected>();

  // Duplicates and unavailable candidates.
  const bySkill = new Map<string, Candidate[]>();
  for (const candidate of routing.candidates) bySkill.set(candidate.skill, [...(bySkill.get(candidate.skill) ?? []), candidate]);
  for (const skill of sortedUnique(bySkill.keys())) {
    const reached = bySkill.get(skill) ?? [];
    if (availableEntry(catalogue, skill) === undefined) {
      const entry = catalogue.entries.find((item) => item.name === skill);
      const why = entry === undefined ? "it is not in the catalogue" : `it is unavailable (${entry.problem?.code ?? "unavailable"})`;
      issues.push({ kind: "unavailable", resolved: true, blocking: false, skills: [skill], detail: `${skill} was dropped: ${why}` });
      continue;
    }
    let role = reached[0]?.role ?? "work";
    for (const candidate of reached) if (ROLE_STRENGTH[candidate.role] > ROLE_STRENGTH[role]) role = candidate.role;
    if (reached.length > 1) {
      const reasons = new Set(reached.flatMap((candidate) => candidate.reasons.map((reason) => canonicalize(reason))));
      issues.push({
        kind: "duplicate",
        resolved: true,
        blocking: false,
        skills: [skill],
        detail: `${skill} was reached ${reached.length} times (${sortedUnique(reached.map((candidate) => `${candidate.source} ${candidate.path} as ${candidate.role}`)).join("; ")}); kept once as ${role} with ${countOf(reasons.size, "distinct reason")} merged`,
      });
    }
    selected.set(skill, { skill, role });
  }

  // REQUIRES closure: available targets are pulled in; absent or excluded ones block the plan.
  const excluded = new Set(routing.excluded.map((item) => item.skill));
  const pending = sortedUnique(selected.keys());
  for (let index = 0; index < pending.length; index += 1) {
    const skill = pending[index] as string;
    const relations = availableEntry(catalogue, skill)?.metadata?.relations ?? [];
    for (const relation of relations) {
      if (relation.type !== "REQUIRES" || selected.has(relation.skill)) continue;
      const target = availableEntry(catalogue, relation.skill);
      if (target === undefined || excluded.has(relation.skill)) {
        const entry = catalogue.entries.find((item) => item.name === relation.skill);
        const why = excluded.has(relation.skill)
          ? "the task excludes it"
          : entry === undefined
            ? "it is not in the catalogue"
            : `it is unavailable (${entry.problem?.code ?? "unavailable"})`;
        issues.push({ kind: "missing-requirement", resolved: false, blocking: true, skills: [skill, relation.skill], detail: `${skill} requires ${relation.skill}, but ${why}` });
        continue;
      }
      selected.set(relation.skill, { skill: relation.skill, role: target.metadata?.role ?? "work" });
      pending.push(relation.skill);
    }
  }

  // Execution edges among selected skills; conflicts are recorded, never resolved.
  const nodes = sortedUnique(selected.keys());
  const edgeKeys = new Set<string>();
  const edges: ExecutionEdge[] = [];
  const conflicts = new Map<string, string[]>();
  for (const skill of nodes) {
    for (const relation of availableEntry(catalogue, skill)?.metadata?.relations ?? []) {
      if (!selected.has(relation.skill) || relation.skill === skill) continue;
      if (relation.type === "CONFLICTS_WITH") {
        const pair = sortedUnique([skill, relation.skill]);
        conflicts.set(pair.join("\n"), pair);
        continue;
      }
      const edge = relationEdge(skill, relation.type, relation.skill);
      if (edge === null) continue;
      const value: ExecutionEdge = { before: edge[0], after: edge[1], relation: relation.type, declaredBy: skill };
      const key = canonicalize(value);
      if (edgeKeys.has(key)) continue;
      edgeKeys.add(key);
      edges.push(value);
    }
  }
  edges.sort(
    (left, right) =>
      compareCodeUnits(left.before, right.before) ||
      compareCodeUnits(left.after, right.after) ||
      compareCodeUnits(left.relation, right.relation) ||
      compareCodeUnits(left.declaredBy, right.declaredBy),
  );
  for (const pair of conflicts.values()) {
    issues.push({ kind: "conflict", resolved: false, blocking: true, skills: pair, detail: `${pair[0]} and ${pair[1]} conflict (CONFLICTS_WITH) and both were selected; choosing one is a judgement about the task` });
  }

  const { groups, rest } = layers(nodes, edges);
  const cyclic = rest.length > 0;
  if (cyclic) {
    for (const members of cycles(rest, edges)) {
      issues.push({ kind: "cycle", resolved: false, blocking: true, skills: members, detail: `the execution edges between ${members.join(", ")} form a cycle, so no order exists` });
    }
  }

  const steps: Step[] = [];
  const gates: Gate[] = [];
  if (!cyclic) {
    for (const [group, layer] of groups.entries()) {
      for (const skill of layer) {
        steps.push({ skill, role: selected.get(skill)?.role ?? "work", group, after: sortedUnique(edges.filter((edge) => edge.after === skill).map((edge) => edge.before)) });
      }
    }
    let lastWork = -1;
    for (const step of steps) if (step.role === "work") lastWork = Math.max(lastWork, step.group);
    if (lastWork >= 0) {
      if (options.mode === "implement") {
        gates.push({ afterGroup: lastWork, kind: "authorization", description: `The change must be authorized (Docket: Authorize Change) after group ${lastWork} decides it and before any file is edited` });
      }
      gates.push({ afterGroup: lastWork, kind: "verification", description: `The required checks must pass on the change before the plan goes past group ${lastWork}` });
    }
    if (groups.length > 0) {
      gates.push({ afterGroup: groups.length - 1, kind: "review", description: "The Review Board reviews the result; the plan is done only with its recorded verdict" });
    }
    gates.sort((left, right) => left.afterGroup - right.afterGroup || GATE_ORDER[left.kind] - GATE_ORDER[right.kind]);
  }

  issues.sort((left, right) => ISSUE_ORDER[left.kind] - ISSUE_ORDER[right.kind] || compareCodeUnits(left.skills.join("\n"), right.skills.join("\n")) || compareCodeUnits(left.detail, right.detail));
  const blockedBecause = issues.filter((issue) => issue.blocking).map((issue) => issue.detail);
  return {
    steps,
    groups: cyclic ? [] : groups,
    edges,
    gates,
    issues,
    executable: blockedBecause.length === 0,
    blockedBecause,
  };
}
