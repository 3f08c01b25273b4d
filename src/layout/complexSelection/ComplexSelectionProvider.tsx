import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAuthProvider, useGetIdentity, useGetList, type RaRecord } from 'react-admin';
import { useCurrentUser } from '../../useCurrentUser';
import type { CurrentUser } from '../../types';
import { EDITION } from '../../edition';
import { sectionRoot } from './sections';
import { readSavedComplex, saveComplex } from './storage';

/** Fired on `window` (with the new complex in `detail`) once a complex has been created. */
export const COMPLEX_ADDED_EVENT = 'complexAdded';

/** With more addresses than this in a complex, only the first one is preselected. */
export const PRESELECT_ALL_MAX = 20;

export interface ComplexOption {
  id: number;
  name: string;
}

export interface AddressOption {
  id: number;
  address: string;
}

export interface ComplexSelection {
  /** The signed-in user's complexes (`GET /user` → complexes). */
  complexes: ComplexOption[];
  /** The selected complex; undefined while the user loads or when they have no complex. */
  complexId: number | undefined;
  complex: ComplexOption | undefined;
  selectComplex(id: number): void;
  /** The selected complex's houses, by address. */
  addresses: AddressOption[];
  addressesPending: boolean;
  /** The selected houses (in address order); undefined until the complex's houses are known. */
  houseIds: number[] | undefined;
  setHouseIds(ids: number[]): void;
}

const NO_COMPLEXES: ComplexOption[] = [];
const NO_ADDRESSES: AddressOption[] = [];

const ComplexSelectionContext = createContext<ComplexSelection>({
  complexes: NO_COMPLEXES,
  complexId: undefined,
  complex: undefined,
  selectComplex: () => undefined,
  addresses: NO_ADDRESSES,
  addressesPending: false,
  houseIds: undefined,
  setHouseIds: () => undefined,
});

/** Preselection for a complex: all its addresses, or only the first when there are more than 20. */
export function defaultHouseIds(addresses: AddressOption[]): number[] {
  return (addresses.length > PRESELECT_ALL_MAX ? addresses.slice(0, 1) : addresses).map((a) => a.id);
}

type RefreshingAuthProvider = { refreshUser?: () => Promise<CurrentUser> };

/**
 * The header's complex and address selection, shared by the header selectors and the lists of
 * News, Requests, Members, Announcements, Voting and Events. Mounted in the default layout, above
 * the routes, so it survives navigation; only the complex id is persisted (localStorage).
 */
export function ComplexSelectionProvider({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  const { refetch: refetchIdentity } = useGetIdentity();
  const authProvider = useAuthProvider() as RefreshingAuthProvider | undefined;
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const complexes = useMemo<ComplexOption[]>(() => (user?.complexes ?? NO_COMPLEXES).map((c) => ({ id: Number(c.id), name: c.name })), [user?.complexes]);
  const [chosen, setChosen] = useState<number | null>(readSavedComplex);
  // The saved/chosen complex while the user still has it, otherwise the first one.
  const complex = complexes.find((c) => c.id === chosen) ?? complexes[0];
  const complexId = complex?.id;

  useEffect(() => {
    if (complexId !== undefined) saveComplex(complexId);
  }, [complexId]);

  const selectComplex = useCallback((id: number) => {
    setChosen(id);
    saveComplex(id);
  }, []);

  // A new complex: reload the user's complexes and select the newest (the last one).
  useEffect(() => {
    const onAdded = async (event: Event) => {
      const refreshed = await authProvider?.refreshUser?.().catch(() => undefined);
      const result = await refetchIdentity().catch(() => undefined);
      const list = (result?.data as unknown as CurrentUser | undefined)?.complexes ?? refreshed?.complexes ?? [];
      const newest = list.at(-1) ?? (event as CustomEvent<{ id?: unknown } | undefined>).detail;
      if (newest?.id !== undefined && newest.id !== null) selectComplex(Number(newest.id));
    };
    window.addEventListener(COMPLEX_ADDED_EVENT, onAdded);
    return () => window.removeEventListener(COMPLEX_ADDED_EVENT, onAdded);
  }, [authProvider, refetchIdentity, selectComplex]);

  // Another complex while on a section's page → back to that section's list.
  const previousComplex = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (complexId === undefined) return;
    const before = previousComplex.current;
    previousComplex.current = complexId;
    if (before === undefined || before === complexId) return;
    const root = sectionRoot(pathname);
    if (root && pathname !== root) navigate(root);
  }, [complexId, pathname, navigate]);

  const { data, isPending, error } = useGetList<RaRecord & { address?: unknown }>(
    'houses',
    {
      filter: { complex_id: complexId },
      pagination: { page: 1, perPage: 1000 },
      sort: { field: 'address', order: 'ASC' },
    },
    { enabled: complexId !== undefined },
  );
  const addressesPending = complexId !== undefined && isPending;
  const addresses = useMemo<AddressOption[]>(() => (data ? data.map((h) => ({ id: Number(h.id), address: String(h.address ?? '') })) : NO_ADDRESSES), [data]);

  // Address selection per complex, in memory; a complex not touched yet uses the preselection.
  const [picked, setPicked] = useState<Record<number, number[]>>({});
  const pickedHere = complexId === undefined ? undefined : picked[complexId];
  const houseIds = useMemo(() => {
    if (complexId === undefined || addressesPending || error) return undefined;
    if (!pickedHere) return defaultHouseIds(addresses);
    const chosenIds = new Set(pickedHere);
    return addresses.filter((a) => chosenIds.has(a.id)).map((a) => a.id);
  }, [complexId, addressesPending, error, pickedHere, addresses]);

  const setHouseIds = useCallback(
    (ids: number[]) => {
      if (complexId !== undefined) setPicked((prev) => ({ ...prev, [complexId]: ids }));
    },
    [complexId],
  );

  const value = useMemo<ComplexSelection>(
    () => ({ complexes, complexId, complex, selectComplex, addresses, addressesPending, houseIds, setHouseIds }),
    [complexes, complexId, complex, selectComplex, addresses, addressesPending, houseIds, setHouseIds],
  );
  return <ComplexSelectionContext.Provider value={value}>{children}</ComplexSelectionContext.Provider>;
}

export const useComplexSelection = () => useContext(ComplexSelectionContext);

export interface ComplexFilter {
  complex_id?: number;
  house_ids?: number[];
}

/**
 * The header selection as a list filter: merge it into the filter of the News, Requests, Members,
 * Announcements, Voting and Events lists (sent as `complex_id` and `house_ids[]`). Stable between
 * renders while the selection does not change.
 */
export function useComplexFilter(): ComplexFilter {
  const { complexId, houseIds } = useComplexSelection();
  // The alternative edition shows no selection, so it narrows no list. (Pages outside the
  // header's sections, such as surveys, do not ask for this filter at all.)
  const shown = EDITION !== 'alt';
  return useMemo(() => {
    const filter: ComplexFilter = {};
    if (!shown) return filter;
    if (complexId !== undefined) filter.complex_id = complexId;
    if (houseIds) filter.house_ids = houseIds;
    return filter;
  }, [shown, complexId, houseIds]);
}
