// The contract's user schema in a module of its own, imported only dynamically (./user-guard.ts loadUserSchema),
// so zod is not part of the first paint's code (ADR 0023).
export { userSchema } from '@district/contracts/identity';
