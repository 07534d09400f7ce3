// Router task sentences: realistic tasks (English and Korean, naming real files of a generated
// monorepo, "don't touch" signals, modes) edited with arbitrary Unicode — lone surrogates,
// controls, combining marks, right-to-left marks, text that grows under NFC, tasks at and past
// the length limit — planned against a real workspace snapshot and the bundled skills. A plan
// either comes back (the same plan for the same text) or is refused with a docket.* code; a
// docket.internal refusal is the Router saying it produced an invalid plan, so it is a failure.
import fc from "fast-check";
import { DocketError } from "../../../server/errors";
import { loadCatalogue } from "../../../server/router/catalogueFiles";
import { plan } from "../../../server/router/plan";
import { SnapshotCache } from "../../../server/router/snapshot/snapshotCache";
import { generateWorkspace } from "../../support/routerWorkspace";
import { mutateText, nastyString, textMutation, type TextMutation } from "./mutate";
import { checkRejectionMessage, preview, violation, type FuzzSubTarget } from "./subTarget";

interface TaskCase {
  readonly base: number;
  readonly mutations: readonly TextMutation[];
  readonly mode: "plan-only" | "implement" | "review" | "investigate" | null;
  readonly twice: boolean;
}

const TASKS = [
  "Fix the cache invalidation bug in packages/pkg-0000/src/module3.ts and add a regression test",
  "Refactor the parser in packages/pkg-0001/src/parser-1 without touching the tests",
  "Review the Go service in services/api/main.go for security problems",
  "Investigate why module12.ts is slow; don't change any files",
  "Rename value3 to total everywhere in pkg-0000",
  "packages/pkg-0000/src/module0.ts 에서 캐시 버그를 고치고 테스트를 추가해 주세요",
  "README.md 를 읽고 AGENTS.md 규칙에 맞게 문서를 갱신해",
  "Add a React component for the render-2 folder, then run npm test",
  "Plan only: split services/api into two modules",
  "x",
];

const FRAGMENTS = fc.constantFrom(
  " packages/pkg-0000/src/module1.ts",
  " services/api/go.mod",
  " don't touch packages/pkg-0001",
  " without tests",
  " nonexistent/file.ts",
  " module",
  " \u0000",
  "\r\n",
  "\t",
  "\u200b",
  "\u202e",
  "\ufeff",
  "\ud800",
  "e\u0301",
  "ﷺ",
  " ΐ".repeat(40),
  " 테스트",
  " 🙂",
  "\n- step one\n- step two",
  " ".repeat(3_990),
  "a".repeat(4_001),
);

export const tasksSubTarget: FuzzSubTarget<TaskCase> = {
  name: "router-tasks",
  runs: { short: 800, long: 100_000 },
  async prepare(context) {
    generateWorkspace(context.tmp, 60);
    const snapshot = await new SnapshotCache(context.tmp).get();
    const catalogue = loadCatalogue(context.tmp, context.repoRoot);
    const arbitrary = fc.record({
      base: fc.nat({ max: TASKS.length }),
      mutations: fc.array(textMutation(fc.oneof({ weight: 2, arbitrary: FRAGMENTS }, { weight: 1, arbitrary: nastyString })), { maxLength: 4 }),
      mode: fc.constantFrom(null, null, "plan-only" as const, "implement" as const, "review" as const, "investigate" as const),
      twice: fc.nat({ max: 3 }).map((draw) => draw === 0),
    });
    const taskOf = (value: TaskCase): string => mutateText(value.base === TASKS.length ? "" : (TASKS[value.base] as string), value.mutations);
    const planned = (task: string, mode: TaskCase["mode"]): string => {
      try {
        return plan(task, snapshot, catalogue, { mode, reports: [], ranChecks: [] }).planSha256;
      } catch (error) {
        if (!(error instanceof DocketError)) throw error;
        if (error.code === "docket.internal") violation(`the Router refused its own plan: ${error.message.slice(0, 400)}`);
        checkRejectionMessage(error.message, `the plan's ${error.code} refusal`);
        return `refused ${error.code}`;
      }
    };
    return {
      arbitrary,
      describe: (value) => `task ${preview(taskOf(value))}, mode ${value.mode ?? "derived"}`,
      check(value) {
        const task = taskOf(value);
        const first = planned(task, value.mode);
        if (value.twice) {
          const second = planned(task, value.mode);
          if (second !== first) violation(`the same task planned twice gave ${first} and ${second}`);
        }
      },
    };
  },
};
