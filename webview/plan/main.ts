// Plan panel: renders the Plan the host posts, stage by stage, into the DOM. Data goes in only
// through textContent and attributes (no innerHTML, no inline handlers: strict CSP). Reasons are
// links: words of the task light up, files and skills open in the editor (the host checks paths).
//
// Stable DOM hooks for end-to-end tests (inside the workbench's `iframe.webview` → `#active-frame`):
//   [data-testid="stage"][data-stage=task|intent|routing|composition|contextPack|verification|review]
//                                  one section per stage, in that order, each with an <h2>
//   [data-testid="task-text"]      the task; cited words are <mark data-testid="task-word"> with
//                                  data-start/data-end; class "lit" while a reason points at them
//   [data-testid="entity"]         an intent entity: data-kind, data-value (project spelling);
//                                  a <button> (data-path) when the snapshot has a path for it
//   [data-testid="unmatched"]      a name that matched nothing
//   [data-testid="candidate"]      a routing candidate: data-skill, data-strength
//   [data-testid="no-skill-fits"]  shown when no skill fits the task well, with the reasons
//   [data-testid="set-aside"]      a skill that matched only poorly: data-skill
//   [data-testid="reason"]         one reason: data-kind; <button> when it links somewhere
//                                  (data-action = highlight | open-file | open-skill, data-path)
//   [data-testid="blocked-because"] each reason a blocked plan gives (composition)
//   [data-testid="seat"]           a review seat: data-reviewer, data-state
//   [data-testid="verdict"]        the verdict badge: data-verdict = GO | FIX_REQUIRED | BLOCKED (shown in words)
import "./zodSetup";
import type { Citation, ExecutionMode, Plan, Reason, Severity, TaskSpan } from "../../server/router/planSchema";
import { HostToPlan, PlanStrings, type PlanToHost } from "../../server/protocol/webviewMessages";
import { citedSpans, segments, within } from "./spans";

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const strings = PlanStrings.parse(JSON.parse(document.body.dataset["strings"] ?? "{}"));

function send(message: PlanToHost): void {
  vscode.postMessage(message);
}

function format(template: string, ...values: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/gu, (match, index: string) => {
    const value = values[Number(index)];
    return value === undefined ? match : String(value);
  });
}

// ── DOM helpers ─────────────────────────────────────────────────────────────────────────────

