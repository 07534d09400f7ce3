// What `docket policy` prints: one writer for the answer read from the checkpoint and the one
// replayed, so both print the same bytes.
import type { ToolPolicyResult } from "../protocol/messages";

export function writePolicy(io: { readonly stdout: (text: string) => void }, json: boolean, result: ToolPolicyResult): void {
  if (json) {
    io.stdout(`${JSON.stringify(result)}\n`);
    return;
  }
  io.stdout(`phase: ${result.phase}${result.workScopeId === null ? "" : ` (${result.workScopeId})`}\n`);
  io.stdout(`legal operations: ${result.legalOperations.length === 0 ? "none" : result.legalOperations.join(", ")}\n`);
  io.stdout(`shell: ${result.shell}, edit: ${result.edit}${result.reason === null ? "" : ` — ${result.reason}`}\n`);
}
