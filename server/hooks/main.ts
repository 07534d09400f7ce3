// Entry of dist/docket-hook.js: the hook path only, without the language server, the MCP SDK or
// the Judgment engine, so a host pays little more than a bare Node start per tool call.
// Accepts the same arguments as `docket hook …` (the leading `hook` is optional).
import { runHookProcess } from "./hookCli";

runHookProcess(process.argv.slice(2));
