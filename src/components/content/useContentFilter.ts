import { EDITION } from '../../edition';
import { useComplexFilter, type ComplexFilter } from '../../layout/complexSelection';

const NONE: ComplexFilter = {};

/**
 * The list filter of News, Announcements and Events: the header's complex and address selection.
 * The alternative edition shows no selector, so its lists are not narrowed by it.
 */
export function useContentFilter(): ComplexFilter {
  const filter = useComplexFilter();
  return EDITION === 'alt' ? NONE : filter;
}
