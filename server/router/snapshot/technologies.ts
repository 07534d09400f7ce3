// The technology table: canonical spellings (the ones a person types and the matcher compares
// case-exactly for short names such as "Go" and "R") and what evidences each. Deliberately modest:
// a wrong technology misroutes a plan, a missing one only weakens it.

/** File extensions (lower case, without the dot) that evidence a language. */
export const EXTENSION_TECHNOLOGIES: Readonly<Record<string, string>> = {
  ts: "TypeScript",
  tsx: "TypeScript",
  mts: "TypeScript",
  cts: "TypeScript",
  js: "JavaScript",
  jsx: "JavaScript",
  mjs: "JavaScript",
  cjs: "JavaScript",
  go: "Go",
  rs: "Rust",
  py: "Python",
  java: "Java",
  kt: "Kotlin",
  kts: "Kotlin",
  cs: "C#",
  rb: "Ruby",
  php: "PHP",
  r: "R",
  swift: "Swift",
  cpp: "C++",
  cc: "C++",
  cxx: "C++",
  hpp: "C++",
  vue: "Vue",
  svelte: "Svelte",
};

/** Whole file names that evidence a technology without being read. */
export const NAME_TECHNOLOGIES: Readonly<Record<string, string>> = {
  "tsconfig.json": "TypeScript",
  Dockerfile: "Docker",
  "docker-compose.yml": "Docker",
  "docker-compose.yaml": "Docker",
  "compose.yaml": "Docker",
};

/** Files evidencing a technology by extension: the first few by code-unit order are cited. */
export const MAX_EXTENSION_SOURCES = 3;

/** npm dependency names (dependencies, devDependencies, peerDependencies, optionalDependencies). */
export const NPM_TECHNOLOGIES: Readonly<Record<string, string>> = {
  typescript: "TypeScript",
  react: "React",
  "react-dom": "React",
  next: "Next.js",
  vue: "Vue",
  nuxt: "Nuxt",
  "@angular/core": "Angular",
  svelte: "Svelte",
  express: "Express",
  fastify: "Fastify",
  koa: "Koa",
  "@nestjs/core": "NestJS",
  electron: "Electron",
  jest: "Jest",
  vitest: "Vitest",
  mocha: "Mocha",
  "@playwright/test": "Playwright",
  "@types/node": "Node.js",
};

/** Python distribution names, normalized (lower case, runs of `-_.` as `-`). */
export const PYTHON_TECHNOLOGIES: Readonly<Record<string, string>> = {
  django: "Django",
  flask: "Flask",
  fastapi: "FastAPI",
  pytest: "pytest",
  numpy: "NumPy",
  pandas: "pandas",
  torch: "PyTorch",
  tensorflow: "TensorFlow",
};

/** Go module paths (a required module or one of its sub-paths). */
export const GO_TECHNOLOGIES: Readonly<Record<string, string>> = {
  "github.com/gin-gonic/gin": "Gin",
  "github.com/labstack/echo": "Echo",
  "github.com/gofiber/fiber": "Fiber",
};

/** Cargo crate names. */
export const CARGO_TECHNOLOGIES: Readonly<Record<string, string>> = {
  tokio: "Tokio",
  "actix-web": "Actix Web",
  axum: "Axum",
  rocket: "Rocket",
};

/** Gemfile gems. */
export const GEM_TECHNOLOGIES: Readonly<Record<string, string>> = {
  rails: "Rails",
  sinatra: "Sinatra",
  rspec: "RSpec",
};

/** composer.json packages (`vendor/name`; a vendor alone ends in `/`). */
export const COMPOSER_TECHNOLOGIES: Readonly<Record<string, string>> = {
  "laravel/framework": "Laravel",
  "symfony/": "Symfony",
};

/** The language a manifest itself evidences. */
export const MANIFEST_LANGUAGE: Readonly<Record<string, string>> = {
  "package.json": "JavaScript",
  "go.mod": "Go",
  "Cargo.toml": "Rust",
  "pyproject.toml": "Python",
  "setup.py": "Python",
  requirements: "Python",
  "pom.xml": "Java",
  csproj: "C#",
  Gemfile: "Ruby",
  "composer.json": "PHP",
  DESCRIPTION: "R",
};

/** Python distribution-name normalization (PEP 503), so `Django` and `django_` style names agree. */
export function normalizePythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/gu, "-");
}
