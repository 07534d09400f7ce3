// ajv compiling observer-record/v1 (recordSchema.ts), alone in its module so that only a process that
// meets a record the pre-check (recordSchemaCheck.ts) is not sure of loads ajv at all.
import Ajv2020, { type ErrorObject } from "ajv/dist/2020";
import addFormats from "ajv-formats";

export type FrontmatterValidator = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

export function compileRecordSchemaValidator(schema: object, isBcp47: (value: string) => boolean): FrontmatterValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  ajv.addFormat("bcp47", { type: "string", validate: isBcp47 });
  return ajv.compile(schema);
}
