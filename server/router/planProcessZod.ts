// A `docket plan` process checks each schema once (the index's header, the catalogue, the plan it
// prints): compiling zod's fast paths (`new Function`) costs more than it saves there, as in the
// hook process. zod reads the setting when a schema is built, so planCli.ts imports this module
// before any module that builds one. The checks themselves are the same.
import * as z from "zod";

z.config({ jitless: true });
