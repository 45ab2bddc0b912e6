import { randomUUID } from 'node:crypto';
import type { ServiceWarmUp } from '@district/nest-common';
import { GradesService } from './grades.service';

/** Requests in flight at once in the warm-up's HTTP part. */
const CONCURRENCY = 8;

/**
 * assessment's warm-up before a replica listens (ADR 0019): the rehearsal of submissions (`GradesService.rehearse`:
 * the marking, then the attempt lock, the checks and the insert with its event in `submit_grade`, rolled back),
 * then as many submissions over HTTP without a session — Fastify's parsing and hooks, the guard and the error path,
 * each answered 401 and storing nothing. About as many rounds as a replica had served when the burst benchmark
 * found it warm.
 */
export const assessmentWarmUp: ServiceWarmUp = {
  rounds: 1000,
  async run({ app, url, rounds, deadline }) {
    const rehearsed = await app.get(GradesService).rehearse(rounds, deadline);
    const body = JSON.stringify({ quizId: randomUUID(), userAnswers: [0, 1, 2, 3, 0, 1, 2, 3, 0, 1] });
    let sent = 0;
    const worker = async () => {
      while (sent < rounds && Date.now() < deadline) {
        const path = sent++ % 2 === 0 ? '/api/text-quiz-grades' : '/api/quiz-grades';
        const response = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body,
        });
        await response.arrayBuffer();
        if (response.status !== 401)
          throw new Error(`warm-up: ${path} answered ${response.status} without a session, not 401`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return rehearsed;
  },
};
