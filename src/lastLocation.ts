import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const KEY = 'app.lastPath';

/** Remembers the last page inside the app, so that a signed-in user who opens /login goes back to it. */
export function useRememberLocation() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!/^\/(login|forgetpassword|resetpassword)\b/i.test(pathname)) sessionStorage.setItem(KEY, pathname + search);
  }, [pathname, search]);
}

export function lastPath(): string {
  return sessionStorage.getItem(KEY) || '/';
}
