// The repository root, found by walking up to Docket's package.json, so tests work from out/.
import fs from "node:fs";
import path from "node:path";

export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "docket") {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find Docket's package.json above ${__dirname}`);
    dir = parent;
  }
}
