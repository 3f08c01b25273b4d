import { complexEntity } from '../../../contract/complexes';
import { EntityInputs } from '../generic/EntityInputs';

/** Fields of a complex, from its declaration; the server repeats these checks and its messages show under the fields. */
export function ComplexFields() {
  return <EntityInputs entity={complexEntity} />;
}
