import advertisements from './advertisements';
import announcements from './announcements';
import articles from './articles';
import cameras from './cameras';
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
import type { ResourceModule } from './module';

/** Every resource module: the shell (App.tsx, routes.tsx) maps over this list. */
export const MODULES: ResourceModule[] = [
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
  cameras,
  voting,
  serviceRequests,
  interview,
];
