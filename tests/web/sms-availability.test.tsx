import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { AdminContext, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../src/i18n';
import UserPage from '../../src/customPages/user/UserPage';
import VotePage from '../../src/customPages/vote/VotePage';
import type { CurrentUser } from '../../src/types';

/**
 * SMS codes are offered only while the server can send SMS (an SMS gateway is configured):
 * otherwise a code "sent" to a phone would reach nobody, or wait where an admin could read it.
 */
const user = (over: Partial<CurrentUser>): CurrentUser => ({
  id: 1,
  name: 'Ірина',
  email: 'iryna@test.ua',
  phone: '+380671234567',
  reset_token: null,
  tutorial_completed: true,
  rules: {},
  complexes: [],
  two_factor: null,
  is_admin: true,
  sms_available: true,
  ...over,
});

const authProviderFor = (me: CurrentUser): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => me.rules,
  getIdentity: async () => ({ ...me, fullName: me.name }),
});

const renderUserPage = (me: CurrentUser) =>
  render(
    <MemoryRouter initialEntries={['/User']}>
      <AdminContext i18nProvider={i18nProvider} authProvider={authProviderFor(me)}>
        <UserPage />
      </AdminContext>
    </MemoryRouter>,
  );

describe('/User without and with SMS', () => {
  it('offers phone confirmation and SMS sign-in while SMS can be sent', async () => {
    renderUserPage(user({ sms_available: true }));
    expect(await screen.findByRole('button', { name: 'Увімкнути через SMS' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Увімкнути через e-mail' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Змінити' })).toHaveLength(2);
    expect(screen.queryByTestId('sms-unavailable')).toBeNull();
  });

  it('offers neither without an SMS gateway, and says why', async () => {
    renderUserPage(user({ sms_available: false }));
    expect(await screen.findByRole('button', { name: 'Увімкнути через e-mail' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Увімкнути через SMS' })).toBeNull();
    // Only the e-mail's «Змінити»: the phone's is gone.
    expect(screen.getAllByRole('button', { name: 'Змінити' })).toHaveLength(1);
    expect(screen.getByTestId('sms-unavailable').textContent).toMatch(/SMS не налаштовано/);
  });
});

const meeting = (codeChannels: ('email' | 'sms')[]) => ({
  data: {
    title: 'Ремонт покрівлі',
    address: 'м. Київ, вул. Тестова, 1',
    regime: 'osbb',
    initiator: 'Правління',
    meeting_date: '2026-11-20',
    meeting_time: '19:00',
    place: 'Хол',
    video_tools: '',
    poll_ends: '2027-01-04',
    open: true,
    opens_on: '2026-11-20',
    signed_only: false,
    signature_providers: [],
    code_channels: codeChannels,
    questions: [{ id: 1, position: 1, title: 'Кошторис', description: '', threshold_text: 'більше половини', status: 'open' }],
  },
});

function renderVotePage(codeChannels: ('email' | 'sms')[]) {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(meeting(codeChannels)), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  render(
    <MemoryRouter initialEntries={['/Vote/abcdefghijkl']}>
      <Routes>
        <Route path="/Vote/:token" element={<VotePage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe("the co-owner's page asks for what a code can reach", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a phone or an e-mail while SMS can be sent', async () => {
    renderVotePage(['email', 'sms']);
    expect(await screen.findByLabelText('Телефон або e-mail')).toBeTruthy();
    expect(screen.getByText(/Вкажіть телефон або e-mail/)).toBeTruthy();
  });

  it('only an e-mail without SMS', async () => {
    renderVotePage(['email']);
    const field = await screen.findByLabelText('E-mail');
    expect(field.getAttribute('type')).toBe('email');
    expect(screen.queryByLabelText('Телефон або e-mail')).toBeNull();
    expect(screen.getByText(/Вкажіть e-mail, записаний за вами/)).toBeTruthy();
  });
});
