// The identity contract's schemas the district screens check answers with, in a module of their own that only
// ./roster-imports.ts and ./classes.ts import, and only dynamically: zod and the schemas load with the first
// request that needs them (ADR 0023). Importing the contract's barrel dynamically instead would make it a dynamic
// entry, and as the app shell imports the same barrel statically (for its messages), Vite 8's bundler (Rolldown)
// then keeps all of it, zod with it, in the entry chunk.
export {
  classDetailSchema,
  classSummarySchema,
  rosterImportAcceptedSchema,
  rosterImportSchema,
  rosterImportSummarySchema,
} from '@district/contracts/identity';
