// The text formats of `docket connect` (issue 12, finding 8): the dry-run diff comes from the
// `diff` package, and `.codex/config.toml` is checked with a real TOML parser (smol-toml) before
// and after Docket's minimal, byte-exact edit of its own marked table.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ErrorCodes } from "../../server/protocol/messages";
import { DocketError } from "../../server/errors";
import { hasDocketTomlBlock, TOML_BEGIN, TOML_END, withDocketToml, withoutDocketToml } from "../../server/agents/codexToml";
import { unifiedDiff } from "../../server/agents/textDiff";
import { readTomlDocument, sameTomlValue } from "../../server/toml/toml";

/** What disconnecting gives back: the file as it was, with the final newline connecting added. */
function restoredOf(original: string): string | null {
  if (original.trim() === "") return null;
  return original.endsWith("\n") ? original : `${original}\n`;
}

const entry = { command: "node", args: ["/opt/ext dir/dist/docket.js", "mcp", "--workspace", "/w s/it's \"here\""] };
const FILE = ".codex/config.toml";

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof DocketError, String(error));
    return error.code;
  }
  return "no refusal";
}

test("the dry-run diff: diff -u hunks with three lines of context, headers only for equal files, no final newline", () => {
  assert.equal(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "x", "y"), "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c");
  assert.equal(unifiedDiff("", "n\n", "/dev/null", "y"), "--- /dev/null\n+++ y\n@@ -0,0 +1,1 @@\n+n");
  assert.equal(unifiedDiff("gone\n", "", "a/f", "/dev/null"), "--- a/f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone");
  assert.equal(unifiedDiff("same\n", "same\n", "a/f", "b/f"), "--- a/f\n+++ b/f");
  // A missing final newline is a change, and says so as diff -u does.
  assert.equal(unifiedDiff("a\nb", "a\nb\n", "a/f", "b/f"), "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b");
  const before = Array.from({ length: 20 }, (_, index) => `line ${index}`).join("\n");
  const after = before.replace("line 2", "LINE 2").replace("line 17", "LINE 17");
  const hunks = unifiedDiff(`${before}\n`, `${after}\n`, "a/f", "b/f").split("\n").filter((line) => line.startsWith("@@"));
  assert.deepEqual(hunks, ["@@ -1,6 +1,6 @@", "@@ -15,6 +15,6 @@"]);
});

test("config.toml: a file only a parser can read right is edited, and the edit undone, byte for byte", () => {
  for (const original of [
    // Mentions the table inside a string: a line-based reader took it for a table.
    'x = """\n[mcp_servers.docket]\n"""\n',
    "mcp_servers.other.command = \"x\"\n",
    "# only a comment",
    '[mcp_servers.other]\ncommand = "x"\n\n[[profiles]]\nname = "a"\n',
    "when = 1979-05-27T07:32:00Z\nlocal = 07:32:00\n",
  ]) {
    const connected = withDocketToml(original, FILE, entry);
    assert.ok(connected.startsWith(original), JSON.stringify(original));
    assert.ok(hasDocketTomlBlock(connected, FILE));
    assert.equal(withDocketToml(connected, FILE, entry), connected, "connecting again changes nothing");
    const parsed = readTomlDocument(connected);
    assert.ok(parsed.ok);
    const servers = parsed.value["mcp_servers"] as Record<string, unknown>;
    assert.ok(sameTomlValue(servers["docket"], { command: entry.command, args: entry.args }));
    assert.equal(withoutDocketToml(connected, FILE), restoredOf(original));
  }
});

test("config.toml: what cannot be edited safely is refused with a code and nothing changed", () => {
  const cases: [string, string][] = [
    ['a = "unterminated\n', ErrorCodes.agentConfigMalformed],
    ["[t]\n[t]\n", ErrorCodes.agentConfigMalformed],
    [`x = """\n${TOML_BEGIN}\n[mcp_servers.docket]\ncommand = "a"\nargs = []\n${TOML_END}\n"""\n`, ErrorCodes.agentConfigUnsupported],
    [`${TOML_BEGIN}\n[mcp_servers.docket]\ncommand = "a"\nargs = []\n${TOML_END}\nextra = 1\n`, ErrorCodes.agentConfigUnsupported],
    [`${TOML_BEGIN}\n[mcp_servers.docket]\ncommand = "a"\nargs = []\n[elsewhere]\nk = 1\n${TOML_END}\n`, ErrorCodes.agentConfigUnsupported],
    ['[mcp_servers]\ndocket = { command = "x" }\n', ErrorCodes.agentConfigConflict],
    ['[ mcp_servers . "docket" ]\ncommand = "x"\n', ErrorCodes.agentConfigConflict],
    ['mcp_servers.docket.command = "x"\n', ErrorCodes.agentConfigConflict],
    ["mcp_servers = { other = { command = \"x\" } }\n", ErrorCodes.agentConfigUnsupported],
    ["mcp_servers = 5\n", ErrorCodes.agentConfigUnsupported],
    ["a = 1\r\n", ErrorCodes.agentConfigUnsupported],
  ];
  for (const [text, code] of cases) {
    assert.equal(codeOf(() => withDocketToml(text, FILE, entry)), code, text);
    assert.equal(codeOf(() => withoutDocketToml(text, FILE)), code === ErrorCodes.agentConfigUnsupported && !text.includes(TOML_BEGIN) && !text.includes("\r") ? "no refusal" : code, `disconnect: ${text}`);
  }
  const malformed = codeOf(() => hasDocketTomlBlock("[t\n", FILE));
  assert.equal(malformed, ErrorCodes.agentConfigMalformed);
});

test("config.toml: connect and disconnect of generated user files keep every user byte (a final newline is added) and mean exactly settings plus Docket's table", () => {
  const snippet = fc.constantFrom(
    'model = "o3"',
    "# a comment",
    "",
    "[profiles.fast]\nmodel = \"mini\"",
    "[mcp_servers.other]\ncommand = \"x\"\nargs = [\"a\", \"b\"]",
    "[[hooks]]\nevent = \"x\"",
    'notes = """\nmulti\nline [mcp_servers.docket]\n"""',
    "limits = { a = 1, b = [1, 2] }",
    "when = 2026-01-01T00:00:00Z",
    "[mcp_servers]",
  );
  fc.assert(
    fc.property(fc.array(snippet, { maxLength: 6 }), fc.boolean(), (parts, finalNewline) => {
      const original = parts.join("\n") + (finalNewline ? "\n" : "");
      if (!readTomlDocument(original).ok) return;
      let connected: string;
      try {
        connected = withDocketToml(original, FILE, entry);
      } catch (error) {
        assert.ok(error instanceof DocketError && error.code.startsWith("docket.agent-config-"), String(error));
        return;
      }
      assert.ok(hasDocketTomlBlock(connected, FILE));
      const before = readTomlDocument(original);
      const after = readTomlDocument(connected);
      assert.ok(before.ok && after.ok);
      const servers = { ...((before.value["mcp_servers"] as Record<string, unknown> | undefined) ?? {}), docket: { command: entry.command, args: entry.args } };
      assert.ok(sameTomlValue(after.value, { ...before.value, mcp_servers: servers }), connected);
      assert.equal(withDocketToml(connected, FILE, { ...entry, command: "node" }), connected);
      const restored = withoutDocketToml(connected, FILE);
      assert.equal(restored, restoredOf(original));
    }),
    { seed: 8, numRuns: 400 },
  );
});
