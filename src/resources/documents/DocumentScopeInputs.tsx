import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Autocomplete, TextField } from '@mui/material';
import { AutocompleteArrayInput, useGetList, useTranslate, type RaRecord } from 'react-admin';
import type { DocumentRecord } from '../../../contract/documents';
import { useCurrentUser } from '../../useCurrentUser';

const NONE: number[] = [];

type HouseRow = RaRecord & { address: string };
type UnitRow = RaRecord & { number: string; address: string; house_id: number };

/**
 * Whom a document concerns: any mix of complexes, houses and apartments. Apartments are picked
 * house by house (a helper field that is not sent).
 */
export function DocumentScopeInputs({ record }: { record?: DocumentRecord }) {
  const translate = useTranslate();
  const { user } = useCurrentUser();
  const complexChoices = useMemo(() => (user?.complexes ?? []).map((c) => ({ id: Number(c.id), name: c.name })), [user?.complexes]);
  const { data: houses = [] } = useGetList<HouseRow>('houses', {
    pagination: { page: 1, perPage: 1000 },
    sort: { field: 'address', order: 'ASC' },
    filter: {},
  });
  const houseChoices = useMemo(() => houses.map((h) => ({ id: Number(h.id), name: h.address })), [houses]);

  const [unitHouse, setUnitHouse] = useState<{ id: number; name: string } | null>(null);
  const { data: units = [] } = useGetList<UnitRow>(
    'realty',
    { pagination: { page: 1, perPage: 1000 }, sort: { field: 'number', order: 'ASC' }, filter: { type: 'apartment', house_id: unitHouse?.id } },
    { enabled: unitHouse !== null },
  );
  const chosen = (useWatch({ name: 'apartmentIds' }) as number[] | undefined) ?? NONE;
  // Keep the labels of apartments already chosen (from the record or another house) among the choices.
  const [known, setKnown] = useState(() => new Map((record?.apartments ?? []).map((a) => [a.id, `№ ${a.number} — ${a.address}`])));
  const unitChoices = useMemo(() => {
    const map = new Map(known);
    for (const u of units) map.set(Number(u.id), `№ ${u.number} — ${u.address}`);
    const ids = new Set([...units.map((u) => Number(u.id)), ...chosen]);
    return [...ids].map((id) => ({ id, name: map.get(id) ?? `№ ${id}` }));
  }, [known, units, chosen]);

  return (
    <>
      <AutocompleteArrayInput source="complexIds" label="resources.documents.fields.complexIds" choices={complexChoices} fullWidth helperText={false} />
      <AutocompleteArrayInput source="houseIds" label="resources.documents.fields.houseIds" choices={houseChoices} fullWidth helperText={false} />
      <Autocomplete
        options={houseChoices}
        value={unitHouse}
        onChange={(_e, v) => setUnitHouse(v)}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        renderInput={(params) => <TextField {...params} label={translate('resources.documents.apartments_house')} variant="filled" />}
        sx={{ mb: 1, width: '100%' }}
      />
      <AutocompleteArrayInput
        source="apartmentIds"
        label="resources.documents.fields.apartmentIds"
        choices={unitChoices}
        fullWidth
        onChange={(ids: number[]) =>
          setKnown((prev) => new Map([...prev, ...unitChoices.filter((c) => ids.includes(c.id)).map((c) => [c.id, c.name] as const)]))
        }
        helperText={unitHouse ? false : 'resources.documents.apartments_hint'}
      />
    </>
  );
}
