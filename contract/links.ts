/**
 * SPA pages opened from a link whose address carries its credential: the co-owners' voting page
 * and the staff chat by link (the password-reset link carries its token as `?token=`). The SPA's
 * router serves them (src/routes.tsx) and the server keeps the token out of its logs.
 */
export const TOKEN_PAGES = {
  vote: '/Vote/:token',
  staffChat: '/Chat/:token?',
} as const;
