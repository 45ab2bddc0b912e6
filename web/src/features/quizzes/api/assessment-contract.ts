// The assessment contract's schemas in a module of their own that ./quizzes.ts imports only dynamically: zod
// loads alongside the first request that needs it instead of holding up the quiz screen's first paint (ADR 0023).
export { attemptStartSchema, gradeSchema, quizSchema } from '@district/contracts/assessment';
