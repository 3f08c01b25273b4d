/** The sidebar's groups; their items come from the modules (`menu` in src/resources/<name>/index.ts). */
export const MENU_GROUPS = {
  requests: { label: 'app.menu.requests', icon: 'requests' },
  community: { label: 'app.menu.community', icon: 'community' },
  realty: { label: 'app.menu.realty', icon: 'realty' },
  staff: { label: 'app.menu.staff', icon: 'staff' },
} as const;
export type MenuGroupKey = keyof typeof MENU_GROUPS;
