import type { Rules } from '../../contract/permissions';

/** The `data` of `GET /user` for a staff member with these rules (no complexes, no 2FA). */
export const userWith = (rules: Rules) => ({
  id: 7,
  name: 'Оксана',
  email: 'o@b.ua',
  phone: null,
  reset_token: null,
  tutorial_completed: true,
  rules,
  complexes: [],
  two_factor: null,
  is_admin: false,
});

/** A JSON response as the API sends it. */
export const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
