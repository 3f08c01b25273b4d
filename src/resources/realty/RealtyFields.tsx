import { Stack } from '@mui/material';
import { AutocompleteInput, maxLength, maxValue, minValue, NumberInput, ReferenceInput, required, SelectInput, TextInput } from 'react-admin';
import { REALTY_TYPES } from '../../../contract/realty';

export const realtyTypeChoices = REALTY_TYPES.map((t) => ({ id: t, name: `resources.realty.types.${t}` }));

/** A unit: house, type, number (unique per house and type), area in m², floor, entrance. */
export function RealtyFields() {
  return (
    <>
      <ReferenceInput source="house_id" reference="houses" perPage={50} sort={{ field: 'address', order: 'ASC' }}>
        <AutocompleteInput optionText="address" filterToQuery={(q) => ({ q })} validate={required()} fullWidth />
      </ReferenceInput>
      <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
        <SelectInput source="type" choices={realtyTypeChoices} validate={required()} sx={{ flex: 1 }} />
        <TextInput source="number" validate={[required(), maxLength(20)]} sx={{ flex: 1 }} />
      </Stack>
      <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
        <NumberInput source="area" step={0.01} min={0} validate={[minValue(0.01), maxValue(100000)]} sx={{ flex: 1 }} />
        <NumberInput source="floor" validate={[minValue(-10), maxValue(200)]} sx={{ flex: 1 }} />
        <NumberInput source="entrance" validate={[minValue(1), maxValue(100)]} sx={{ flex: 1 }} />
      </Stack>
    </>
  );
}
