export {
  COMPLEX_ADDED_EVENT,
  ComplexSelectionProvider,
  PRESELECT_ALL_MAX,
  defaultHouseIds,
  useComplexFilter,
  useComplexSelection,
  type AddressOption,
  type ComplexFilter,
  type ComplexOption,
  type ComplexSelection,
} from './ComplexSelectionProvider';
export { ComplexSelector, type ComplexSelectorProps } from './ComplexSelector';
export { AddressSelector, addressLabel, type AddressSelectorProps } from './AddressSelector';
export { HeaderSelectors, type HeaderSelectorsProps } from './HeaderSelectors';
export { COMPLEX_SECTIONS, isComplexSectionPath, sectionRoot, selectionShown, type ComplexSection } from './sections';
