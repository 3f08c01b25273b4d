import ApartmentOutlined from '@mui/icons-material/ApartmentOutlined';
import type { Complex } from '../../types';

/** react-admin resource declaration; its screens are mounted by the route table (src/routes.tsx). */
export default {
  name: 'complexes',
  icon: ApartmentOutlined,
  recordRepresentation: (r: Complex) => r.name,
};
