// Differential check of Observer replay against the reference (docs/observer-replay.md "Checking
// against the reference"). Not part of `npm test`: it needs a checkout of github.com/dev-hobin/agent.
//
// Usage: node scripts/observer-differential.mjs --reference DIR [--seed N] [--count N] [--memo] [--out DIR]
//   DIR    a checkout (or `git archive`) of dev-hobin/agent with packages/observer and packages/judgment
//   --out  where Docket was compiled (default out)
//   --seed the first mutation seed (default 1); --count mutants per run (default 3000)
//   --memo mutate only Memo entries (prepared pass, applied pass, acknowledgement)
//
// It bundles the reference's `reconstructObservationSession` with esbuild (its TypeBox and XState
// imports, which replay never calls, are replaced by inert stand-ins), compiles nothing itself —
// run `npx tsc -p tsconfig.json --outDir out` (or --out's folder) first — and replays the valid logs of
// test/support/observerLog.ts `differentialScenarios()` and seeded random mutants of them
// (entries dropped, repeated, swapped, inserted, values edited, digests recomputed) through both,
// comparing every issue (position and code) and every snapshot field. Exit 1 on any difference.
import * as esbuild from "esbuild";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const require = createRequire(import.meta.url);

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
}

const reference = option("reference", undefined);
if (reference === undefined || !fs.existsSync(path.join(reference, "packages", "observer", "src", "observation-session.ts"))) {
  console.error("usage: node scripts/observer-differential.mjs --reference DIR (a dev-hobin/agent checkout) [--seed N] [--count N] [--memo]");
  process.exit(2);
}
const seedStart = Number(option("seed", "1"));
const count = Number(option("count", "3000"));
const memoOnly = process.argv.includes("--memo");

