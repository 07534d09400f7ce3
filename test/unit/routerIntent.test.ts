// Stage 2, TASK INTENT: the seed's matching cases, grounding, negative signals, domains (English
// and Korean), execution mode and the named risk rules — black-box over parseTask/deriveIntent.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { deriveIntent } from "../../server/router/intent";
import { IntentStage, type ExecutionMode, type WorkspaceSnapshot } from "../../server/router/planSchema";
import { parseTask } from "../../server/router/task";

const FILES = [
  "AGENTS.md",
  "Makefile",
  "package.json",
  "src/a/index.ts",
  "src/auth/session.ts",
  "src/b/index.ts",
  "src/billing/invoice.ts",
  "src/payments/webhook.ts",
  "src/web/server.ts",
  "test/webhook.test.ts",
];

function snapshot(overrides: Partial<WorkspaceSnapshot> = {}): WorkspaceSnapshot {
  return {
    format: "docket/router-snapshot/v1",
    source: "git",
    files: FILES,
    directories: ["src", "src/a", "src/auth", "src/b", "src/billing", "src/payments", "src/web", "test"],
    modules: [
      { name: "billing", path: "src/billing", kind: "directory", manifest: null },
      { name: "test", path: "test", kind: "directory", manifest: null },
      { name: "web", path: "src/web", kind: "directory", manifest: null },
    ],
    technologies: [
      { name: "Go", sources: ["go.mod"] },
      { name: "R", sources: ["DESCRIPTION"] },
      { name: "TypeScript", sources: ["package.json", "tsconfig.json"] },
    ],
    ruleFiles: [{ path: "AGENTS.md", sha256: "a".repeat(64) }],
    hotPaths: [{ path: "src/payments", hint: "payments: request path" }],
    imports: [],
    limits: [],
    skipped: [],
    snapshotSha256: "0".repeat(64),
    ...overrides,
  };
}

function intent(text: string, mode: ExecutionMode | null = null, snap: WorkspaceSnapshot = snapshot()): IntentStage {
  const task = parseTask(text);
  const result = deriveIntent(task, snap, mode);
  IntentStage.parse(result);
  return result;
}

function entities(text: string, snap?: WorkspaceSnapshot): string[] {
  return intent(text, null, snap).entities.map((entity) => `${entity.kind}:${entity.value}@${entity.span.text}`);
}

test("seed: a module named web does not match 'fix the webhook handler'", () => {
  assert.deepEqual(entities("fix the webhook handler"), []);
  assert.deepEqual(entities("fix the web server"), ["module:web@web"]);
});

test("seed: the technology Go does not match 'going' or 'Django'", () => {
  assert.deepEqual(entities("we are going to port the Django app"), []);
  assert.deepEqual(entities("go fix the goroutine"), []);
  assert.deepEqual(entities("rewrite the worker in Go"), ["technology:Go@Go"]);
});

test("seed: the technology R never matches ordinary sentences", () => {
  for (const sentence of [
    "Refactor the reader",
    "are we ready? r u sure",
    "Remove the retry loop, then run the release",
    "R&D wants a report",
    "Read README and rewrite the router",
  ]) {
    assert.deepEqual(
      intent(sentence).entities.filter((entity) => entity.kind === "technology"),
      [],
      sentence,
    );
  }
  assert.deepEqual(entities("port the model to R"), ["technology:R@R"]);
});

test("seed: webhook.ts resolves to its real path in the project's spelling", () => {
  const result = intent("fix webhook.ts");
  assert.deepEqual(result.entities, [
    { kind: "file", value: "src/payments/webhook.ts", span: { start: 4, end: 14, text: "webhook.ts" }, path: "src/payments/webhook.ts" },
  ]);
  assert.deepEqual(result.unmatched, []);
});

test("seed: a named missing file is reported as unmatched, never as an entity", () => {
  const result = intent("move the retry logic from payments.ts into webhook.ts");
  assert.deepEqual(
    result.unmatched.map((item) => [item.text, item.looksLike, item.span.start]),
    [["payments.ts", "file", 26]],
  );
  assert.match(result.unmatched[0]?.why ?? "", /no file or folder in the workspace snapshot is "payments\.ts"/u);
  assert.deepEqual(
    result.entities.map((entity) => entity.value),
    ["src/payments/webhook.ts"],
  );
  assert.deepEqual(
    intent("update lib/webhook.ts").unmatched.map((item) => item.why),
    ['no file or folder in the workspace snapshot is "lib/webhook.ts" or ends with "/lib/webhook.ts"; files named "webhook.ts" elsewhere: src/payments/webhook.ts'],
  );
  assert.deepEqual(
    intent("clean up src/legacy/").unmatched.map((item) => [item.text, item.looksLike]),
    [["src/legacy/", "path"]],
  );
});

