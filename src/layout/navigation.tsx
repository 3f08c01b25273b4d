import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/** Header title and back target, set by the page being shown. */
export interface NavigationState {
  title: string | null;
  backTo: string | null;
  setHeader(title: string | null, backTo: string | null): void;
}

const NavigationContext = createContext<NavigationState>({ title: null, backTo: null, setHeader: () => undefined });

export function NavigationProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ title: string | null; backTo: string | null }>({ title: null, backTo: null });
  // A stable setter: pages call it from effects that depend on it.
  const setHeader = useCallback((title: string | null, backTo: string | null) => setState({ title, backTo }), []);
  const value = useMemo(() => ({ ...state, setHeader }), [state, setHeader]);
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>;
}

export const useNavigationState = () => useContext(NavigationContext);

/** A page declares its header title and (optionally) where the back arrow leads; both reset when it unmounts. */
export function usePageHeader(title: string | null | undefined, backTo?: string | null) {
  const { setHeader } = useNavigationState();
  useEffect(() => {
    setHeader(title ?? null, backTo ?? null);
    return () => setHeader(null, null);
  }, [title, backTo, setHeader]);
}
