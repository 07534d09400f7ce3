// The fuzz sub-targets, in the order the `fuzz` target runs them (targets/fuzz.ts).
import { envelopesSubTarget } from "./envelopes";
import { ledgerLinesSubTarget } from "./ledgerLines";
import { mcpArgumentsSubTarget } from "./mcpArguments";
import { recordsSubTarget } from "./records";
import type { FuzzSubTarget } from "./subTarget";
import { tasksSubTarget } from "./tasks";

export const SUB_TARGETS: readonly FuzzSubTarget<unknown>[] = [envelopesSubTarget, ledgerLinesSubTarget, mcpArgumentsSubTarget, recordsSubTarget, tasksSubTarget];
