// Stage 6, VERIFICATION (design router.md): the checks the plan requires, derived only from what
// the workspace declares (manifests, npm scripts, test files), one review check per seated
// reviewer, and the checks that ran — taken only from evidence the caller passes in, never assumed.
import { compareCodeUnits } from "../ledger/canonicalJson";
import type { CompositionStage, IntentStage, PlanOptions, Reason, SnapshotModule, VerificationStage, WorkspaceSnapshot } from "./planSchema";
import { isWithin, seatBoard } from "./reviewBoard";
import { isTestFile, touchedEntities } from "./reviewChecks";

type Check = VerificationStage["required"][number];
type CheckKind = Check["kind"];

/** npm script names per check kind, first declared wins (so `typecheck` beats `tsc`). */
const NPM_SCRIPTS: readonly { kind: CheckKind; scripts: readonly string[] }[] = [
  { kind: "test", scripts: ["test"] },
  { kind: "typecheck", scripts: ["typecheck", "type-check", "check-types", "tsc"] },
  { kind: "lint", scripts: ["lint"] },
  { kind: "build", scripts: ["build"] },
];

function moduleReason(module: SnapshotModule): Reason {
  return { kind: "snapshot-entity", entityKind: "module", value: module.name, path: module.manifest ?? (module.path === "." ? null : module.path) };
}

function rule(text: string): Reason {
  return { kind: "router-rule", rule: text };
}

/** A path as one POSIX shell word (quoted only when it needs to be). */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_./@:+-]+$/u.test(value) ? value : `'${value.replace(/'/gu, "'\\''")}'`;
}

function where(module: SnapshotModule): string {
  return module.path === "." ? "the workspace root" : module.path;
}

/** The root module(s) always; a nested module only when the task grounds something inside it (a monorepo's other packages are not this plan's business). */
function relevantModules(intent: IntentStage, snapshot: WorkspaceSnapshot): SnapshotModule[] {
  const entities = touchedEntities(intent);
  const touched = entities.filter((entity) => entity.kind !== "technology" && entity.path !== null).map((entity) => entity.path as string);
  const named = new Set(entities.filter((entity) => entity.kind === "module").map((entity) => entity.value));
  return snapshot.modules
    .filter((module) => module.kind !== "directory")
    .filter((module) => module.path === "." || named.has(module.name) || touched.some((path) => isWithin(path, module.path)))
    .sort((left, right) => compareCodeUnits(left.path, right.path) || compareCodeUnits(left.name, right.name) || compareCodeUnits(left.kind, right.kind));
}

function npmChecks(module: SnapshotModule): Check[] {
  const declared = new Set(module.scripts ?? []);
  const checks: Check[] = [];
  for (const { kind, scripts } of NPM_SCRIPTS) {
    const script = scripts.find((name) => declared.has(name));
    if (script === undefined) continue;
    const run = script === "test" ? "npm test" : `npm run ${script}`;
    const command = module.path === "." ? run : `npm --prefix ${shellWord(module.path)} ${script === "test" ? "test" : `run ${script}`}`;
    checks.push({
      checkId: `${kind}:npm:${module.path}:${script}`,
      kind,
      description: `Run the "${script}" script of ${module.name} (${where(module)}).`,
      command,
      reasons: [moduleReason(module), rule(`${module.manifest ?? "package.json"} declares the script "${script}"`)],
    });
  }
  return checks;
}

function pytestEvidence(module: SnapshotModule, snapshot: WorkspaceSnapshot): string | null {
  const inModule = (file: string): boolean => module.path === "." || isWithin(file, module.path);
  const technology = snapshot.technologies.find((item) => item.name.toLowerCase() === "pytest");
  if (technology !== undefined) return technology.sources[0] ?? "pytest";
  const config = snapshot.files.find((file) => inModule(file) && /(^|\/)(pytest\.ini|conftest\.py)$/u.test(file));
  if (config !== undefined) return config;
  return snapshot.files.find((file) => inModule(file) && file.endsWith(".py") && isTestFile(file)) ?? null;
}

