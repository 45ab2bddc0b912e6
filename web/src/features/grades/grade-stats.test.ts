import { describe, expect, it } from 'vitest';
import { gradesCsv, gradesCsvFileName } from './export/grades-csv';
import { quizzesOf, studentsOf, summarize } from './grade-stats';
import { makeGrade, uuid } from './grades.fixtures.testing';
import { itemFlags, percent } from './item-analysis-flags';

describe('summary cards (spec §2, §9)', () => {
  it('counts attempts, passes at 70 and rounds average and pass rate to whole percent', () => {
    expect(summarize([{ score: 70 }, { score: 69 }, { score: 100 }])).toEqual({
      totalAttempts: 3,
      averageScore: 80,
      passed: 2,
      passRate: 67,
    });
    expect(summarize([{ score: 33 }, { score: 34 }])).toEqual({
      totalAttempts: 2,
      averageScore: 34,
      passed: 0,
      passRate: 0,
    });
    expect(summarize([])).toEqual({ totalAttempts: 0, averageScore: 0, passed: 0, passRate: 0 });
  });

  it('lists quizzes and students once each, by title and name', () => {
    const grades = [
      makeGrade({ quizId: uuid(2), quizTitle: 'Números', userId: uuid(1, 'beef'), userName: 'Zoe' }),
      makeGrade({ quizId: uuid(1), quizTitle: 'Colores', userId: uuid(2, 'beef'), userName: 'Ana' }),
      makeGrade({ quizId: uuid(2), quizTitle: 'Números', userId: uuid(2, 'beef'), userName: 'Ana' }),
    ];
    expect(quizzesOf(grades)).toEqual([
      { id: uuid(1), title: 'Colores' },
      { id: uuid(2), title: 'Números' },
    ]);
    expect(studentsOf(grades).map((s) => s.name)).toEqual(['Ana', 'Zoe']);
  });
});

describe('grades CSV', () => {
  it('has a header, one record per result, split correct/total and ISO dates; every text cell quoted and formula-safe', () => {
    const csv = gradesCsv([
      makeGrade({
        userName: '=cmd|calc',
        quizTitle: 'Colores, parte "1"',
        score: 67,
        correctAnswers: 2,
        totalQuestions: 3,
        passed: false,
      }),
      makeGrade({
        userName: 'Kim;=1+1',
        quizTitle: 'a,=b',
        score: 100,
        correctAnswers: 3,
        totalQuestions: 3,
        passed: true,
        createdAt: '2025-03-07T09:00:00.000Z',
      }),
      makeGrade({
        userName: '\tTab',
        quizTitle: '\r\n-Lines',
        score: 0,
        correctAnswers: 0,
        totalQuestions: 3,
        passed: false,
      }),
      makeGrade({
        userName: '@Ana',
        quizTitle: '+Uno',
        score: 33,
        correctAnswers: 1,
        totalQuestions: 3,
        passed: false,
      }),
    ]);
    expect(csv).toBe(
      '\uFEFF"Student Name","Quiz Title","Score (%)","Correct Answers","Total Questions","Passed","Date Completed"\r\n' +
        `"'=cmd|calc","Colores, parte ""1""",67,2,3,"No","2025-03-06T12:30:00.000Z"\r\n` +
        `"Kim;'=1+1","a,'=b",100,3,3,"Yes","2025-03-07T09:00:00.000Z"\r\n` +
        `"'\tTab","'\r\n'-Lines",0,0,3,"No","2025-03-06T12:30:00.000Z"\r\n` +
        `"'@Ana","'+Uno",33,1,3,"No","2025-03-06T12:30:00.000Z"\r\n`,
    );
  });

  it('names the file after the dashboard, the chosen quiz and the day', () => {
    const day = new Date('2025-03-06T12:00:00.000Z');
    expect(gradesCsvFileName('quiz-grades', null, day)).toBe('quiz-grades-2025-03-06.csv');
    expect(gradesCsvFileName('text-quiz-grades', 'Colores: Parte 1!', day)).toBe(
      'text-quiz-grades-colores-parte-1-2025-03-06.csv',
    );
    expect(gradesCsvFileName('quiz-grades', '¿?', day)).toBe('quiz-grades-2025-03-06.csv');
  });
});

describe('item analysis flags', () => {
  const item = {
    question: 'q',
    correctAnswer: 0,
    facility: 0.5,
    discrimination: 0.4,
    optionCounts: [2, 1, 1, 0],
  };
  it('flags hard items (under 30 % correct) and confusing ones (a distractor beats the key, or negative discrimination)', () => {
    expect(itemFlags(item)).toEqual([]);
    expect(itemFlags({ ...item, facility: 0.2, optionCounts: [1, 1, 1, 2] })).toEqual(['hard', 'confusing']);
    expect(itemFlags({ ...item, discrimination: -0.1 })).toEqual(['confusing']);
    expect(itemFlags({ ...item, facility: null, discrimination: null, optionCounts: [0, 0, 0, 0] })).toEqual(
      [],
    );
    expect([percent(0.666), percent(null)]).toEqual(['67%', '—']);
  });
});
