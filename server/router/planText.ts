// The human-readable rendering of a plan (`docket plan "<task>"` without --json, and the text
// part of the MCP `plan` tool): the seven stages in order, every reason spelled out as the fact
// it points at, so a reader can go and check each one. Pure: the same plan prints the same text.
import type { Citation, Plan, Reason, TaskSpan } from "./planSchema";

function quote(text: string): string {
  return JSON.stringify(text);
}

function spanText(span: TaskSpan): string {
  return `${quote(span.text)} @${span.start}-${span.end}`;
}

/** One reason as a checkable sentence fragment. */
export function reasonText(reason: Reason): string {
  switch (reason.kind) {
    case "task-span":
      return `task words ${spanText(reason.span)}${reason.note === "" ? "" : ` — ${reason.note}`}`;
    case "snapshot-entity":
      return `workspace ${reason.entityKind} ${reason.value}${reason.path === null || reason.path === reason.value ? "" : ` (${reason.path})`}`;
    case "risk-rule":
      return `risk rule ${reason.rule}`;
    case "catalogue-field":
      return `catalogue ${reason.skill}.${reason.field} = ${quote(reason.value)}${reason.span === null ? "" : ` matched ${spanText(reason.span)}`}`;
    case "description-token":
      return `description of ${reason.skill} shares the word ${quote(reason.token)} (${spanText(reason.span)}; weaker, no routing metadata)`;
    case "execution-mode":
      return `execution mode ${reason.mode}`;
    case "relation":
      return `relation ${reason.from} ${reason.relation} ${reason.to}`;
    case "hot-path":
      return `hot path ${reason.path} (${reason.hint})`;
    case "router-rule":
      return `router rule: ${reason.rule}`;
  }
}

function citationText(citation: Citation): string {
  switch (citation.kind) {
    case "file":
      return citation.line === null ? citation.path : `${citation.path}:${citation.line}`;
    case "ledger-event":
      return `ledger ${citation.workScopeId} ${citation.eventId}`;
    case "evidence":
      return `evidence ${citation.handle}`;
  }
}

function reasonLines(reasons: readonly Reason[], indent: string): string[] {
  return reasons.map((reason) => `${indent}because ${reasonText(reason)}`);
}

function none(lines: string[], indent: string, items: readonly unknown[]): void {
  if (items.length === 0) lines.push(`${indent}(none)`);
}

function heading(lines: string[], number: number, title: string): void {
  if (lines.length > 0) lines.push("");
  lines.push(`${number}. ${title}`);
}

