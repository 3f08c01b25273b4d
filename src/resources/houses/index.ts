import type { House } from '../../../contract/houses';

/** react-admin resource declarations; screens are mounted by the route table (src/routes.tsx). */
export const houses = { name: 'houses', recordRepresentation: (r: House) => r.address };
export const houseTypes = { name: 'house-types', recordRepresentation: 'name' };
