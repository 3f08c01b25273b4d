import { useState } from 'react';
import { MenuItem, Stack, TextField } from '@mui/material';
import { useFormContext, useWatch } from 'react-hook-form';
import { AutocompleteInput, ReferenceInput, required, useGetOne, useTranslate } from 'react-admin';
import type { Realty, RealtyType } from '../../../contract/realty';
import { useComplexSelection } from '../../layout/complexSelection';
import { unitLabel } from '../../lib/unitLabel';
import { useCurrentUser } from '../../useCurrentUser';

/**
 * A unit picked by its label or address, among the units of one complex (the realty list's
 * search and its `complex_id`, answered by the server: only the user's complexes). The complex is
 * the unit's own when one is chosen already, otherwise the header's; with more than one complex
 * the picker shows it and lets it change. Labels tell the kinds apart: «кв. 12, вул. Липова, 5»,
 * «паркомісце 3, …», «комора 7, …» (src/lib/unitLabel.ts).
 */
export function UnitInput({ source, type, label, required: isRequired = false }: { source: string; type?: RealtyType; label: string; required?: boolean }) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const value = useWatch({ name: source }) as number | string | null | undefined;
  const { isPending: userPending } = useCurrentUser();
  const { complexes, complexId: headerComplexId } = useComplexSelection();
  const { data: current } = useGetOne<Realty>('realty', { id: Number(value) }, { enabled: value !== undefined && value !== null && value !== '' });
  const [chosen, setChosen] = useState<number | null>(null);
  const complexId = chosen ?? current?.complex_id ?? headerComplexId ?? complexes[0]?.id;
  const filter = { ...(type ? { type } : {}), ...(complexId ? { complex_id: complexId } : {}) };
  return (
    // One above the other: the picker lives in small dialogs, and the labels need the width.
    <Stack sx={{ width: '100%' }}>
      {complexes.length > 1 && (
        <TextField
          select
          size="small"
          label={translate('resources.realty.picker.complex')}
          value={complexId ?? ''}
          onChange={(e) => {
            setChosen(Number(e.target.value));
            // A unit of the other complex is no longer on offer.
            setValue(source, null, { shouldDirty: true });
          }}
          fullWidth
          sx={{ mt: 1, mb: 1 }}
          data-testid="unit-complex"
        >
          {complexes.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {/* Not before the user's complexes are known: the first answer would be every complex's units. */}
      <ReferenceInput
        source={source}
        reference="realty"
        perPage={25}
        filter={filter}
        sort={{ field: 'house', order: 'ASC' }}
        enableGetChoices={() => !userPending}
      >
        <AutocompleteInput
          label={label}
          optionText={(r: Realty) => unitLabel(r, translate)}
          filterToQuery={(q) => ({ q })}
          validate={isRequired ? required() : undefined}
          helperText="resources.realty.picker.hint"
          noOptionsText="resources.realty.picker.empty"
          fullWidth
        />
      </ReferenceInput>
    </Stack>
  );
}