test("seed: two index.ts files are ambiguous with both paths", () => {
  const result = intent("refactor index.ts");
  assert.deepEqual(result.entities, []);
  assert.deepEqual(result.ambiguous, [
    { text: "index.ts", span: { start: 9, end: 17, text: "index.ts" }, kind: "file", candidates: ["src/a/index.ts", "src/b/index.ts"] },
  ]);
  assert.deepEqual(
    intent("refactor src/a/index.ts").entities.map((entity) => entity.value),
    ["src/a/index.ts"],
  );
});

test("bad input: a name written many times is grounded once and an unresolved one reported once", () => {
  const text = "index.ts payments.ts the ledger module webhook.ts ".repeat(80).slice(0, 4000);
  const result = intent(text);
  assert.deepEqual(
    result.ambiguous.map((item) => [item.text, item.span.start]),
    [["index.ts", 0]],
  );
  assert.deepEqual(
    result.unmatched.map((item) => [item.text, item.looksLike, item.span.start]),
    [
      ["payments.ts", "file", 9],
      ["ledger", "module", 25],
    ],
  );
  assert.ok(result.entities.length > 10);
  assert.ok(result.entities.every((entity) => entity.value === "src/payments/webhook.ts"));
});

test("prose that merely contains dots or slashes is not an unmatched file", () => {
  const result = intent("e.g. bump Node.js to 20.1.3 and/or check example.com https://example.com/x.ts, i.e. now");
  assert.deepEqual(result.unmatched, []);
  assert.deepEqual(result.ambiguous, []);
});

test("folders, modules and extensionless files ground too", () => {
  assert.deepEqual(entities("speed up src/payments/"), ["directory:src/payments@src/payments/"]);
  assert.deepEqual(entities("clean the payments folder"), ["directory:src/payments@payments"]);
  assert.deepEqual(entities("fix the Makefile"), ["file:Makefile@Makefile"]);
  assert.deepEqual(entities("fix src/billing"), ["module:billing@src/billing"]);
  // A module whose name is a lexicon word ("test") is a name only when the task says so.
  assert.deepEqual(entities("add a test for the parser"), []);
  assert.deepEqual(entities("clean up the test folder"), ["module:test@test"]);
  // Ordinary words before "module" are not missing names; real names are grounded whatever they are.
  assert.deepEqual(intent("put it in a separate module, the main package or the new folder").unmatched, []);
  assert.deepEqual(entities("fix the main module", snapshot({ modules: [{ name: "main", path: "cmd/main", kind: "go-module", manifest: "cmd/main/go.mod" }] })), [
    "module:main@main",
  ]);
  const missing = intent("move it to the ledger module");
  assert.deepEqual(
    missing.unmatched.map((item) => [item.text, item.looksLike]),
    [["ledger", "module"]],
  );
});

test("seed: 'don't touch the billing module' is a negative signal targeting 'billing module'", () => {
  const result = intent("fix the webhook, but don't touch the billing module");
  const negative = result.signals.filter((signal) => signal.kind === "negative");
  assert.deepEqual(negative, [
    {
      kind: "negative",
      word: "don't touch",
      span: { start: 21, end: 32, text: "don't touch" },
      target: { start: 37, end: 51, text: "billing module" },
    },
  ]);
});

test("negative signals: without, no, except, leave … alone, do not change; idioms are not negations", () => {
  const targets = (text: string): string[] =>
    intent(text)
      .signals.filter((signal) => signal.kind === "negative")
      .map((signal) => `${signal.word}=${signal.target?.text ?? ""}`);
  assert.deepEqual(targets("fix it without tests"), ["without=tests"]);
  assert.deepEqual(targets("fix it without touching the billing module"), ["without=billing module"]);
  assert.deepEqual(targets("ship it, no new dependencies"), ["no=new dependencies"]);
  assert.deepEqual(targets("update everything except the public API and docs"), ["except=public API"]);
  assert.deepEqual(targets("leave the web module alone"), ["leave … alone=web module"]);
  assert.deepEqual(targets("Do not change `package.json`."), ["do not change=package.json"]);
  assert.deepEqual(targets("it no longer works"), []);
  assert.deepEqual(targets("No, fix it"), []);
  assert.deepEqual(targets("except for the billing module"), ["except for=billing module"]);
});

