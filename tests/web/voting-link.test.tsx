import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Rules } from '../../contract/permissions';
import type { Voting } from '../../contract/voting';
import { createAuthProvider } from '../../src/authProvider';
import { saveSession } from '../../src/authStorage';
import { LinkCard } from '../../src/customPages/meeting/VotingShow';
import { i18nProvider } from '../../src/i18n';
import { jsonResponse, userWith } from './identity';

/**
 * The meeting's link card when the link cannot be shown again (the link key changed: the API
 * answers 409): the office reads why, and one who may edit meetings makes a new link after
 * confirming that the old one stops working; a viewer gets no such button.
 */
const LOST = 'Посилання голосування не вдається відновити: ключ посилань змінено. Створіть нове посилання кнопкою «Нове посилання».';
const NEW_LINK = 'http://localhost:8080/vote/new-token';

function renderCard(rules: Rules) {
  saveSession('T', 3600);
  const calls: string[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${path.replace(/^.*\/api\/admin/, '')}`);
    if (path.endsWith('/user')) return jsonResponse({ data: userWith(rules) });
    if (path.endsWith('/voting/5/deeplink')) return method === 'POST' ? jsonResponse({ deeplink: NEW_LINK }) : jsonResponse({ message: LOST }, 409);
    throw new Error(`unexpected request ${method} ${path}`);
  });
  vi.stubGlobal('fetch', fetch);
  render(
    <TestMemoryRouter>
      <AdminContext authProvider={createAuthProvider(fetch as unknown as typeof globalThis.fetch)} i18nProvider={i18nProvider} store={memoryStore()}>
        <LinkCard v={{ id: 5, last_notified_at: null } as unknown as Voting} />
      </AdminContext>
    </TestMemoryRouter>,
  );
  return calls;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('a voting link that cannot be shown again', () => {
  it('says why, and makes a new link only after the confirmation', async () => {
    const calls = renderCard({ votings: ['view', 'edit'] });
    expect(await screen.findByText(LOST)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Нове посилання' }));
    expect(await screen.findByText('Створити нове посилання?')).toBeTruthy();
    expect(calls).not.toContain('POST /voting/5/deeplink');
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(dialog.querySelector('button.ra-confirm')!);
    await waitFor(() => expect((screen.getByTestId('deeplink') as HTMLInputElement).value).toBe(NEW_LINK));
    expect(calls.filter((c) => c === 'POST /voting/5/deeplink')).toHaveLength(1);
    expect(screen.queryByText(LOST)).toBeNull();
  });

  it('offers no new link to a role that may only view meetings', async () => {
    renderCard({ votings: ['view'] });
    expect(await screen.findByText(LOST)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Нове посилання' })).toBeNull();
  });
});
