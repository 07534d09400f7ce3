// Manifest readers: which modules a manifest declares and which technologies it evidences. Pure
// (text in, facts out); a manifest that cannot be understood yields a `problem`, never a throw.
// Monorepo members (npm/yarn/pnpm workspaces, Cargo `[workspace] members`, Maven `<modules>`) are
// found through their own manifests, which the file list already contains; Gradle's
// `settings.gradle` `include` is the exception, since members need not have a build file.
import { compareCodeUnits } from "../../ledger/canonicalJson";
import * as z from "zod";
import type { SnapshotModule } from "../planSchema";
import {
  CARGO_TECHNOLOGIES,
  COMPOSER_TECHNOLOGIES,
  GEM_TECHNOLOGIES,
  GO_TECHNOLOGIES,
  MANIFEST_LANGUAGE,
  NPM_TECHNOLOGIES,
  PYTHON_TECHNOLOGIES,
  normalizePythonName,
} from "./technologies";
import { readTomlManifest, tomlKeysAt, tomlStringAt, tomlStrings, tomlTableAt, type TomlTable } from "./toml";

export type ManifestKind =
  | "package.json"
  | "go.mod"
  | "Cargo.toml"
  | "pyproject.toml"
  | "requirements"
  | "setup.py"
  | "pom.xml"
  | "gradle-build"
  | "gradle-settings"
  | "csproj"
  | "Gemfile"
  | "composer.json"
  | "DESCRIPTION";

export interface ManifestFacts {
  readonly modules: readonly SnapshotModule[];
  readonly technologies: readonly string[];
  /** Why the manifest could not be read (it still evidences its language). */
  readonly problem: string | null;
}

function base(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? path : path.slice(slash + 1);
}

function folder(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "." : path.slice(0, slash);
}

/** The manifest kind of a file name, or null when it is not a manifest. */
export function manifestKind(path: string): ManifestKind | null {
  const name = base(path);
  switch (name) {
    case "package.json":
    case "go.mod":
    case "Cargo.toml":
    case "pyproject.toml":
    case "setup.py":
    case "pom.xml":
    case "Gemfile":
    case "composer.json":
    case "DESCRIPTION":
      return name;
    case "build.gradle":
    case "build.gradle.kts":
      return "gradle-build";
    case "settings.gradle":
    case "settings.gradle.kts":
      return "gradle-settings";
    default:
      if (/^requirements[\w.-]*\.txt$/u.test(name)) return "requirements";
      if (name.endsWith(".csproj") && name.length > ".csproj".length) return "csproj";
      return null;
  }
}

function lookup(table: Readonly<Record<string, string>>, name: string): string | null {
  return Object.prototype.hasOwnProperty.call(table, name) ? (table[name] as string) : null;
}

function module(path: string, name: string, kind: SnapshotModule["kind"], manifest: string): SnapshotModule {
  return { name, path: folder(path), kind, manifest };
}

