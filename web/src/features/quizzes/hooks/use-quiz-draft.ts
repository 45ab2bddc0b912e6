import { useState } from 'react';
import {
  AssessmentMessages,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_REVEAL_ANSWERS,
  QUIZ_OPTIONS_COUNT,
  type Quiz,
  type QuizKind,
  type RevealAnswers,
} from '@district/contracts/assessment';
import type { QuizWrite } from '../api/quizzes';

export interface DraftQuestion {
  audioUrl: string;
  question: string;
  options: string[];
  correctAnswer: number;
}

export interface QuizDraft {
  title: string;
  description: string;
  maxAttempts: number;
  audioPlayLimit: number | null;
  revealAnswers: RevealAnswers;
  questions: DraftQuestion[];
}

export const emptyQuestion = (): DraftQuestion => ({
  audioUrl: '',
  question: '',
  options: Array.from({ length: QUIZ_OPTIONS_COUNT }, () => ''),
  correctAnswer: 0,
});

export function draftFromQuiz(quiz: Quiz | null): QuizDraft {
  if (!quiz)
    return {
      title: '',
      description: '',
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      audioPlayLimit: null,
      revealAnswers: DEFAULT_REVEAL_ANSWERS,
      questions: [emptyQuestion()],
    };
  return {
    title: quiz.title,
    description: quiz.description,
    maxAttempts: quiz.maxAttempts,
    audioPlayLimit: quiz.audioPlayLimit,
    revealAnswers: quiz.revealAnswers,
    questions: quiz.questions.map((q) => ({
      audioUrl: q.audioUrl ?? '',
      question: q.question,
      options: Array.from({ length: QUIZ_OPTIONS_COUNT }, (_, i) => q.options[i] ?? ''),
      correctAnswer: q.correctAnswer,
    })),
  };
}

/**
 * Spec §5. Audio: Save is enabled only with a title and, on every question, an audio URL and question text.
 * Text: Save is always enabled; it stops at 'Quiz title is required.' or 'At least one question is required.'.
 * Everything else (four options, lengths, URL form) is the server's 400, shown as it words it.
 */
export function canSave(kind: QuizKind, draft: QuizDraft): boolean {
  if (kind === 'text') return true;
  return (
    draft.title.trim() !== '' &&
    draft.questions.length > 0 &&
    draft.questions.every((q) => q.audioUrl.trim() !== '' && q.question.trim() !== '')
  );
}

export function firstProblem(draft: QuizDraft): string | null {
  if (draft.title.trim() === '') return AssessmentMessages.titleRequired;
  if (draft.questions.length === 0) return AssessmentMessages.questionRequired;
  return null;
}

export function toQuizWrite(kind: QuizKind, draft: QuizDraft): QuizWrite {
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    maxAttempts: draft.maxAttempts,
    audioPlayLimit: kind === 'audio' ? draft.audioPlayLimit : null,
    revealAnswers: draft.revealAnswers,
    questions: draft.questions.map((q) => ({
      ...(kind === 'audio' ? { audioUrl: q.audioUrl.trim() } : {}),
      question: q.question.trim(),
      options: q.options.map((o) => o.trim()),
      correctAnswer: q.correctAnswer,
    })),
  };
}

export function useQuizDraft(quiz: Quiz | null) {
  const [draft, setDraft] = useState<QuizDraft>(() => draftFromQuiz(quiz));
  const set = <K extends keyof QuizDraft>(key: K, value: QuizDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const setQuestion = (index: number, patch: Partial<DraftQuestion>) =>
    setDraft((d) => ({ ...d, questions: d.questions.map((q, i) => (i === index ? { ...q, ...patch } : q)) }));
  const setOption = (index: number, option: number, value: string) =>
    setDraft((d) => ({
      ...d,
      questions: d.questions.map((q, i) =>
        i === index ? { ...q, options: q.options.map((o, k) => (k === option ? value : o)) } : q,
      ),
    }));
  const addQuestion = () => setDraft((d) => ({ ...d, questions: [...d.questions, emptyQuestion()] }));
  const removeQuestion = (index: number) =>
    setDraft((d) => ({ ...d, questions: d.questions.filter((_, i) => i !== index) }));
  return { draft, set, setQuestion, setOption, addQuestion, removeQuestion };
}