export function renderPlanText(plan: Plan): string {
  const lines: string[] = [];
  const { task, intent, routing, composition, contextPack, verification, review } = plan;

  heading(lines, 1, "TASK");
  lines.push(`  ${quote(task.text)}`);
  lines.push(`  tokens: ${task.tokens.map((token) => (token.pathLike ? `[${token.text}]` : token.text)).join(" ")}`);

  heading(lines, 2, "TASK INTENT");
  lines.push(`  domain: ${intent.domain.value}`, ...reasonLines(intent.domain.reasons, "    "));
  lines.push(`  execution mode: ${intent.executionMode.value}`, ...reasonLines(intent.executionMode.reasons, "    "));
  lines.push("  entities:");
  none(lines, "    ", intent.entities);
  for (const entity of intent.entities) {
    lines.push(`    ${entity.kind} ${entity.value} ← ${spanText(entity.span)}${entity.path === null || entity.path === entity.value ? "" : ` (${entity.path})`}`);
  }
  if (intent.unmatched.length > 0) {
    lines.push("  unmatched (shown, not planned around):");
    for (const item of intent.unmatched) lines.push(`    ${quote(item.text)} looks like a ${item.looksLike}: ${item.why}`);
  }
  if (intent.ambiguous.length > 0) {
    lines.push("  ambiguous:");
    for (const item of intent.ambiguous) lines.push(`    ${quote(item.text)} (${item.kind}) could be: ${item.candidates.join(", ")}`);
  }
  lines.push("  signals:");
  none(lines, "    ", intent.signals);
  for (const signal of intent.signals) {
    const word = signal.word === signal.span.text.toLowerCase() ? "" : ` (${quote(signal.word)})`;
    lines.push(`    ${signal.kind} ${spanText(signal.span)}${word}${signal.target === null ? "" : ` → ${spanText(signal.target)}`}`);
  }
  lines.push("  risk:");
  none(lines, "    ", intent.risk);
  for (const risk of intent.risk) lines.push(`    ${risk.level} ${risk.rule}`, ...reasonLines(risk.reasons, "      "));

  heading(lines, 3, "SKILL ROUTING");
  if (routing.fit.outcome === "no-skill-fits") lines.push("  no skill fits well", ...reasonLines(routing.fit.reasons, "    "));
  for (const candidate of routing.candidates) {
    lines.push(`  ${candidate.skill} (${candidate.source}, ${candidate.role}, ${candidate.strength}, score ${candidate.score}) ${candidate.path}`);
    lines.push(...reasonLines(candidate.reasons, "    "));
  }
  for (const aside of routing.setAside) {
    lines.push(`  set aside ${aside.skill} (${aside.source}, ${aside.role}, ${aside.strength}, score ${aside.score}) ${aside.path}`);
    lines.push(...reasonLines(aside.reasons, "    "), ...aside.because.map((reason) => `    set aside because ${reasonText(reason)}`));
  }
  for (const excluded of routing.excluded) lines.push(`  excluded ${excluded.skill}`, ...reasonLines(excluded.reasons, "    "));
  for (const entry of routing.unavailable) lines.push(`  unavailable ${entry.skill} (${entry.path}): ${entry.code}: ${entry.message}`);

  heading(lines, 4, "SKILL COMPOSITION");
  lines.push(`  executable: ${composition.executable ? "yes" : "NO"}`);
  for (const why of composition.blockedBecause) lines.push(`  BLOCKED because ${why}`);
  composition.groups.forEach((group, index) => {
    lines.push(`  group ${index}: ${group.join(", ")}`);
    for (const gate of composition.gates.filter((candidate) => candidate.afterGroup === index)) {
      lines.push(`    gate (${gate.kind}): ${gate.description}`);
    }
  });
  if (composition.groups.length === 0) lines.push(routing.fit.outcome === "no-skill-fits" && composition.issues.length === 0 ? "  (no steps: no skill fits well)" : "  (no steps)");
  for (const step of composition.steps) {
    if (step.after.length > 0) lines.push(`  ${step.skill} after ${step.after.join(", ")}`);
  }
  for (const edge of composition.edges) lines.push(`  edge ${edge.before} → ${edge.after} (${edge.relation}, declared by ${edge.declaredBy})`);
  for (const issue of composition.issues) {
    const state = issue.blocking ? "blocking" : issue.resolved ? "resolved" : "unresolved";
    lines.push(`  issue ${issue.kind} [${state}] ${issue.skills.join(", ")}: ${issue.detail}`);
  }

  heading(lines, 5, "CONTEXT PACK");
  lines.push(`  snapshot ${contextPack.versions.snapshotSha256}`);
  lines.push(`  basis ${contextPack.versions.basisSha256}`);
  for (const skill of contextPack.versions.skills) lines.push(`  skill ${skill.skill} (${skill.source}) ${skill.revisionSha256}`);
  for (const fact of contextPack.facts) lines.push(`  fact ${fact.fact}: ${fact.value}`, ...reasonLines(fact.reasons, "    "));
  for (const file of contextPack.files) lines.push(`  file ${file.path}`, ...reasonLines(file.reasons, "    "));
  for (const node of contextPack.graph) {
    lines.push(`  graph ${node.path}: imports ${node.imports.join(", ") || "nothing"}; imported by ${node.importedBy.join(", ") || "nothing"}`);
  }
  for (const rule of contextPack.rules) lines.push(`  rule file ${rule.path} ${rule.sha256}`);
  for (const constraint of contextPack.constraints) {
    const text = constraint.text === constraint.span.text ? "" : ` ${quote(constraint.text)}`;
    lines.push(`  constraint (${constraint.kind}) ${spanText(constraint.span)}${text}`);
  }
  for (const finding of contextPack.findings) lines.push(`  finding ${finding.finding}`, ...reasonLines(finding.reasons, "    "));
  for (const unknown of contextPack.unknowns) lines.push(`  unknown (${unknown.kind}) ${quote(unknown.text)}: ${unknown.detail}`);

  heading(lines, 6, "VERIFICATION");
  none(lines, "  ", verification.required);
  for (const check of verification.required) {
    const ran = verification.ran.find((entry) => entry.checkId === check.checkId);
    const state = ran === undefined ? "pending" : ran.passed ? `passed (${ran.evidence})` : `FAILED (${ran.evidence})`;
    lines.push(`  ${check.checkId} [${check.kind}] ${state}: ${check.description}${check.command === null ? "" : ` — ${check.command}`}`);
    lines.push(...reasonLines(check.reasons, "    "));
  }

  heading(lines, 7, "REVIEW");
  for (const seat of review.seats) {
    lines.push(`  ${seat.reviewer} [${seat.state}]${seat.skill === null ? "" : ` skill ${seat.skill}`}: ${seat.asks}`);
    lines.push(...reasonLines(seat.reasons, "    "));
    for (const check of seat.checks) lines.push(`    check ${check.check} ${check.passed ? "passed" : "FAILED"}: ${check.detail}`);
    for (const finding of seat.findings) {
      const cites = finding.citations.map(citationText).join(", ");
      lines.push(`    ${finding.severity}${finding.resolved ? " (resolved)" : ""} ${finding.findingId}: ${finding.message}${cites === "" ? "" : ` [${cites}]`}`);
    }
    if (seat.failure !== null) lines.push(`    failed: ${seat.failure}`);
  }
  for (const ignored of review.ignoredReports) lines.push(`  ignored report from ${ignored.reviewer} for basis ${ignored.basisSha256}: ${ignored.why}`);
  lines.push(`  verdict: ${review.verdict}`);
  for (const why of review.verdictReasons) lines.push(`    ${why}`);

  lines.push("", `plan ${plan.planSha256}`);
  return `${lines.join("\n")}\n`;
}
