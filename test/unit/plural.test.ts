// English-only output counts with a singular or a plural noun, never "noun(s)".
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { agree, countOf } from "../../server/plural";
import { repoRoot } from "../support/repoRoot";

test("countOf: one is singular; zero and many are plural; irregular plurals are passed in", () => {
  assert.equal(countOf(1, "record"), "1 record");
  assert.equal(countOf(0, "record"), "0 records");
  assert.equal(countOf(2, "unresolved finding"), "2 unresolved findings");
  assert.equal(countOf(3, "hypothesis", "hypotheses"), "3 hypotheses");
  assert.equal(`${countOf(1, "workspace skill")} ${agree(1, "was", "were")} not read`, "1 workspace skill was not read");
  assert.equal(`${countOf(4, "workspace skill")} ${agree(4, "was", "were")} not read`, "4 workspace skills were not read");
});

test("no user-facing string in extension, webview or server writes a plural as \"(s)\"", () => {
  const root = repoRoot();
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".ts")) {
        fs.readFileSync(path.join(root, relative), "utf8")
          .split("\n")
          .forEach((line, index) => {
            // Comments may say "http(s)"; string literals and templates may not count with "(s)".
            const code = line.replace(/^\s*(\/\/|\*|\/\*\*).*$/u, "");
            if (/[A-Za-z]\(s\)/u.test(code) && !/https?\(s\)|http\(s\)/u.test(code)) offenders.push(`${relative}:${index + 1}`);
          });
      }
    }
  };
  for (const dir of ["extension", "webview", "server"]) walk(dir);
  assert.deepEqual(offenders, []);
});
