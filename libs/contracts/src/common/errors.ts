import { z } from 'zod';

/** Every 4xx/5xx answer from any service or the gateway has this shape. */
export const errorResponseSchema = z.object({
  statusCode: z.number().int(),
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  requestId: z.string().optional(),
  /** Facts a screen shows beside the message (e.g. the attempt counts of 'Attempt Limit Reached'). */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
