import { EDITION, type Edition } from '../../edition';

/** The pages whose lists are filtered by the header's complex and address selection. */
export const COMPLEX_SECTIONS = ['News', 'Requests', 'Members', 'Announcements', 'Voting', 'Events'] as const;
export type ComplexSection = (typeof COMPLEX_SECTIONS)[number];

/**
 * The section a path belongs to (its first segment, case-insensitive), as the capitalised root
 * path: '/news/edit/5' → '/News', '/Requests/12' → '/Requests'; undefined outside the sections.
 */
export function sectionRoot(pathname: string): `/${ComplexSection}` | undefined {
  const first = pathname
    .split('/')
    .find((part) => part !== '')
    ?.toLowerCase();
  const section = COMPLEX_SECTIONS.find((s) => s.toLowerCase() === first);
  return section ? `/${section}` : undefined;
}

export const isComplexSectionPath = (pathname: string) => sectionRoot(pathname) !== undefined;

/**
 * Whether the header shows the complex and address selectors on this path: on the sections above,
 * never in the alternative edition. A list is narrowed by the selection only where it is shown.
 */
export const selectionShown = (pathname: string, edition: Edition = EDITION) => edition !== 'alt' && isComplexSectionPath(pathname);
