// The commit-link lines (server/team/linkLines.ts): strict values, key case as Git reads it, the
// matching rule (a landing only for paths it recorded) and the workspace-relative path mapping.
import { test } from "node:test";
import assert from "node:assert/strict";
import { linkLines, matchingLandings, noteText, parseLandingValue, parseLinkLines, type LandingRecord } from "../../server/team/linkLines";
import { toWorkspacePath, workspacePathsOf } from "../../server/team/repoLayout";
import { docketHookWorkspace, driverCommand, hookScript, isDocketDriver, shellQuote } from "../../server/team/gitConnect";

const sha = "a".repeat(64);
const record = (landingId: string, changedPaths: string[], workScopeId = "scope:s1"): LandingRecord => ({ landingId, eventSha256: sha, workScopeId, changedPaths });

test("landing values parse only as exactly an id and a 64-hex hash", () => {
  assert.deepEqual(parseLandingValue(`landing:abc ${sha}`), { landingId: "landing:abc", eventSha256: sha });
  for (const bad of [`landing:abc  ${sha}`, `landing:abc ${sha.toUpperCase()}`, `landing:abc ${sha.slice(1)}`, `scope:abc ${sha}`, `landing: ${sha}`, `landing:a;b ${sha}`, `landing:abc ${sha} extra`, `-landing:abc ${sha}`, ""]) {
    assert.equal(parseLandingValue(bad), null, bad);
  }
});

test("link lines: keys ignore case as Git's do, malformed values are reported and never used, duplicates fold", () => {
  const parsed = parseLinkLines(`docket-landing: landing:x ${sha}\nDocket-Landing: landing:x ${sha}\nDocket-Landing: landing:y nothex\nDocket-Scope: scope:s1\nDocket-Scope: not a scope\nOther: value\nno colon here\r\n`);
  assert.deepEqual(parsed.landings, [{ landingId: "landing:x", eventSha256: sha }]);
  assert.deepEqual(parsed.scopes, ["scope:s1"]);
  assert.deepEqual(parsed.malformed, ["Docket-Landing: landing:y nothex", "Docket-Scope: not a scope"]);
});

test("a landing matches a change only through a path it recorded; lines are sorted, scopes once", () => {
  const records = [record("landing:b", ["src/b.ts"], "scope:s2"), record("landing:a", ["src/a.ts", "src/c.ts"]), record("landing:z", ["src/z.ts"]), record("landing:bad id", ["src/a.ts"])];
  const matched = matchingLandings(records, ["src/c.ts", "src/b.ts", "README.md"]);
  assert.deepEqual(matched.map((entry) => entry.landingId), ["landing:a", "landing:b"]);
  assert.deepEqual(matchingLandings(records, ["README.md"]), []);
  assert.deepEqual(linkLines(matched), [`Docket-Landing: landing:a ${sha}`, `Docket-Landing: landing:b ${sha}`, "Docket-Scope: scope:s1", "Docket-Scope: scope:s2"]);
  assert.equal(noteText(matched), `${linkLines(matched).join("\n")}\n`);
  assert.deepEqual(matchingLandings([{ ...record("landing:a", ["src/a.ts"]), eventSha256: "short" }], ["src/a.ts"]), []);
});

test("a path another commit already carried for a landing does not claim it again; the commit itself does not count", () => {
  const records = [record("landing:a", ["src/a.ts", "src/b.ts"])];
  const carried = new Map([["landing:a", new Map([["src/a.ts", new Set(["c1"])]])]]);
  assert.deepEqual(matchingLandings(records, ["src/a.ts"], carried), []);
  assert.deepEqual(matchingLandings(records, ["src/a.ts"], carried, "c1").map((entry) => entry.landingId), ["landing:a"]);
  assert.deepEqual(matchingLandings(records, ["src/a.ts", "src/b.ts"], carried).map((entry) => entry.landingId), ["landing:a"]);
});

test("repository paths map to workspace paths under its prefix only; odd paths never match", () => {
  const layout = { toplevel: "/repo", workspacePrefix: "pkg" };
  assert.equal(toWorkspacePath(layout, "pkg/src/a.ts"), "src/a.ts");
  assert.equal(toWorkspacePath(layout, "src/a.ts"), null);
  assert.equal(toWorkspacePath(layout, "pkgx/a.ts"), null);
  for (const odd of ["pkg/../a.ts", "/pkg/a.ts", "pkg//a.ts", "pkg/./a.ts", ""]) assert.equal(toWorkspacePath(layout, odd), null, odd);
  assert.deepEqual(workspacePathsOf({ toplevel: "/repo", workspacePrefix: "" }, "b\0a\0b\0"), ["a", "b"]);
});

test("hook script and driver: single-quoted paths, recognised by shape, workspace read back exactly", () => {
  const installation = { workspaceFolder: "/w", runtimePath: "/opt/it's $(x)/dist/docket.js", nodePath: "/usr/bin/node" };
  const workspace = "/tmp/a 'b' $(touch c);d";
  const script = hookScript(installation, workspace);
  assert.equal(docketHookWorkspace(script), workspace);
  assert.equal(docketHookWorkspace(`${script}echo extra\n`), null, "a hook someone extended is not Docket's");
  assert.equal(docketHookWorkspace("#!/bin/sh\necho mine\n"), null);
  assert.ok(isDocketDriver(driverCommand(installation)));
  assert.equal(isDocketDriver("cat %A"), false);
  assert.equal(shellQuote("a'b"), `'a'\\''b'`);
  assert.throws(() => shellQuote("a\nb"));
});