// --- the reference, bundled -------------------------------------------------------------------
const work = fs.mkdtempSync(path.join(os.tmpdir(), "docket-observer-reference-"));
const inert = `const handler = { get: (_t, key) => (key === "__esModule" ? true : key === "then" ? undefined : inert), apply: () => inert, construct: () => inert, has: () => true };
const inert = new Proxy(function () {}, handler);
module.exports = { __esModule: true, Type: inert, Errors: inert, Parse: inert, setup: inert, transition: inert, default: inert };
`;
fs.mkdirSync(path.join(work, "inert"));
fs.writeFileSync(path.join(work, "inert", "index.js"), inert);
fs.writeFileSync(path.join(work, "inert", "value.js"), inert);
fs.writeFileSync(path.join(work, "entry.ts"), `export { reconstructObservationSession } from ${JSON.stringify(path.resolve(reference, "packages/observer/src/observation-session.ts"))};\n`);
await esbuild.build({
  entryPoints: [path.join(work, "entry.ts")],
  outfile: path.join(work, "reference.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  logLevel: "error",
  nodePaths: [path.join(root, "node_modules")],
  alias: {
    "@hobin/judgment": path.resolve(reference, "packages/judgment/src/index.ts"),
    typebox: path.join(work, "inert"),
    xstate: path.join(work, "inert"),
  },
});
const { reconstructObservationSession } = require(path.join(work, "reference.cjs"));

// --- Docket, compiled ------------------------------------------------------------------------
const out = path.resolve(root, option("out", "out"));
const { replayObservationSession } = require(path.join(out, "server/observer/observationSession.js"));
const support = require(path.join(out, "test/support/observerLog.js"));

function view(snapshot) {
  const episode = snapshot.lifecycle.episode;
  const ids = (values, key) => values.map((value) => value[key]);
  return {
    issues: snapshot.issues.map((issue) => [issue.index, issue.code]),
    mode: snapshot.lifecycle.mode,
    episodeStatus: episode.status,
    episodeId: episode.status === "empty" ? null : episode.core.episodeId,
    candidates: ids(snapshot.candidates, "candidateId"),
    sourceReads: ids(snapshot.sourceReads, "readId"),
    hydrations: ids(snapshot.hydrations, "hydrationId"),
    observations: ids(snapshot.observations, "observationId"),
    userHypotheses: ids(snapshot.userHypotheses, "observationId"),
    hypothesisReviews: ids(snapshot.hypothesisReviews, "hypothesisObservationId"),
    pendingHypothesisReviews: ids(snapshot.pendingHypothesisReviews, "observationId"),
    memoRequests: ids(snapshot.memoRequests, "requestId"),
    pendingMemoRequest: snapshot.pendingMemoRequest === null ? null : snapshot.pendingMemoRequest.requestId,
    reviewSaveContinuations: ids(snapshot.reviewSaveContinuations, "memoRequestId"),
    // Every field, in a fixed order (the reference and Docket build these objects independently).
    pendingHypotheses: snapshot.pendingHypotheses.map((item) => [item.inquiryId, item.observationId, item.origin, item.original, item.current, item.context, item.sourceReadId]),
    consumedObservationIds: snapshot.consumedObservationIds,
    unconsumedObservationIds: snapshot.unconsumedObservationIds,
    workingSourceBases: snapshot.workingSourceBases.map((basis) => [basis.sourceId, basis.path, basis.sha256]),
  };
}

const asDocket = (entries) => entries.map((entry) => (entry.type === "custom" && typeof entry.customType === "string" ? { custom: true, customType: entry.customType, data: entry.data } : { custom: false }));

// --- mutants (a small linear congruential generator: the same seed gives the same mutants) ---
let state = seedStart;
const random = () => ((state = (state * 1103515245 + 12345) % 2147483648), state / 2147483648);
const pick = (values) => values[Math.floor(random() * values.length)];
const copy = (value) => JSON.parse(JSON.stringify(value));
const { id, sha } = support;
const insertions = () => [
  support.modeOn(),
  support.modeOff(),
  support.opened(),
  support.opened("episode-other"),
  support.lifecycle({ kind: "save-proposed", proposalId: "p", summary: "s" }),
  support.lifecycle({ kind: "save-cancelled", proposalId: "p" }),
  support.reviewRequested(id("material-review-", 312)),
  support.reviewCancelled(id("material-review-", 312)),
  { type: "message" },
];
/** Edits of a string: broken text, other Episodes, and typed ids of every kind (known and unknown). */
const replacements = (text) => [
  `${text} `,
  "",
  text.toUpperCase(),
  text.replace(/\d$/u, "9"),
  support.EPISODE,
  "episode-other",
  null,
  sha("x"),
  ...[
    ["observation-", 305],
    ["observation-", 306],
    ["memo-request-", 307],
    ["candidate-", 301],
    ["candidate-", 302],
    ["source-read-", 303],
    ["hydration-", 304],
    ["inquiry-", 3],
    ["inquiry-", 777],
    ["material-review-", 312],
    ["memo-working-revision-", 310],
  ].map(([prefix, n]) => id(prefix, n)),
  // A typed id is most often replaced by another well-formed id of its own kind.
  ...(/^[a-z-]+-[0-9a-f]{8}-[0-9a-f]{4}-4/u.test(text) ? Array.from({ length: 8 }, (_, n) => id(text.slice(0, text.length - 36), n % 2 === 0 ? 777 : 3)) : []),
];

function edit(value) {
  if (Array.isArray(value)) {
    if (value.length === 0 || random() < 0.2) return random() < 0.5 ? [] : [...value, ...value.slice(0, 1)];
    if (random() < 0.3) return [...value].reverse();
    const next = [...value];
    const index = Math.floor(random() * next.length);
    next[index] = edit(next[index]);
    return next;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return value;
    const key = pick(keys);
    const next = { ...value };
    const roll = random();
    if (roll < 0.1) delete next[key];
    else if (roll < 0.15) next.extra = 1;
    else next[key] = edit(next[key]);
    return next;
  }
  if (typeof value === "string") return pick(replacements(value));
  if (typeof value === "number") return pick([value + 1, -1, 1.5, "1"]);
  if (typeof value === "boolean") return !value;
  return pick(["x", 0, {}]);
}

/** The same observation event under a fresh identity (re-digested): a second read of the same
 * candidates, a second observation of one read, another request over the same observations… */
let fresh = 9000;
function renamed(entry) {
  const { event_digest: _digest, ...payload } = entry.data;
  const key = ["candidate_id", "read_id", "hydration_id", "observation_id", "request_id"].find((name) => typeof payload[name] === "string" && !(name === "read_id" && payload.kind !== "source-read-recorded"));
  if (key === undefined) return copy(entry);
  const prefix = payload[key].slice(0, payload[key].length - 36);
  fresh += 1;
  const next = { ...payload, [key]: id(prefix, fresh) };
  return { ...entry, data: { ...next, event_digest: sha(JSON.stringify(next)) } };
}

function mutant(entries) {
  const next = copy(entries);
  const changes = 1 + Math.floor(random() * 3);
  for (let change = 0; change < changes; change += 1) {
    const roll = random();
    const index = Math.floor(random() * next.length);
    if (roll < 0.2) next.splice(index, 1);
    else if (roll < 0.35) next.splice(Math.floor(random() * (next.length + 1)), 0, copy(next[index]));
    else if (roll < 0.5) {
      const other = Math.floor(random() * next.length);
      [next[index], next[other]] = [next[other], next[index]];
    } else if (roll < 0.6) next.splice(Math.floor(random() * (next.length + 1)), 0, pick(insertions()));
    else if (roll < 0.7 && next[index]?.customType === "observer.observation") next.splice(index + 1 + Math.floor(random() * (next.length - index)), 0, renamed(next[index]));
    else if (next[index]?.type === "custom") {
      let data = edit(next[index].data);
      // Recompute the digest most of the time so the deeper rules are reached, not only the digest check.
      if (next[index].customType === "observer.observation" && data !== null && typeof data === "object" && !Array.isArray(data) && random() < 0.6) {
        const { event_digest: _digest, ...payload } = data;
        data = { ...payload, event_digest: sha(JSON.stringify(payload)) };
      }
      next[index] = { ...next[index], data };
    }
  }
  return next;
}

function memoMutant(entries) {
  const next = copy(entries);
  const targets = next.flatMap((entry, index) =>
    entry.customType === "observer.memo-pass" || entry.customType === "observer.prepared-memo-pass" || (entry.customType === "observer.lifecycle" && entry.data.kind === "memo-reconciled") ? [index] : [],
  );
  const index = pick(targets);
  const roll = random();
  if (roll < 0.15) next.splice(index, 1);
  else if (roll < 0.3) next.splice(Math.floor(random() * (next.length + 1)), 0, copy(next[index]));
  else next[index] = { ...next[index], data: edit(next[index].data) };
  return next;
}

// --- compare ---------------------------------------------------------------------------------
const scenarios = support.differentialScenarios();
let compared = 0;
let withIssues = 0;
let differences = 0;
function compare(entries, label) {
  const theirs = JSON.stringify(view(reconstructObservationSession(entries)));
  const ours = JSON.stringify(view(replayObservationSession(asDocket(entries))));
  compared += 1;
  if (JSON.parse(theirs).issues.length > 0) withIssues += 1;
  if (theirs === ours) return;
  differences += 1;
  if (differences <= 5) {
    const file = path.join(work, `difference-${differences}.json`);
    fs.writeFileSync(file, JSON.stringify(entries));
    console.log(`difference in ${label} (log: ${file})\n  reference: ${theirs}\n  docket:    ${ours}`);
  }
}
scenarios.forEach((entries, n) => {
  compare(entries, `scenario ${n}`);
  if (JSON.parse(JSON.stringify(view(reconstructObservationSession(entries)))).issues.length > 0) console.log(`note: scenario ${n} has issues in the reference`);
});
// A deterministic sweep first: every field of every entry of every scenario, one alternative value
// at a time (observation events re-digested), so each rule is reached with a well-formed event.
const TYPED_ID = /^([a-z-]+-)[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;
function alternatives(value, depth = 0) {
  if (typeof value === "string") {
    const typed = TYPED_ID.exec(value);
    if (typed !== null) return [id(typed[1], 777), id(typed[1], 3)];
    if (/^[0-9a-f]{64}$/u.test(value)) return [sha("x")];
    return [`${value} `, "episode-other", `${value}.`];
  }
  if (typeof value === "number") return [value + 1];
  if (typeof value === "boolean") return [!value];
  if (value === null) return ["x"];
  if (Array.isArray(value)) {
    const typed = value.length > 0 && typeof value[0] === "string" ? TYPED_ID.exec(value[0]) : null;
    return [[], [...value].reverse(), value.slice(1), ...(typed === null ? [] : [[...value, id(typed[1], 777)], value.map(() => id(typed[1], 777))])];
  }
  if (depth > 1) return [];
  return Object.keys(value).flatMap((key) => alternatives(value[key], depth + 1).map((alternative) => ({ ...value, [key]: alternative })));
}
function sweep(entries) {
  const mutants = [];
  entries.forEach((entry, index) => {
    if (entry.type !== "custom") return;
    const observationEntry = entry.customType === "observer.observation";
    const { event_digest: _digest, ...payload } = entry.data;
    const body = observationEntry ? payload : entry.data;
    for (const key of Object.keys(body)) {
      for (const alternative of alternatives(body[key])) {
        const next = { ...body, [key]: alternative };
        const data = observationEntry ? { ...next, event_digest: sha(JSON.stringify(next)) } : next;
        mutants.push(entries.map((other, position) => (position === index ? { ...entry, data } : other)));
      }
    }
  });
  return mutants;
}
scenarios.forEach((entries, n) => sweep(entries).forEach((entries, k) => compare(entries, `sweep ${k} of scenario ${n}`)));

const memoScenarios = scenarios.filter((entries) => entries.some((entry) => entry.customType === "observer.memo-pass"));
for (let k = 0; k < count; k += 1) {
  if (memoOnly) compare(memoMutant(memoScenarios[k % memoScenarios.length]), `Memo mutant ${k}`);
  else compare(mutant(scenarios[k % scenarios.length]), `mutant ${k}`);
}
console.log(`observer differential (seed ${seedStart}${memoOnly ? ", Memo entries" : ""}): ${compared} logs, ${withIssues} with issues, ${differences} differences`);
// The bundle and stand-ins are kept only when there is a difference to look at.
if (differences === 0) fs.rmSync(work, { recursive: true, force: true });
process.exit(differences === 0 ? 0 : 1);