test("Korean negative signals take the words before the trigger, without particles", () => {
  const result = intent("결제 모듈은 건드리지 마세요. 테스트 없이 버그를 고쳐줘");
  assert.deepEqual(
    result.signals.filter((signal) => signal.kind === "negative").map((signal) => [signal.word, signal.target?.text]),
    [
      ["건드리지 마", "결제 모듈"],
      ["없이", "테스트"],
    ],
  );
  assert.equal(result.domain.value, "fix");
  assert.deepEqual(
    intent("결제 모듈 수정 금지").signals.filter((signal) => signal.kind === "negative").map((signal) => signal.target?.text),
    ["결제 모듈"],
  );
  assert.deepEqual(
    intent("테스트 금지").signals.filter((signal) => signal.kind === "negative").map((signal) => [signal.span.text, signal.target?.text]),
    [["금지", "테스트"]],
  );
});

test("signals carry the lexicon word and its span: constraints, urgency, security, performance, compatibility, data", () => {
  const result = intent("URGENT: prod is down. Don't guess; the auth token check is slow and must not break the public API or the DB schema.");
  assert.deepEqual(
    result.signals.map((signal) => `${signal.kind}:${signal.word}@${signal.span.start}`),
    [
      "urgency:urgent@0",
      "urgency:prod is down@8",
      "constraint:don't guess@22",
      "security:auth@39",
      "security:token@44",
      "performance:slow@59",
      "constraint:must not@68",
      "compatibility:public api@87",
      "data:db@105",
      "data:schema@108",
    ],
  );
  for (const signal of result.signals) assert.equal(signal.target, null);
  assert.deepEqual(
    intent("Add end-to-end tests and update the README docs").signals.map((signal) => `${signal.kind}:${signal.word}`),
    ["testing:end-to-end", "testing:tests", "documentation:readme", "documentation:docs"],
  );
  assert.deepEqual(
    intent("긴급: 로그인 인증이 느려요. 하위 호환 유지, 스키마 변경 금지").signals.map((signal) => `${signal.kind}:${signal.word}=${signal.span.text}`),
    ["urgency:긴급=긴급", "security:로그인=로그인", "security:인증=인증", "performance:느려=느려", "compatibility:하위 호환=하위 호환", "data:스키마=스키마", "negative:금지=변경 금지"],
  );
});

test("words inside a path are names, not signals or verbs", () => {
  const result = intent("look at src/auth/session.ts");
  assert.deepEqual(result.signals, []);
  assert.equal(result.domain.value, "unspecified");
  assert.deepEqual(result.domain.reasons, [{ kind: "router-rule", rule: "no domain word from the lexicon appears in the task" }]);
});

test("domain: the first domain word wins, with inflections, synonyms and Korean", () => {
  const domain = (text: string): string => intent(text).domain.value;
  assert.equal(domain("Investigate the bug, then fix it"), "investigate");
  assert.equal(domain("The parser crashes on empty input"), "fix");
  assert.equal(domain("repairing the cache"), "fix");
  assert.equal(domain("Implement dark mode"), "add");
  assert.equal(domain("create a settings page"), "add");
  assert.equal(domain("rename the helper"), "refactor");
  assert.equal(domain("why does the build fail?"), "investigate");
  assert.equal(domain("debugging the webhook"), "investigate");
  assert.equal(domain("speed up the importer"), "optimize");
  assert.equal(domain("bump TypeScript to 5.6"), "upgrade");
  assert.equal(domain("deleted files keep coming back"), "remove");
  assert.equal(domain("migrate to pnpm"), "migrate");
  assert.equal(domain("configure the linter"), "configure");
  assert.equal(domain("harden the upload endpoint"), "secure");
  assert.equal(domain("document the CLI flags"), "document");
  assert.equal(domain("review the webhook changes"), "review");
  assert.equal(domain("test the parser"), "test");
  assert.equal(domain("modify the banner text"), "change");
  assert.equal(domain("update dependencies"), "upgrade");
  assert.equal(domain("update the banner"), "change");
  assert.equal(domain("hello there"), "unspecified");
  // A negated verb is not the task's verb.
  assert.equal(domain("don't change the API, just fix the parser"), "fix");
  assert.equal(domain("without changing the API, fix the parser"), "fix");
  assert.equal(domain("웹훅 버그를 수정해줘"), "fix");
  assert.equal(domain("로그인 기능을 추가해 주세요"), "add");
  assert.equal(domain("인증 코드를 리팩터링"), "refactor");
  assert.equal(domain("결제 실패 원인을 분석해줘"), "investigate");
  assert.equal(domain("이 변경을 검토해줘"), "change");
  assert.equal(domain("코드 리뷰 부탁해"), "review");
  assert.equal(domain("쿼리를 최적화해줘"), "optimize");
  assert.equal(domain("오래된 파일을 삭제해줘"), "remove");
  assert.equal(domain("테스트를 작성해줘"), "test");
  assert.equal(domain("문서를 작성해줘"), "document");
  const reasons = intent("Please fix webhook.ts").domain.reasons;
  assert.deepEqual(reasons, [{ kind: "task-span", span: { start: 7, end: 10, text: "fix" }, note: '"fix" is the first domain word in the task, so the domain is fix' }]);
});

