// Public surface of the Judgment engine (judgment.md §1–§9). Pure except policyFile.ts and
// localReferenceReader.ts, which reach the file system only through JudgmentFileSystem.
export * from "./errors";
export * from "./json";
export { graphemeLength, validate, type SchemaIssue } from "./schema";
export * from "./authoring";
export * from "./owner";
export * from "./compiledPolicy";
export * from "./directions";
export * from "./containment";
export * from "./policyFile";
export * from "./question";
export * from "./provenance";
export * from "./inventory";
export * from "./observed";
export * from "./selection";
export * from "./content";
export * from "./sealedContext";
export * from "./seal";
export * from "./localReferenceReader";
export * from "./referenceAcquisition";
export * from "./coverage";
export * from "./outcome";
export * from "./lifecycle";
export * from "./contextAttempt";
export * from "./piInventory";
export * from "./piObserved";
