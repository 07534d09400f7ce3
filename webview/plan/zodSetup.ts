// Imported first by main.ts, before any schema exists: the webview's CSP forbids eval, so Zod
// must not try to compile validators with `new Function` (which would log a CSP violation).
import * as z from "zod";

z.config({ jitless: true });
