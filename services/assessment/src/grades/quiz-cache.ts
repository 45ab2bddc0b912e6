import type { Quiz, QuizKind } from '@district/contracts';
import type { QuizzesRepository } from '../quizzes/quizzes.repository';

/** Quizzes kept by a replica: a district's burst is a few quizzes; a large quiz is a few hundred KB at most. */
export const QUIZ_CACHE_SIZE = 100;

/**
 * The quizzes a replica marks submissions against, as it last read them. An entry is only a guess: `submit_grade`
 * compares its version with the stored quiz under the attempt lock, and a quiz edited or deleted since is read
 * again (`forget`). Entries leave oldest first beyond `size`; nothing here reaches a client.
 */
export class QuizCache {
  private readonly entries = new Map<string, Quiz>();

  constructor(
    private readonly quizzes: Pick<QuizzesRepository, 'find'>,
    private readonly size = QUIZ_CACHE_SIZE,
  ) {}

  /** The quiz as last read, or read now (`fresh`: always); null when there is no such quiz (not kept). */
  async get(kind: QuizKind, id: string, fresh = false): Promise<Quiz | null> {
    const key = `${kind}:${id}`;
    const kept = fresh ? undefined : this.entries.get(key);
    if (kept) return kept;
    const quiz = await this.quizzes.find(kind, id);
    this.entries.delete(key);
    if (quiz) {
      this.entries.set(key, quiz);
      if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as string);
    }
    return quiz;
  }

  forget(kind: QuizKind, id: string): void {
    this.entries.delete(`${kind}:${id}`);
  }
}
