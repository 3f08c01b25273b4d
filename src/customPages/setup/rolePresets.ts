import type { Rules } from '../../../contract/permissions';

/**
 * What the first staff role may be, offered on «З чого почати?» when the organization has no
 * role yet: the usual people of a management company. The matrix on /Roles-departments changes
 * any of them later.
 */
export const ROLE_PRESETS = {
  dispatcher: {
    complexes: ['view'],
    houses: ['view'],
    realty: ['view'],
    service_requests: ['view', 'create', 'edit'],
    service_request_types: ['view'],
    members: ['view', 'create', 'edit'],
    articles: ['view', 'create', 'edit'],
    announcements: ['view', 'create', 'edit'],
  },
  engineer: {
    complexes: ['view'],
    houses: ['view'],
    service_requests: ['view', 'edit'],
  },
  accountant: {
    complexes: ['view'],
    houses: ['view'],
    realty: ['view'],
    members: ['view', 'edit'],
  },
} satisfies Record<string, Rules>;

export type RolePreset = keyof typeof ROLE_PRESETS;
export const ROLE_PRESET_KEYS = Object.keys(ROLE_PRESETS) as RolePreset[];