test("domain (Docket rule): a behaviour verb in command position is a change; an add/change verb acting on a test or doc names that work", () => {
  const domain = (text: string): string => intent(text).domain.value;
  assert.equal(domain("make webhook.ts trim the name"), "change");
  assert.equal(domain("can you make the greeting trim the name"), "change");
  assert.equal(domain("trim the name in webhook.ts"), "change");
  assert.equal(domain("webhook.ts should validate the signature"), "change");
  assert.equal(domain("I want the handler to reject empty bodies"), "change");
  // Nouns and verbs of a relative clause are not the command.
  assert.equal(domain("the log shows nothing"), "unspecified");
  assert.equal(domain("list the edge cases the parser must handle"), "unspecified");
  assert.equal(domain("make the greeting friendlier"), "unspecified");
  // A written domain word wins over a behaviour verb.
  assert.equal(domain("validate the input and fix the crash"), "fix");
  assert.equal(domain("add a unit test for webhook.ts"), "test");
  assert.equal(domain("update the README"), "document");
  assert.equal(domain("add the docs for the CLI"), "document");
  assert.equal(domain("add a retry to the webhook"), "add");
  assert.equal(domain("fix the flaky test"), "fix");
  // Korean: a behaviour stem with a verb ending, never with a noun particle.
  assert.equal(domain("이름을 다듬어줘"), "change");
  assert.equal(domain("이름을 출력하게 해줘"), "change");
  assert.equal(domain("출력을 확인해줘"), "unspecified");
  assert.deepEqual(intent("make webhook.ts trim the name").domain.reasons, [
    { kind: "task-span", span: { start: 16, end: 20, text: "trim" }, note: '"trim" says what the code should do: a behaviour change' },
  ]);
  assert.deepEqual(intent("add a unit test").domain.reasons, [{ kind: "task-span", span: { start: 6, end: 15, text: "unit test" }, note: '"unit test" is what "add" acts on, so the domain is test' }]);
});

test("execution mode: a forced mode wins; else plan wording, review, investigate, implement", () => {
  const mode = (text: string, forced: ExecutionMode | null = null): IntentStage["executionMode"] => intent(text, forced).executionMode;
  assert.deepEqual(mode("fix webhook.ts", "review"), { value: "review", reasons: [{ kind: "execution-mode", mode: "review" }] });
  assert.deepEqual(mode("Plan the migration to pnpm"), {
    value: "plan-only",
    reasons: [{ kind: "task-span", span: { start: 0, end: 4, text: "Plan" }, note: "asks for a plan or an explanation, not changes" }],
  });
  assert.equal(mode("How would you add caching?").value, "plan-only");
  assert.equal(mode("explain the auth flow").value, "plan-only");
  assert.equal(mode("이 기능을 어떻게 추가할지 계획해줘").value, "plan-only");
  assert.equal(mode("fix the plan panel").value, "implement");
  assert.deepEqual(mode("review the webhook changes"), {
    value: "review",
    reasons: [{ kind: "task-span", span: { start: 0, end: 6, text: "review" }, note: "a review task" }],
  });
  assert.equal(mode("why is the build slow").value, "investigate");
  assert.deepEqual(mode("add a banner"), {
    value: "implement",
    reasons: [{ kind: "task-span", span: { start: 0, end: 3, text: "add" }, note: "the domain add changes the workspace, so the mode is implement" }],
  });
  assert.deepEqual(mode("hello there"), {
    value: "implement",
    reasons: [{ kind: "router-rule", rule: "no plan, review or investigation wording: the mode is implement" }],
  });
});

