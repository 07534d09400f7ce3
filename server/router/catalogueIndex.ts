// The skill catalogue through the Router index: `.docket/router-index/catalogue.json` keeps the
// catalogue built from the bundled and workspace skills with the stamps of everything
// `loadCatalogue` looked at — each skills folder, each entry in it, and each entry's SKILL.md and
// routing.yaml (present or absent; links by their targets too). When every stamp holds, the
// recorded catalogue is used without reading or parsing a skill (YAML and schema checks cost more
// than the rest of a warm plan's own work); otherwise it is loaded as before and recorded again.
// Racy stamps never match (snapshot/stamp.ts). The same trust rules as the snapshot's index:
// format line, seal, schema, the same workspace and package folders, or it is not used.
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { sha256Hex } from "../ledger/canonicalJson";
import { SKILLS_DIRECTORY, SKILL_FILE_NAME } from "../developer/bundledSkills";
import { ROUTING_SIDECAR_FILE_NAME } from "./catalogue";
import { WORKSPACE_SKILL_ROOTS, loadCatalogue } from "./catalogueFiles";
import { Catalogue } from "./planSchema";
import { WorkspaceIndexStore } from "./snapshot/indexStore";
import { RACY, contentStamp, type Stamp } from "./snapshot/stamp";

const CATALOGUE_FORMAT = "docket/router-catalogue/v1";
const CATALOGUE_FILE = "catalogue.json";
/** Skills folders holding more entries than this are not recorded (each costs three stats). */
const MAX_RECORDED_ENTRIES = 2000;

const CatalogueRecord = z.strictObject({
  workspaceRoot: z.string().min(1),
  packageRoot: z.string().min(1),
  stamps: z.array(z.tuple([z.string().min(1).max(4096), z.string().max(8192)])),
  catalogue: Catalogue,
});
type CatalogueRecord = z.infer<typeof CatalogueRecord>;

/** Every path whose stamp decides the catalogue, in a fixed order; null when too many to record. */
function watchedPaths(workspaceRoot: string, packageRoot: string): string[] | null {
  const roots = [path.join(packageRoot, SKILLS_DIRECTORY), ...WORKSPACE_SKILL_ROOTS.map((root) => path.join(workspaceRoot, ...root.split("/")))];
  const paths: string[] = [];
  for (const root of roots) {
    paths.push(root);
    let names: string[];
    try {
      names = fs.readdirSync(root).sort();
    } catch {
      continue; // absent: its stamp says so, and creating it changes the stamp
    }
    if (names.length > MAX_RECORDED_ENTRIES) return null;
    for (const name of names) {
      const folder = path.join(root, name);
      paths.push(folder, path.join(folder, SKILL_FILE_NAME), path.join(folder, ROUTING_SIDECAR_FILE_NAME));
    }
  }
  return paths;
}

function decode(bytes: Buffer): CatalogueRecord | null {
  const header = `${CATALOGUE_FORMAT}\n`;
  if (bytes.length < header.length + 65 || bytes.toString("utf8", 0, header.length) !== header || bytes[header.length + 64] !== 0x0a) return null;
  const body = bytes.subarray(header.length + 65);
  if (sha256Hex(body) !== bytes.toString("latin1", header.length, header.length + 64)) return null;
  try {
    const parsed = CatalogueRecord.safeParse(JSON.parse(body.toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function encode(record: CatalogueRecord): Buffer {
  const body = JSON.stringify({ workspaceRoot: record.workspaceRoot, packageRoot: record.packageRoot, stamps: record.stamps, catalogue: record.catalogue });
  return Buffer.from(`${CATALOGUE_FORMAT}\n${sha256Hex(body)}\n${body}`, "utf8");
}

/** `loadCatalogue`, answered from the index when nothing it reads has changed. */
export function loadCatalogueIndexed(workspaceRoot: string, packageRoot: string): Catalogue {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(workspaceRoot);
  } catch {
    return loadCatalogue(workspaceRoot, packageRoot);
  }
  const store = new WorkspaceIndexStore(realRoot);
  const bytes = store.readNamed(CATALOGUE_FILE);
  const recorded = bytes === null ? null : decode(bytes);
  if (recorded !== null && recorded.workspaceRoot === realRoot && recorded.packageRoot === packageRoot) {
    const paths = watchedPaths(realRoot, packageRoot);
    const holds =
      paths !== null &&
      paths.length === recorded.stamps.length &&
      recorded.stamps.every(([where, stamp], position) => where === paths[position] && stamp !== RACY && contentStamp(where) === stamp);
    if (holds) return recorded.catalogue;
  }
  // Stamps first (after the clock file is touched), then the reads: a change in between is racy.
  const racyFrom = store.racyFrom();
  const paths = watchedPaths(realRoot, packageRoot);
  const stamps: Array<[string, Stamp]> | null = paths === null ? null : paths.map((where) => [where, contentStamp(where, racyFrom)]);
  const catalogue = loadCatalogue(workspaceRoot, packageRoot);
  if (stamps !== null) store.writeNamed(CATALOGUE_FILE, encode({ workspaceRoot: realRoot, packageRoot, stamps, catalogue }));
  return catalogue;
}
