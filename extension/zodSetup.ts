// Imported first by main.ts, before any schema exists. Zod's compiled ("JIT") validators probe
// `navigator` and `new Function`; the extension host reports the `navigator` access as an error,
// and eval is not needed for messages this small, so validation runs interpreted.
import * as z from "zod";

z.config({ jitless: true });