function rules(text: string, snap?: WorkspaceSnapshot): string[] {
  return intent(text, null, snap).risk.map((item) => `${item.rule}/${item.level}`);
}

test("risk: each named rule fires with the facts it rests on", () => {
  assert.deepEqual(rules("fix the auth token refresh"), ["security-signal/high"]);
  assert.deepEqual(rules("fix src/auth/session.ts"), ["security-sensitive-path/high"]);
  assert.deepEqual(rules("drop the old column from the database schema"), ["data-signal/high", "destructive-change/medium"]);
  assert.deepEqual(rules("deprecate the v1 API"), ["compatibility-signal/medium"]);
  assert.deepEqual(rules("fix webhook.ts asap"), ["hot-path-entity/medium", "urgent-change/medium"]);
  assert.deepEqual(rules("why is webhook.ts failing, asap"), ["hot-path-entity/medium"]);
  assert.deepEqual(rules("update AGENTS.md"), ["touches-rule-file/medium"]);
  assert.deepEqual(rules("bump package.json"), ["touches-manifest/medium"]);
  assert.deepEqual(rules("fix payments.ts"), ["unmatched-names/medium"]);
  assert.deepEqual(rules("fix index.ts"), ["ambiguous-names/medium"]);
  assert.deepEqual(rules("fix Makefile, package.json, AGENTS.md, src/web/server.ts and src/billing/invoice.ts"), [
    "many-entities/medium",
    "touches-manifest/medium",
    "touches-rule-file/medium",
  ]);
  // A name the task says to leave alone is not something it touches.
  assert.deepEqual(rules("fix the banner but don't touch webhook.ts"), []);
  const hot = intent("fix webhook.ts").risk.find((item) => item.rule === "hot-path-entity");
  assert.deepEqual(hot?.reasons, [
    { kind: "hot-path", path: "src/payments", hint: "payments: request path" },
    { kind: "snapshot-entity", entityKind: "file", value: "src/payments/webhook.ts", path: "src/payments/webhook.ts" },
  ]);
  const security = intent("harden the password reset").risk.find((item) => item.rule === "security-signal");
  assert.deepEqual(
    security?.reasons.map((reason) => (reason.kind === "task-span" ? reason.span.text : reason.kind)),
    ["password", "harden"],
  );
});

test("determinism: listing order of the snapshot does not change the intent", () => {
  const text = "fix index.ts and webhook.ts in Go, don't touch the billing module; review src/web later asap";
  const base = snapshot();
  const shuffled = snapshot({
    files: [...FILES].reverse(),
    modules: [...base.modules].reverse(),
    technologies: [...base.technologies].reverse(),
    directories: [...base.directories].reverse(),
  });
  assert.equal(canonicalize(intent(text, null, shuffled)), canonicalize(intent(text, null, base)));
  assert.equal(canonicalize(intent(text)), canonicalize(intent(text)));
});

test("property: deriveIntent accepts every valid task and every span indexes the task text", () => {
  const words = [
    "fix",
    "don't touch",
    "the",
    "billing module",
    "webhook.ts",
    "index.ts",
    "payments.ts",
    "Go",
    "going",
    "R",
    "without",
    "no",
    "leave",
    "alone",
    "결제 모듈은",
    "건드리지 마",
    "금지",
    "src/",
    ",",
    ".",
    "asap",
    "auth",
    "e.g.",
    "https://x.io/a",
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 25 }), fc.constantFrom<ExecutionMode | null>(null, "review", "plan-only"), (parts, mode) => {
      const task = parseTask(parts.join(" "));
      const result = IntentStage.parse(deriveIntent(task, snapshot(), mode));
      const spans = [
        ...result.entities.map((entity) => entity.span),
        ...result.unmatched.map((item) => item.span),
        ...result.ambiguous.map((item) => item.span),
        ...result.signals.flatMap((signal) => (signal.target === null ? [signal.span] : [signal.span, signal.target])),
        ...[...result.domain.reasons, ...result.executionMode.reasons, ...result.risk.flatMap((item) => item.reasons)].flatMap((reason) =>
          reason.kind === "task-span" ? [reason.span] : [],
        ),
      ];
      for (const span of spans) assert.equal(task.text.slice(span.start, span.end), span.text);
    }),
    { numRuns: 300 },
  );
});