const PackageJson = z.looseObject({
  name: z.string().optional().catch(undefined),
  dependencies: z.record(z.string(), z.unknown()).optional().catch(undefined),
  devDependencies: z.record(z.string(), z.unknown()).optional().catch(undefined),
  peerDependencies: z.record(z.string(), z.unknown()).optional().catch(undefined),
  optionalDependencies: z.record(z.string(), z.unknown()).optional().catch(undefined),
  engines: z.record(z.string(), z.unknown()).optional().catch(undefined),
  scripts: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function packageJson(path: string, text: string): ManifestFacts {
  const parsed = parseJson(text);
  const result = parsed.ok ? PackageJson.safeParse(parsed.value) : null;
  if (result === null || !result.success) return { modules: [], technologies: ["JavaScript"], problem: "package.json is not a JSON object" };
  const value = result.data;
  const technologies = ["JavaScript"];
  for (const table of [value.dependencies, value.devDependencies, value.peerDependencies, value.optionalDependencies]) {
    for (const name of Object.keys(table ?? {})) {
      const technology = lookup(NPM_TECHNOLOGIES, name);
      if (technology !== null) technologies.push(technology);
    }
  }
  if (value.engines !== undefined && Object.prototype.hasOwnProperty.call(value.engines, "node")) technologies.push("Node.js");
  // A root package without a name is only a workspace container; a nested one is named by its folder.
  const name = value.name !== undefined && value.name.length > 0 ? value.name : folder(path) === "." ? null : base(folder(path));
  // Script names tell the plan which checks the project declares (npm test, npm run lint, …).
  const scripts = Object.keys(value.scripts ?? {}).sort(compareCodeUnits);
  return { modules: name === null ? [] : [{ ...module(path, name, "npm-package", path), scripts }], technologies, problem: null };
}

function goMod(path: string, text: string): ManifestFacts {
  const technologies = ["Go"];
  const declared = /^\s*module\s+("?)([^\s"]+)\1\s*$/mu.exec(text);
  const required: string[] = [];
  let inBlock = false;
  for (const raw of text.split(/\r?\n/u)) {
    const line = raw.replace(/\/\/.*$/u, "").trim();
    if (inBlock) {
      if (line === ")") inBlock = false;
      else if (line !== "") required.push(line.split(/\s+/u)[0] ?? "");
    } else if (/^require\s*\($/u.test(line)) inBlock = true;
    else if (line.startsWith("require ")) required.push(line.slice("require ".length).trim().split(/\s+/u)[0] ?? "");
  }
  for (const dependency of required) {
    for (const [prefix, technology] of Object.entries(GO_TECHNOLOGIES)) {
      if (dependency === prefix || dependency.startsWith(`${prefix}/`)) technologies.push(technology);
    }
  }
  if (declared === null) return { modules: [], technologies, problem: "go.mod has no module line" };
  return { modules: [module(path, declared[2] as string, "go-module", path)], technologies, problem: null };
}

const CARGO_DEPENDENCY_KINDS = ["dependencies", "dev-dependencies", "build-dependencies"] as const;

/** Crate names from `[dependencies]` (and dev-, build-), `[workspace.dependencies]` and `[target.<cfg>.dependencies]`. */
function cargoDependencies(manifest: TomlTable): string[] {
  const scopes: TomlTable[] = [manifest];
  const workspace = tomlTableAt(manifest, "workspace");
  if (workspace !== null) scopes.push(workspace);
  for (const platform of tomlKeysAt(manifest, "target")) {
    const scope = tomlTableAt(manifest, "target", platform);
    if (scope !== null) scopes.push(scope);
  }
  return scopes.flatMap((scope) => CARGO_DEPENDENCY_KINDS.flatMap((kind) => tomlKeysAt(scope, kind)));
}

function cargoToml(path: string, text: string): ManifestFacts {
  const technologies = ["Rust"];
  const read = readTomlManifest(text, "Cargo.toml");
  if (!read.ok) return { modules: [], technologies, problem: read.problem };
  for (const dependency of cargoDependencies(read.value)) {
    const technology = lookup(CARGO_TECHNOLOGIES, dependency);
    if (technology !== null) technologies.push(technology);
  }
  const name = tomlStringAt(read.value, "package", "name");
  // A virtual manifest (only `[workspace]`) declares members, each with its own Cargo.toml.
  return { modules: name === null ? [] : [module(path, name, "cargo-crate", path)], technologies, problem: null };
}

function pythonTechnologies(requirements: readonly string[]): string[] {
  const found = ["Python"];
  for (const requirement of requirements) {
    const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/u.exec(requirement)?.[1];
    if (name === undefined) continue;
    const technology = lookup(PYTHON_TECHNOLOGIES, normalizePythonName(name));
    if (technology !== null) found.push(technology);
  }
  return found;
}

/** PEP 621 requirements (`project.dependencies`, every optional group) and Poetry's dependency names. */
function pythonRequirements(manifest: TomlTable): string[] {
  const requirements = tomlStrings(tomlTableAt(manifest, "project")?.["dependencies"]);
  const optional = tomlTableAt(manifest, "project", "optional-dependencies");
  for (const group of Object.values(optional ?? {})) requirements.push(...tomlStrings(group));
  requirements.push(...tomlKeysAt(manifest, "tool", "poetry", "dependencies"), ...tomlKeysAt(manifest, "tool", "poetry", "dev-dependencies"));
  for (const group of tomlKeysAt(manifest, "tool", "poetry", "group")) requirements.push(...tomlKeysAt(manifest, "tool", "poetry", "group", group, "dependencies"));
  return requirements;
}

function pyprojectToml(path: string, text: string): ManifestFacts {
  const read = readTomlManifest(text, "pyproject.toml");
  if (!read.ok) return { modules: [], technologies: pythonTechnologies([]), problem: read.problem };
  const name = tomlStringAt(read.value, "project", "name") ?? tomlStringAt(read.value, "tool", "poetry", "name");
  return { modules: name === null ? [] : [module(path, name, "python-package", path)], technologies: pythonTechnologies(pythonRequirements(read.value)), problem: null };
}

function requirementsTxt(text: string): ManifestFacts {
  const lines = text.split(/\r?\n/u).filter((line) => !/^\s*(?:#|-)/u.test(line));
  return { modules: [], technologies: pythonTechnologies(lines), problem: null };
}

function setupPy(path: string, text: string): ManifestFacts {
  const name = /\bname\s*=\s*["']([^"'\s]+)["']/u.exec(text)?.[1];
  const requires = /install_requires\s*=\s*\[([^\]]*)\]/u.exec(text)?.[1] ?? "";
  const requirements = [...requires.matchAll(/["']([^"']+)["']/gu)].map((match) => match[1] as string);
  return { modules: name === undefined ? [] : [module(path, name, "python-package", path)], technologies: pythonTechnologies(requirements), problem: null };
}

function pomXml(path: string, text: string): ManifestFacts {
  const technologies = ["Java"];
  const withoutComments = text.replace(/<!--[\s\S]*?-->/gu, "");
  if (/spring-boot/u.test(withoutComments)) technologies.push("Spring Boot");
  if (/kotlin-maven-plugin|kotlin-stdlib/u.test(withoutComments)) technologies.push("Kotlin");
  // The project's own artifactId is the first one outside <parent>; dependencies come later.
  const own = withoutComments.replace(/<parent>[\s\S]*?<\/parent>/u, "");
  const artifact = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/u.exec(own)?.[1];
  if (artifact === undefined) return { modules: [], technologies, problem: "pom.xml has no artifactId" };
  return { modules: [module(path, artifact, "maven-module", path)], technologies, problem: null };
}

function gradleTechnologies(text: string): string[] {
  const found: string[] = [];
  if (/kotlin/u.test(text)) found.push("Kotlin");
  if (/\bjava\b|java-library|\bapplication\b/u.test(text)) found.push("Java");
  if (/org\.springframework\.boot|spring-boot/u.test(text)) found.push("Spring Boot");
  return found;
}

function gradleBuild(path: string, text: string): ManifestFacts {
  const dir = folder(path);
  // The root project's name lives in settings.gradle (read there); a subproject is named by its folder.
  const modules = dir === "." ? [] : [module(path, base(dir), "gradle-project", path)];
  return { modules, technologies: gradleTechnologies(text), problem: null };
}

function gradleSettings(path: string, text: string): ManifestFacts {
  const dir = folder(path);
  const modules: SnapshotModule[] = [];
  const rootName = /rootProject\.name\s*=\s*["']([^"']+)["']/u.exec(text)?.[1];
  if (rootName !== undefined) modules.push({ name: rootName, path: dir, kind: "gradle-project", manifest: path });
  for (const statement of text.matchAll(/^\s*include\s*\(?([^\n)]*)\)?/gmu)) {
    for (const quoted of (statement[1] ?? "").matchAll(/["']:?([^"']+)["']/gu)) {
      const segments = (quoted[1] as string).split(":").filter((segment) => segment.length > 0);
      if (segments.length === 0) continue;
      const relative = segments.join("/");
      modules.push({ name: segments[segments.length - 1] as string, path: dir === "." ? relative : `${dir}/${relative}`, kind: "gradle-project", manifest: path });
    }
  }
  return { modules, technologies: gradleTechnologies(text), problem: null };
}

function csproj(path: string, text: string): ManifestFacts {
  const technologies = ["C#"];
  if (/Microsoft\.NET\.Sdk\.Web|Microsoft\.AspNetCore/u.test(text)) technologies.push("ASP.NET Core");
  const name = base(path).slice(0, -".csproj".length);
  return { modules: [module(path, name, "dotnet-project", path)], technologies, problem: null };
}

function gemfile(text: string): ManifestFacts {
  const technologies = ["Ruby"];
  for (const match of text.matchAll(/^\s*gem\s+["']([^"']+)["']/gmu)) {
    const technology = lookup(GEM_TECHNOLOGIES, match[1] as string);
    if (technology !== null) technologies.push(technology);
  }
  return { modules: [], technologies, problem: null };
}

const ComposerJson = z.looseObject({
  require: z.record(z.string(), z.unknown()).optional().catch(undefined),
  "require-dev": z.record(z.string(), z.unknown()).optional().catch(undefined),
});

function composerJson(text: string): ManifestFacts {
  const parsed = parseJson(text);
  const result = parsed.ok ? ComposerJson.safeParse(parsed.value) : null;
  if (result === null || !result.success) return { modules: [], technologies: ["PHP"], problem: "composer.json is not a JSON object" };
  const technologies = ["PHP"];
  for (const name of [...Object.keys(result.data.require ?? {}), ...Object.keys(result.data["require-dev"] ?? {})]) {
    const vendor = name.includes("/") ? `${name.slice(0, name.indexOf("/"))}/` : name;
    const technology = lookup(COMPOSER_TECHNOLOGIES, name) ?? lookup(COMPOSER_TECHNOLOGIES, vendor);
    if (technology !== null) technologies.push(technology);
  }
  return { modules: [], technologies, problem: null };
}

function description(text: string): ManifestFacts {
  // Only an R package DESCRIPTION (a `Package:` field) evidences R; other DESCRIPTION files are prose.
  return { modules: [], technologies: /^Package:\s*\S/mu.test(text) ? ["R"] : [], problem: null };
}

/** Reads one manifest's text. */
export function readManifest(path: string, kind: ManifestKind, text: string): ManifestFacts {
  switch (kind) {
    case "package.json":
      return packageJson(path, text);
    case "go.mod":
      return goMod(path, text);
    case "Cargo.toml":
      return cargoToml(path, text);
    case "pyproject.toml":
      return pyprojectToml(path, text);
    case "requirements":
      return requirementsTxt(text);
    case "setup.py":
      return setupPy(path, text);
    case "pom.xml":
      return pomXml(path, text);
    case "gradle-build":
      return gradleBuild(path, text);
    case "gradle-settings":
      return gradleSettings(path, text);
    case "csproj":
      return csproj(path, text);
    case "Gemfile":
      return gemfile(text);
    case "composer.json":
      return composerJson(text);
    case "DESCRIPTION":
      return description(text);
  }
}

/** The language a manifest evidences even when it cannot be read (e.g. not UTF-8). */
export function manifestLanguage(kind: ManifestKind): string | null {
  if (kind === "gradle-build" || kind === "gradle-settings" || kind === "DESCRIPTION") return null;
  return lookup(MANIFEST_LANGUAGE, kind);
}
