// Which bundled skills a person or agent can use right now, and how each relates to the open
// frame: its owner, already opened as context in this scope, or available. Feeds the palette's
// "owning Skill" and "context sources" pickers; legality is still decided by the operations.
import type { SkillsResult } from "../../protocol/messages";
import type { HistoryView } from "../history";
import { openFrameOf, ownerAssignmentOf, skillInventoryId } from "./contextSources";
import { findSkillByCapability, type SkillCatalog } from "./skillCatalog";

export function describeSkills(history: HistoryView, catalog: SkillCatalog): SkillsResult {
  const scope = history.activeScope;
  const frame = scope === null ? undefined : openFrameOf(scope);
  const assignment = scope === null || frame === undefined ? undefined : ownerAssignmentOf(scope, frame);
  const owner = assignment === undefined ? undefined : findSkillByCapability(catalog, assignment.assignment.skillCapabilityId);
  const opened = new Set((scope?.supports ?? []).filter((support) => support.sourceKind === "material").map((support) => support.sourceId));
  return {
    skills: catalog.skills.map((skill) => {
      const inventorySourceId = skillInventoryId(catalog, skill);
      const role = owner?.name === skill.name ? "owner" : opened.has(inventorySourceId) ? "opened" : "available";
      return { skillName: skill.name, description: skill.description, inventorySourceId, role };
    }),
  };
}
