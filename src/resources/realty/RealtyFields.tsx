import { Stack } from '@mui/material';
import { REALTY_TYPES, realtyEntity } from '../../../contract/realty';
import { EntityInput } from '../generic/EntityInputs';

export const realtyTypeChoices = REALTY_TYPES.map((t) => ({ id: t, name: `resources.realty.types.${t}` }));

const input = (source: string) => <EntityInput entity={realtyEntity} source={source} field={realtyEntity.fields[source]} />;

/** A unit: house, type, number (unique per house and type), area in m², floor, entrance — inputs from the declaration. */
export function RealtyFields() {
  return (
    <>
      {input('house_id')}
      <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
        {input('type')}
        {input('number')}
      </Stack>
      <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
        {input('area')}
        {input('floor')}
        {input('entrance')}
      </Stack>
    </>
  );
}