function toolchainCheck(module: SnapshotModule, snapshot: WorkspaceSnapshot): Check | null {
  const root = module.path === ".";
  const manifest = module.manifest ?? module.path;
  const make = (command: string, because: string, evidence: Reason[] = []): Check => ({
    checkId: `test:${module.kind}:${module.path}`,
    kind: "test",
    description: `Run ${module.name}'s tests (${where(module)}).`,
    command,
    reasons: [moduleReason(module), rule(because), ...evidence],
  });
  switch (module.kind) {
    case "go-module":
      return make(root ? "go test ./..." : `go -C ${shellWord(module.path)} test ./...`, `${manifest} makes this a Go module: go test runs its tests`);
    case "cargo-crate":
      return make(root ? "cargo test" : `cargo test --manifest-path ${shellWord(manifest)}`, `${manifest} makes this a Cargo crate: cargo test runs its tests`);
    case "python-package": {
      // A pyproject alone does not say pytest is the runner; only a config, a dependency or pytest-style files do.
      const evidence = pytestEvidence(module, snapshot);
      if (evidence === null) return null;
      return make(root ? "pytest" : `pytest ${shellWord(module.path)}`, "pytest is evidenced for this Python package", [
        { kind: "snapshot-entity", entityKind: "file", value: evidence, path: snapshot.files.includes(evidence) ? evidence : null },
      ]);
    }
    case "maven-module":
      return make(root ? "mvn test" : `mvn -f ${shellWord(manifest)} test`, `${manifest} makes this a Maven module: mvn test runs its tests`);
    case "gradle-project": {
      const wrapper = root ? "gradlew" : `${module.path}/gradlew`;
      const hasWrapper = snapshot.files.includes(wrapper);
      const command = hasWrapper ? (root ? "./gradlew test" : `./${shellWord(wrapper)} -p ${shellWord(module.path)} test`) : root ? "gradle test" : `gradle -p ${shellWord(module.path)} test`;
      return make(command, `${manifest} makes this a Gradle project: the test task runs its tests`);
    }
    case "dotnet-project":
      return make(`dotnet test ${shellWord(manifest)}`, `${manifest} makes this a .NET project: dotnet test runs its tests`);
    case "npm-package":
    case "directory":
      return null;
  }
}

function gateChecks(composition: CompositionStage): Check[] {
  return composition.gates
    .filter((gate) => gate.kind === "authorization")
    .map((gate) => ({
      checkId: `gate:authorization:${gate.afterGroup}`,
      kind: "manual" as const,
      description: gate.description,
      command: null,
      reasons: [rule(`the composition puts an authorization gate after group ${gate.afterGroup}`)],
    }));
}

export function planVerification(intent: IntentStage, composition: CompositionStage, snapshot: WorkspaceSnapshot, options: PlanOptions): VerificationStage {
  const required: Check[] = [];
  const modules = relevantModules(intent, snapshot);
  for (const module of modules) {
    if (module.kind === "npm-package") required.push(...npmChecks(module));
    const check = toolchainCheck(module, snapshot);
    if (check !== null) required.push(check);
  }
  if (!required.some((check) => check.kind === "test")) {
    // Say exactly what is not known: a snapshot that did not record a package's scripts is not a package without a test script.
    const unrecorded = modules.filter((module) => module.kind === "npm-package" && module.scripts === undefined);
    required.push({
      checkId: "manual:verify",
      kind: "manual",
      description: "No test command is declared for the touched modules: verify the result by hand and record what was checked.",
      command: null,
      reasons: [
        rule("no manifest or script declares a test command for the touched modules"),
        ...unrecorded.map((module) => rule(`the snapshot does not record the scripts of ${module.manifest ?? module.path}`)),
      ],
    });
  }
  required.push(...gateChecks(composition));
  for (const seat of seatBoard(intent, snapshot)) {
    required.push({
      checkId: `review:${seat.reviewer}`,
      kind: "review",
      description: `The ${seat.reviewer} seat of the Review Board reports on this plan's basis.`,
      command: null,
      reasons: seat.reasons,
    });
  }
  const unique = new Map<string, Check>();
  for (const check of required) if (!unique.has(check.checkId)) unique.set(check.checkId, check);

  // Only evidence counts: a ran check without an evidence string is not a ran check. The last
  // record per check id wins (a re-run replaces an earlier result).
  const ran = new Map<string, VerificationStage["ran"][number]>();
  for (const item of options.ranChecks) {
    if (item.evidence.trim() === "") continue;
    ran.set(item.checkId, { checkId: item.checkId, evidence: item.evidence, passed: item.passed });
  }
  const ranList = [...ran.values()].sort((left, right) => compareCodeUnits(left.checkId, right.checkId));
  return {
    required: [...unique.values()],
    ran: ranList,
    pending: [...unique.keys()].filter((id) => !ran.has(id)).sort(compareCodeUnits),
  };
}
