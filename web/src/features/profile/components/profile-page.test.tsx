import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

function field(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('profile (classroom-tools spec section 2)', () => {
  it('shows name, username, email, status, role and member-since for a student', async () => {
    const user = { ...personas.student(), email: 'sam@district.test', createdAt: '2024-09-02T08:30:00.000Z' };
    await renderApp('/profile', { user });
    await screen.findByRole('heading', { level: 1, name: 'My Profile' });
    expect(field('Name')).toHaveTextContent(user.name);
    expect(field('Username')).toHaveTextContent(user.username);
    expect(field('Email')).toHaveTextContent('sam@district.test');
    expect(field('Account Status')).toHaveTextContent('Approved');
    expect(field('Role')).toHaveTextContent('Student');
    expect(within(field('Role')).queryByText('Administrator')).not.toBeInTheDocument();
    expect(field('Member Since')).toHaveTextContent('September 2, 2024');
  });

  it('shows the Administrator badge only for admins', async () => {
    await renderApp('/profile', { user: personas.admin() });
    await screen.findByRole('heading', { level: 1, name: 'My Profile' });
    expect(field('Role')).toHaveTextContent('Teacher');
    expect(within(field('Role')).getByText('Administrator')).toBeInTheDocument();
  });
});
