import advertisements from './advertisements';
import announcements from './announcements';
import articles from './articles';
import complexes from './complexes';
import contacts from './contacts';
import discounts from './discounts';
import documents from './documents';
import events from './events';
import houses from './houses';
import interview from './interview';
import members from './members';
import realty from './realty';
import requestTypes from './request-types';
import serviceRequests from './service-requests';
import staff from './staff';
import staffRoles from './staff-roles';
import voting from './voting';
import { DECLARED_SCREENS } from 'virtual:declared-screens';
import { entityModule } from './generic/entityModule';
import type { ResourceModule } from './module';

/** The modules written by hand: screens richer than the generic list and form. */
const OWN_MODULES: ResourceModule[] = [
  complexes,
  houses,
  realty,
  staff,
  staffRoles,
  requestTypes,
  members,
  articles,
  announcements,
  events,
  advertisements,
  documents,
  contacts,
  discounts,
  voting,
  serviceRequests,
  interview,
];

/**
 * The screens of declared entities that need nothing beyond their declaration (`screen` in
 * contract/, docs/adding-an-entity.md): built from it, loaded with their screen.
 */
const DECLARED_MODULES = DECLARED_SCREENS.map((s) =>
  entityModule({
    name: s.name,
    area: s.area,
    path: s.path,
    recordRepresentation: s.recordRepresentation,
    load: () => import('../../contract/entities').then((m) => m.findEntity(s.name)!),
    menu: s.menu && [{ ...s.menu, label: `resources.${s.name}.title`, path: s.path, area: s.area }],
    legacy: s.legacy?.map((path) => ({
      path,
      label: `resources.${s.name}.title`,
      target: path === s.path.replace(/^\/dashboard_old\//, '') ? undefined : s.path,
    })),
  }),
);

/** Every resource module: the shell (App.tsx, routes.tsx) maps over this list. */
export const MODULES: ResourceModule[] = [...OWN_MODULES, ...DECLARED_MODULES];