type Child = Node | string | null;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; testId?: string; data?: Record<string, string> } = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className !== undefined) node.className = props.className;
  if (props.testId !== undefined) node.dataset["testid"] = props.testId;
  for (const [key, value] of Object.entries(props.data ?? {})) node.dataset[key] = value;
  for (const child of children) {
    if (child === null) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function icon(name: string): HTMLElement {
  const span = el("span", { className: `codicon codicon-${name}` });
  span.setAttribute("aria-hidden", "true");
  return span;
}

function code(text: string): HTMLElement {
  return el("code", {}, [text]);
}

function link(label: readonly Child[], accessibleName: string, action: () => void, props: { className?: string; testId?: string; data?: Record<string, string> } = {}): HTMLButtonElement {
  const node = el("button", { ...props, className: `link ${props.className ?? ""}`.trim() }, label);
  node.type = "button";
  node.title = accessibleName;
  node.setAttribute("aria-label", accessibleName);
  node.addEventListener("click", action);
  return node;
}

// ── Task highlighting ──────────────────────────────────────────────────────────────────────

let taskMarks: HTMLElement[] = [];

function light(span: TaskSpan | null): void {
  for (const mark of taskMarks) {
    const start = Number(mark.dataset["start"]);
    const end = Number(mark.dataset["end"]);
    mark.classList.toggle("lit", span !== null && within({ start, end }, span));
  }
}

/** Hover or focus lights the words; a click keeps them lit and scrolls the task into view. */
function highlighting(node: HTMLElement, span: TaskSpan): void {
  node.addEventListener("mouseenter", () => light(span));
  node.addEventListener("mouseleave", () => light(pinned));
  node.addEventListener("focus", () => light(span));
  node.addEventListener("blur", () => light(pinned));
}

let pinned: TaskSpan | null = null;

function spanLink(span: TaskSpan, label: readonly Child[], kind: string): HTMLButtonElement {
  const node = link(
    label,
    format(strings.showWords, span.text),
    () => {
      pinned = pinned !== null && pinned.start === span.start && pinned.end === span.end ? null : span;
      light(pinned);
      document.querySelector('[data-testid="task-text"]')?.scrollIntoView({ block: "nearest" });
    },
    { testId: "reason", className: "span-link", data: { kind, action: "highlight", start: String(span.start), end: String(span.end) } },
  );
  highlighting(node, span);
  return node;
}

function fileLink(filePath: string, line: number | null, label: readonly Child[], testId = "reason", kind = "file"): HTMLButtonElement {
  return link(label, format(strings.openFile, line === null ? filePath : `${filePath}:${line}`), () => send({ type: "openFile", path: filePath, line }), {
    testId,
    className: "file-link",
    data: { kind, action: "open-file", path: filePath },
  });
}

function skillLink(skill: string, label: readonly Child[], kind: string, span: TaskSpan | null): HTMLButtonElement {
  const node = link(label, format(strings.openSkill, skill), () => send({ type: "openSkill", skill }), {
    testId: "reason",
    className: "skill-link",
    data: { kind, action: "open-skill", skill },
  });
  if (span !== null) highlighting(node, span);
  return node;
}

function quoted(text: string): string {
  return `“${text}”`;
}

/** One reason as a link (or plain text when it points at nothing openable). */
function reasonNode(reason: Reason): HTMLElement {
  switch (reason.kind) {
    case "task-span":
      return spanLink(reason.span, [icon("quote"), quoted(reason.span.text), reason.note === "" ? null : el("span", { className: "note" }, [` — ${reason.note}`])], reason.kind);
    case "snapshot-entity": {
      const label = [icon(reason.entityKind === "technology" ? "tools" : reason.entityKind === "file" ? "file" : "folder"), `${reason.entityKind} `, code(reason.value)];
      return reason.path === null
        ? el("span", { testId: "reason", className: "reason-text", data: { kind: reason.kind } }, label)
        : fileLink(reason.path, null, label, "reason", reason.kind);
    }
    case "hot-path":
      return fileLink(reason.path, null, [icon("flame"), code(reason.path), el("span", { className: "note" }, [` — ${reason.hint}`])], "reason", reason.kind);
    case "catalogue-field":
      return skillLink(reason.skill, [icon("book"), `${reason.skill}.${reason.field} = `, code(reason.value), reason.span === null ? null : ` ← ${quoted(reason.span.text)}`], reason.kind, reason.span);
    case "description-token":
      return skillLink(reason.skill, [icon("book"), `${reason.skill} `, el("span", { className: "note" }, ["~ "]), code(reason.token)], reason.kind, reason.span);
    case "relation":
      return el("span", { testId: "reason", className: "reason-text", data: { kind: reason.kind } }, [icon("git-compare"), code(reason.from), ` ${reason.relation} `, code(reason.to)]);
    case "risk-rule":
      return el("span", { testId: "reason", className: "reason-text", data: { kind: reason.kind } }, [icon("warning"), code(reason.rule)]);
    case "execution-mode":
      return el("span", { testId: "reason", className: "reason-text", data: { kind: reason.kind } }, [icon("settings-gear"), MODES[reason.mode]]);
    case "router-rule":
      return el("span", { testId: "reason", className: "reason-text", data: { kind: reason.kind } }, [icon("law"), reason.rule]);
  }
}

function reasonsList(reasons: readonly Reason[]): HTMLElement {
  return el("ul", { className: "reasons", data: { label: strings.because } }, reasons.map((reason) => el("li", {}, [reasonNode(reason)])));
}

function citationNode(citation: Citation): HTMLElement {
  switch (citation.kind) {
    case "file":
      return fileLink(citation.path, citation.line, [icon("file"), code(citation.line === null ? citation.path : `${citation.path}:${citation.line}`)], "citation");
    case "ledger-event":
      return el("span", { testId: "citation" }, [icon("list-ordered"), code(`${citation.workScopeId} ${citation.eventId}`)]);
    case "evidence":
      return el("span", { testId: "citation" }, [icon("output"), code(citation.handle)]);
  }
}

// ── Stages ─────────────────────────────────────────────────────────────────────────────────

function section(stage: string, number: number, title: string, body: readonly Child[]): HTMLElement {
  const heading = el("h2", {}, [el("span", { className: "stage-number" }, [String(number)]), title]);
  heading.id = `stage-${stage}`;
  const node = el("section", { testId: "stage", className: "stage", data: { stage } }, [heading, ...body]);
  node.setAttribute("aria-labelledby", heading.id);
  return node;
}

function sub(title: string, items: readonly Child[], emptyText: string | null = strings.none): HTMLElement {
  const content = items.length === 0 ? (emptyText === null ? [] : [el("p", { className: "muted" }, [emptyText])]) : items;
  return el("div", { className: "sub" }, [el("h3", {}, [title]), ...content]);
}

function item(head: readonly Child[], reasons: readonly Reason[] | null, extra: readonly Child[] = [], props: { testId?: string; data?: Record<string, string>; className?: string } = {}): HTMLElement {
  return el("div", { ...props, className: `item ${props.className ?? ""}`.trim() }, [
    el("div", { className: "item-head" }, head),
    ...extra,
    reasons === null || reasons.length === 0 ? null : reasonsList(reasons),
  ]);
}

/** A badge in words; `value` keeps the raw enum in data-value for tests and styling. */
function badge(text: string, tone: string, value?: string): HTMLElement {
  return el("span", { className: `badge ${tone}`, ...(value === undefined ? {} : { data: { value } }) }, [text]);
}

function taskStage(plan: Plan): HTMLElement {
  const text = plan.task.text;
  const parts = segments(text, citedSpans(plan));
  const paragraph = el("p", { testId: "task-text", className: "task-text" });
  taskMarks = [];
  for (const part of parts) {
    if (!part.cited) {
      paragraph.appendChild(document.createTextNode(part.text));
      continue;
    }
    const mark = el("mark", { testId: "task-word", data: { start: String(part.start), end: String(part.end) } }, [part.text]);
    taskMarks.push(mark);
    paragraph.appendChild(mark);
  }
  return section("task", 1, strings.stageTask, [paragraph]);
}

const MODES: Record<ExecutionMode, string> = {
  "plan-only": strings.modePlanOnly,
  implement: strings.modeImplement,
  review: strings.modeReview,
  investigate: strings.modeInvestigate,
};

const RISK_LEVELS: Record<Plan["intent"]["risk"][number]["level"], string> = {
  high: strings.riskHigh,
  medium: strings.riskMedium,
  low: strings.riskLow,
};

function intentStage(plan: Plan): HTMLElement {
  const intent = plan.intent;
  return section("intent", 2, strings.stageIntent, [
    el("div", { className: "grid" }, [
      item([el("span", { className: "label" }, [strings.domain]), badge(intent.domain.value, "neutral")], intent.domain.reasons),
      item([el("span", { className: "label" }, [strings.executionMode]), badge(MODES[intent.executionMode.value], "neutral", intent.executionMode.value)], intent.executionMode.reasons),
    ]),
    sub(
      strings.entities,
      intent.entities.map((entity) =>
        item(
          [
            badge(entity.kind, "neutral"),
            entity.path === null ? code(entity.value) : fileLink(entity.path, null, [code(entity.value)], "entity-link"),
            " ← ",
            spanLink(entity.span, [quoted(entity.span.text)], "entity-span"),
          ],
          null,
          [],
          { testId: "entity", data: { kind: entity.kind, value: entity.value, ...(entity.path === null ? {} : { path: entity.path }) } },
        ),
      ),
    ),
    intent.unmatched.length === 0
      ? null
      : sub(
          strings.unmatched,
          intent.unmatched.map((entry) =>
            item([badge(entry.looksLike, "warning"), spanLink(entry.span, [quoted(entry.text)], "unmatched")], null, [el("p", { className: "muted" }, [entry.why])], { testId: "unmatched", data: { text: entry.text } }),
          ),
        ),
    intent.ambiguous.length === 0
      ? null
      : sub(
          strings.ambiguous,
          intent.ambiguous.map((entry) =>
            item([badge(entry.kind, "warning"), spanLink(entry.span, [quoted(entry.text)], "ambiguous")], null, [
              el("ul", { className: "plain" }, entry.candidates.map((candidate) => el("li", {}, [entry.kind === "file" ? fileLink(candidate, null, [code(candidate)], "candidate-path") : code(candidate)]))),
            ]),
          ),
        ),
    sub(
      strings.signals,
      intent.signals.map((signal) =>
        item([badge(signal.kind, signal.kind === "negative" ? "warning" : "neutral"), spanLink(signal.span, [quoted(signal.word)], "signal"), signal.target === null ? null : " → ", signal.target === null ? null : spanLink(signal.target, [quoted(signal.target.text)], "signal-target")], null),
      ),
    ),
    sub(
      strings.risk,
      intent.risk.map((risk) => item([badge(RISK_LEVELS[risk.level], risk.level === "high" ? "error" : risk.level === "medium" ? "warning" : "neutral", risk.level), code(risk.rule)], risk.reasons)),
    ),
  ]);
}

function routingStage(plan: Plan): HTMLElement {
  const routing = plan.routing;
  return section("routing", 3, strings.stageRouting, [
    routing.fit.outcome === "no-skill-fits"
      ? item([badge(strings.noSkillFits, "warning")], routing.fit.reasons, [], { testId: "no-skill-fits" })
      : null,
    sub(
      strings.candidates,
      routing.candidates.map((candidate) =>
        item(
          [
            skillLink(candidate.skill, [el("strong", {}, [candidate.skill])], "candidate", null),
            badge(candidate.role, "neutral"),
            badge(candidate.strength, candidate.strength === "declared" ? "ok" : "neutral"),
            badge(candidate.source, "neutral"),
            el("span", { className: "muted" }, [format(strings.score, candidate.score)]),
          ],
          candidate.reasons,
          [],
          { testId: "candidate", data: { skill: candidate.skill, strength: candidate.strength } },
        ),
      ),
    ),
    routing.setAside.length === 0
      ? null
      : sub(
          strings.setAside,
          routing.setAside.map((entry) =>
            item(
              [skillLink(entry.skill, [el("s", {}, [entry.skill])], "set-aside", null), el("span", { className: "muted" }, [format(strings.score, entry.score)])],
              [...entry.reasons, ...entry.because],
              [],
              { testId: "set-aside", data: { skill: entry.skill } },
            ),
          ),
        ),
    routing.excluded.length === 0 ? null : sub(strings.excluded, routing.excluded.map((entry) => item([el("s", {}, [entry.skill])], entry.reasons, [], { testId: "excluded", data: { skill: entry.skill } }))),
    routing.unavailable.length === 0
      ? null
      : sub(strings.unavailable, routing.unavailable.map((entry) => item([code(entry.skill), " ", code(entry.code)], null, [el("p", { className: "muted" }, [`${entry.path}: ${entry.message}`])]))),
  ]);
}

function compositionStage(plan: Plan): HTMLElement {
  const composition = plan.composition;
  const blocked = composition.executable
    ? null
    : el("div", { className: "callout error", testId: "blocked" }, [
        el("strong", {}, [icon("error"), ` ${strings.blocked}`]),
        el("ul", {}, composition.blockedBecause.map((why) => el("li", { testId: "blocked-because" }, [why]))),
      ]);
  const groups = composition.groups.map((group, index) =>
    el("div", { className: "group" }, [
      el("div", { className: "group-title" }, [format(strings.group, index)]),
      el("div", { className: "chips" }, group.map((skill) => el("span", { className: "chip" }, [skill]))),
      ...composition.gates
        .filter((gate) => gate.afterGroup === index)
        .map((gate) => el("div", { className: "gate" }, [icon(gate.kind === "review" ? "eye" : gate.kind === "verification" ? "beaker" : "lock"), ` ${gate.kind}: ${gate.description}`])),
    ]),
  );
  return section("composition", 4, strings.stageComposition, [
    blocked,
    item([el("span", { className: "label" }, [strings.executable]), badge(composition.executable ? strings.yes : strings.no, composition.executable ? "ok" : "error")], null),
    sub(strings.groups, groups),
    sub(
      strings.edges,
      composition.edges.map((edge) => el("div", { className: "edge" }, [code(edge.before), " → ", code(edge.after), el("span", { className: "muted" }, [` ${edge.relation} · ${edge.declaredBy}`])])),
    ),
    composition.issues.length === 0
      ? null
      : sub(
          strings.issues,
          composition.issues.map((issue) =>
            item([badge(issue.kind, issue.blocking ? "error" : issue.resolved ? "ok" : "warning"), issue.skills.join(", ")], null, [el("p", {}, [issue.detail])], { testId: "issue", data: { kind: issue.kind } }),
          ),
        ),
  ]);
}

function contextStage(plan: Plan): HTMLElement {
  const pack = plan.contextPack;
  return section("contextPack", 5, strings.stageContextPack, [
    sub(strings.versions, [
      el("dl", { className: "hashes" }, [
        el("dt", {}, [strings.snapshot]),
        el("dd", {}, [code(pack.versions.snapshotSha256)]),
        el("dt", {}, [strings.basis]),
        el("dd", { testId: "basis" }, [code(pack.versions.basisSha256)]),
        ...pack.versions.skills.flatMap((skill) => [el("dt", {}, [skill.skill]), el("dd", {}, [code(skill.revisionSha256)])]),
      ]),
    ]),
    sub(strings.facts, pack.facts.map((fact) => item([el("span", { className: "label" }, [fact.fact]), code(fact.value)], fact.reasons))),
    sub(strings.files, pack.files.map((file) => item([fileLink(file.path, null, [icon("file"), code(file.path)], "context-file")], file.reasons))),
    pack.graph.length === 0
      ? null
      : sub(
          strings.graph,
          pack.graph.map((node) =>
            item([fileLink(node.path, null, [code(node.path)], "graph-file")], null, [
              el("div", { className: "muted" }, [`${strings.imports}: `, ...node.imports.flatMap((target) => [fileLink(target, null, [code(target)], "graph-file"), " "])]),
              el("div", { className: "muted" }, [`${strings.importedBy}: `, ...node.importedBy.flatMap((source) => [fileLink(source, null, [code(source)], "graph-file"), " "])]),
            ]),
          ),
        ),
    sub(strings.rules, pack.rules.map((rule) => item([fileLink(rule.path, null, [icon("law"), code(rule.path)], "rule-file")], null))),
    sub(strings.constraints, pack.constraints.map((constraint) => item([badge(constraint.kind, "warning"), spanLink(constraint.span, [quoted(constraint.text)], "constraint")], null))),
    sub(strings.findings, pack.findings.map((finding) => item([finding.finding], finding.reasons))),
    sub(strings.unknowns, pack.unknowns.map((unknown) => item([badge(unknown.kind, "warning"), code(unknown.text)], null, [el("p", { className: "muted" }, [unknown.detail])]))),
  ]);
}

function verificationStage(plan: Plan): HTMLElement {
  const verification = plan.verification;
  return section("verification", 6, strings.stageVerification, [
    sub(
      strings.required,
      verification.required.map((check) => {
        const ran = verification.ran.find((entry) => entry.checkId === check.checkId);
        const state = ran === undefined ? badge(strings.pending, "warning") : badge(ran.passed ? strings.ran : `${strings.ran} ✗`, ran.passed ? "ok" : "error");
        return item([code(check.checkId), badge(check.kind, "neutral"), state], check.reasons, [
          el("p", {}, [check.description, check.command === null ? null : " — ", check.command === null ? null : code(check.command)]),
          ran === undefined ? null : el("p", { className: "muted" }, [ran.evidence]),
        ]);
      }),
    ),
  ]);
}

const VERDICTS: Record<Plan["review"]["verdict"], string> = {
  GO: strings.verdictGo,
  FIX_REQUIRED: strings.verdictFixRequired,
  BLOCKED: strings.verdictBlocked,
};

const SEVERITIES: Record<Severity, string> = {
  blocking: strings.severityBlocking,
  major: strings.severityMajor,
  minor: strings.severityMinor,
  info: strings.severityInfo,
};

const SEAT_STATES: Record<Plan["review"]["seats"][number]["state"], string> = {
  "awaiting-report": strings.stateAwaitingReport,
  reported: strings.stateReported,
  failed: strings.stateFailed,
  unavailable: strings.stateUnavailable,
};

function reviewStage(plan: Plan): HTMLElement {
  const review = plan.review;
  const tone = review.verdict === "GO" ? "ok" : review.verdict === "BLOCKED" ? "error" : "warning";
  const verdict = el("div", { className: `verdict ${tone}`, testId: "verdict", data: { verdict: review.verdict } }, [
    el("span", { className: "label" }, [strings.verdict]),
    el("strong", {}, [VERDICTS[review.verdict]]),
  ]);
  verdict.setAttribute("role", "status");
  return section("review", 7, strings.stageReview, [
    verdict,
    el("ul", { className: "verdict-reasons" }, review.verdictReasons.map((why) => el("li", {}, [why]))),
    sub(
      strings.seats,
      review.seats.map((seat) =>
        item(
          [
            seat.skill === null ? el("strong", {}, [seat.reviewer]) : skillLink(seat.skill, [el("strong", {}, [seat.reviewer])], "seat", null),
            badge(SEAT_STATES[seat.state], seat.state === "reported" ? "ok" : seat.state === "awaiting-report" ? "neutral" : "error"),
          ],
          seat.reasons,
          [
            el("p", { className: "asks" }, [seat.asks]),
            ...seat.checks.map((check) => el("div", { className: "check" }, [icon(check.passed ? "pass" : "error"), ` ${check.check}: ${check.detail} `, ...check.citations.map(citationNode)])),
            ...seat.findings.map((finding) =>
              el("div", { className: `finding ${finding.severity}`, testId: "finding", data: { severity: finding.severity } }, [
                badge(SEVERITIES[finding.severity], finding.severity === "blocking" ? "error" : finding.severity === "major" ? "warning" : "neutral", finding.severity),
                finding.resolved ? badge(strings.resolved, "ok") : null,
                ` ${finding.message} `,
                ...finding.citations.map(citationNode),
              ]),
            ),
            seat.failure === null ? null : el("p", { className: "callout error" }, [seat.failure]),
          ],
          { testId: "seat", className: "seat", data: { reviewer: seat.reviewer, state: seat.state } },
        ),
      ),
    ),
    review.ignoredReports.length === 0
      ? null
      : sub(strings.ignoredReports, review.ignoredReports.map((entry) => item([code(entry.reviewer), " ", code(entry.basisSha256.slice(0, 12))], null, [el("p", { className: "muted" }, [entry.why])]))),
  ]);
}

/** The verdict up front, so a long plan need not be scrolled to learn whether it may go ahead. */
function summary(plan: Plan): HTMLElement {
  const verdict = plan.review.verdict;
  const tone = verdict === "GO" ? "ok" : verdict === "BLOCKED" ? "error" : "warning";
  const jump = link([strings.verdict, " ", el("strong", {}, [VERDICTS[verdict]])], `${strings.verdict}: ${VERDICTS[verdict]}`, () => {
    const heading = document.getElementById("stage-review");
    heading?.scrollIntoView({ block: "start" });
    heading?.setAttribute("tabindex", "-1");
    heading?.focus();
  });
  return el("header", { className: `summary ${tone}` }, [
    jump,
    plan.composition.executable ? null : badge(strings.blocked, "error"),
    el("span", { className: "muted" }, [`${strings.candidates}: ${plan.routing.candidates.length} · ${strings.seats}: ${plan.review.seats.length}`]),
  ]);
}

function render(plan: Plan): void {
  pinned = null;
  const root = el("main", { className: "plan", data: { planSha256: plan.planSha256 } }, [
    summary(plan),
    taskStage(plan),
    intentStage(plan),
    routingStage(plan),
    compositionStage(plan),
    contextStage(plan),
    verificationStage(plan),
    reviewStage(plan),
    el("footer", { className: "muted" }, [`${strings.planHash} `, code(plan.planSha256)]),
  ]);
  document.body.replaceChildren(root);
}

document.body.replaceChildren(el("p", { className: "muted waiting" }, [strings.waiting]));

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const parsed = HostToPlan.safeParse(event.data);
  if (!parsed.success) return;
  render(parsed.data.plan);
});

send({ type: "ready" });
