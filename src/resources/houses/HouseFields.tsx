import { Stack } from '@mui/material';
import { maxLength, minValue, maxValue, NumberInput, ReferenceInput, required, SelectInput, TextInput, useRecordContext } from 'react-admin';
import type { House } from '../../../contract/houses';
import { CityInput, StreetInput } from './AddressInputs';

/** Address (city and street look-ups, number, building), type, floors and entrances of a house. */
export function HouseFields() {
  const record = useRecordContext<House>();
  return (
    <>
      <CityInput initial={record ? { id: record.city_id, name: record.city, category: 'М', region: record.region, district: null, community: null } : null} />
      <StreetInput initial={record ? { id: record.street_id, name: record.street, type: record.street_type } : null} />
      <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
        <TextInput source="number" validate={[required(), maxLength(20)]} sx={{ flex: 1 }} />
        <TextInput source="building" validate={maxLength(30)} sx={{ flex: 1 }} />
      </Stack>
      <ReferenceInput source="house_type_id" reference="house-types" perPage={100} sort={{ field: 'name', order: 'ASC' }}>
        <SelectInput optionText="name" fullWidth emptyText="resources.houses.no_type" />
      </ReferenceInput>
      <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
        <NumberInput source="floors" min={1} max={200} validate={[minValue(1), maxValue(200)]} sx={{ flex: 1 }} />
        <NumberInput source="entrances" min={1} max={100} validate={[minValue(1), maxValue(100)]} sx={{ flex: 1 }} />
      </Stack>
    </>
  );
}
