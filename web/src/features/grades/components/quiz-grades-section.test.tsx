import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '@district/contracts/identity';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makeGrade } from '../grades.fixtures.testing';

configure({ asyncUtilTimeout: 4000 });

const open = (
  user: User,
  grades = [makeGrade({ userName: 'Ana Alumna', quizTitle: 'Colores', score: 100, correctAnswers: 3 })],
) =>
  renderApp('/audio-quizzes', {
    user,
    setup: (f) => {
      f.on('GET', '/api/audio-quizzes', { json: [] });
      f.on('GET', '/api/quiz-grades', { json: grades });
    },
  });

describe(
  'audio quizzes screen: the student grades table for teachers and admins (classroom-tools §2)',
  { timeout: 20_000 },
  () => {
    it.each([
      ['a teacher', personas.teacher],
      ['an admin', personas.admin],
    ])('%s sees the latest results and a link to the dashboard', async (_label, make) => {
      await open(make());
      const table = await screen.findByRole('table', { name: 'Student grades' });
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Student Name', 'Quiz Title', 'Score', 'Correct/Total', 'Date Completed']);
      const row = within(table).getAllByRole('row')[1]!;
      expect(row).toHaveTextContent('Ana Alumna');
      expect(row).toHaveTextContent('Colores');
      expect(row).toHaveTextContent('100%');
      expect(row).toHaveTextContent('3/3');
      expect(screen.getByRole('link', { name: 'Open Grades Dashboard' })).toHaveAttribute(
        'href',
        '/admin/quiz-grades-dashboard',
      );
    });

    it('shows at most the latest 10 results', async () => {
      await open(
        personas.teacher(),
        Array.from({ length: 12 }, (_, i) => makeGrade({ userName: `Student ${i + 1}` })),
      );
      const table = await screen.findByRole('table', { name: 'Student grades' });
      expect(within(table).getAllByRole('row')).toHaveLength(11);
      expect(screen.getByText('The latest 10 of 12 results.')).toBeInTheDocument();
    });

    it('asks the server for the latest 10 only and counts the rest from X-Total-Count (ADR 0042)', async () => {
      const view = await renderApp('/audio-quizzes', {
        user: personas.teacher(),
        setup: (f) => {
          f.on('GET', '/api/audio-quizzes', { json: [] });
          f.on('GET', '/api/quiz-grades', {
            json: Array.from({ length: 10 }, (_, i) => makeGrade({ userName: `Student ${i + 1}` })),
            headers: { 'X-Total-Count': '4200', 'X-Next-Cursor': 'next' },
          });
        },
      });
      await screen.findByRole('table', { name: 'Student grades' });
      expect(screen.getByText('The latest 10 of 4,200 results.')).toBeInTheDocument();
      expect(view.fetch.calls('GET', '/api/quiz-grades')[0]?.path).toBe('/api/quiz-grades?limit=10');
    });

    it('a student sees no grades table and no grades are asked for', async () => {
      const view = await open(personas.student());
      await screen.findByRole('heading', { level: 1, name: 'Audio Quizzes' });
      await screen.findByText(/No quizzes yet/);
      expect(screen.queryByRole('table', { name: 'Student grades' })).not.toBeInTheDocument();
      expect(view.fetch.calls('GET', '/api/quiz-grades')).toHaveLength(0);
    });
  },
);
