import { useEffect, useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { AutocompleteArrayInput, useGetList, useTranslate, type RaRecord } from 'react-admin';
import { useCurrentUser } from '../../useCurrentUser';

const NONE: number[] = [];

/**
 * Whom content is for: the user's complexes and, optionally, single houses of them (left empty,
 * the whole complexes). Houses of a complex taken out of the choice are dropped from it too.
 */
export function AudienceInputs({ houses = true }: { houses?: boolean }) {
  const translate = useTranslate();
  const { user } = useCurrentUser();
  const { setValue } = useFormContext();
  const complexIds = (useWatch({ name: 'complex_ids' }) as number[] | undefined) ?? NONE;
  const houseIds = (useWatch({ name: 'house_ids' }) as number[] | undefined) ?? NONE;
  const complexChoices = useMemo(() => (user?.complexes ?? []).map((c) => ({ id: Number(c.id), name: c.name })), [user?.complexes]);
  const { data: houseRows } = useGetList<RaRecord & { address: string; complex_id: number | null }>(
    'houses',
    { filter: { complex_ids: complexIds }, pagination: { page: 1, perPage: 1000 }, sort: { field: 'address', order: 'ASC' } },
    { enabled: houses && complexIds.length > 0 },
  );
  const houseChoices = useMemo(
    () => (complexIds.length ? (houseRows ?? []).map((h) => ({ id: Number(h.id), name: h.address, complex_id: h.complex_id })) : []),
    [houseRows, complexIds.length],
  );

  useEffect(() => {
    if (!houses || !houseRows) return;
    const allowed = new Set(houseRows.filter((h) => h.complex_id !== null && complexIds.includes(h.complex_id)).map((h) => Number(h.id)));
    const kept = houseIds.filter((id) => allowed.has(id));
    if (kept.length !== houseIds.length) setValue('house_ids', kept, { shouldDirty: true });
  }, [houses, houseRows, complexIds, houseIds, setValue]);

  return (
    <>
      <AutocompleteArrayInput
        source="complex_ids"
        label="app.audience.complexes"
        choices={complexChoices}
        fullWidth
        helperText={false}
        validate={(v: unknown) => (Array.isArray(v) && v.length > 0 ? undefined : 'app.audience.complexes_required')}
      />
      {houses && (
        <AutocompleteArrayInput
          source="house_ids"
          label="app.audience.houses"
          choices={houseChoices}
          fullWidth
          disabled={complexIds.length === 0}
          helperText={translate(complexIds.length === 0 ? 'app.audience.houses_complex_first' : 'app.audience.houses_hint')}
        />
      )}
    </>
  );
}
