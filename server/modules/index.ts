import type { FastifyRegisterOptions } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicAuthRoutes, sessionRoutes } from './auth/routes.ts';
import { advertisementRoutes } from './advertisements/routes.ts';
import { announcementRoutes } from './announcements/routes.ts';
import { articleRoutes } from './articles/routes.ts';
import { contactRoutes } from './contacts/routes.ts';
import { discountRoutes } from './discounts/routes.ts';
import { documentRoutes } from './documents/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { complexRoutes } from './complexes/routes.ts';
import { plainEntityRoutes } from './declared.ts';
import { houseRoutes } from './houses/routes.ts';
import { houseTypeRoutes } from './houseTypes/routes.ts';
import { memberRoutes } from './members/routes.ts';
import { residentRoutes } from './members/residentsRoutes.ts';
import { residentRoleRoutes } from './residentRoles/routes.ts';
import { vehicleRoutes } from './members/vehiclesRoutes.ts';
import { billRoutes } from './members/billsRoutes.ts';
import { memberImportRoutes } from './members/importRoutes.ts';
import { mediaRoutes } from './media/routes.ts';
import { outboxRoutes } from './outbox/routes.ts';
import { realtyRoutes } from './realty/routes.ts';
import { referenceRoutes } from './reference/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { setupRoutes } from './setup/routes.ts';
import { supportRoutes } from './support/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { requestTypeRoutes } from './requestTypes/routes.ts';
import { staffRoleRoutes } from './staff/roleRoutes.ts';
import { staffRoutes } from './staff/routes.ts';
import { votingRoutes } from './voting/routes.ts';
import { interviewRoutes } from './interview/routes.ts';
import { PUBLIC_VOTING_PREFIX, publicVotingRoutes } from './voting/publicRoutes.ts';
import type { SignatureProvider } from './voting/signature.ts';
import { liveStreamRoutes, liveTicketRoutes } from './live/routes.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { savedViewRoutes } from './savedViews/routes.ts';
import { linkChatRoutes } from './serviceRequests/linkChat.ts';
import { serviceRequestCrudRoutes, serviceRequestRoutes } from './serviceRequests/routes.ts';

/** What the application hands to the route plugins that take options (server/app.ts `buildApp`). */
export interface RouteDeps {
  /** Qualified electronic signature providers for co-owners' ballots. */
  signatureProviders: SignatureProvider[];
}

/** A route plugin and, when it takes any, the options it is registered with. */
export interface RouteModule {
  plugin: FastifyPluginAsyncZod<any>;
  options?: (deps: RouteDeps) => FastifyRegisterOptions<any>;
}

const route = <O extends object>(plugin: FastifyPluginAsyncZod<O>, options?: (deps: RouteDeps) => FastifyRegisterOptions<O>): RouteModule => ({
  plugin,
  options,
});

/** Under /api/admin, without a sign-in: signing in, password recovery, the live-updates stream (its ticket). */
export const PUBLIC_ROUTES: RouteModule[] = [route(publicAuthRoutes), route(liveStreamRoutes)];

/** Under /api/admin, behind the bearer-token check (`requireAuth`), in registration order. */
export const SECURED_ROUTES: RouteModule[] = [
  route(sessionRoutes),
  route(complexRoutes),
  route(houseRoutes),
  route(houseTypeRoutes),
  route(realtyRoutes),
  route(referenceRoutes),
  route(outboxRoutes),
  route(settingsRoutes),
  route(setupRoutes),
  route(supportRoutes),
  route(dashboardRoutes),
  route(staffRoleRoutes),
  route(staffRoutes),
  route(requestTypeRoutes),
  route(memberRoutes),
  route(residentRoutes),
  route(residentRoleRoutes),
  route(vehicleRoutes),
  route(billRoutes),
  route(memberImportRoutes),
  route(mediaRoutes),
  route(articleRoutes),
  route(announcementRoutes),
  route(eventRoutes),
  route(advertisementRoutes),
  route(documentRoutes),
  route(contactRoutes),
  route(discountRoutes),
  route(votingRoutes, ({ signatureProviders }) => ({ signatureProviders })),
  route(serviceRequestCrudRoutes),
  route(serviceRequestRoutes),
  route(notificationRoutes),
  route(savedViewRoutes),
  route(liveTicketRoutes),
  route(interviewRoutes),
  // Declared entities that need nothing beyond their declaration (docs/adding-an-entity.md): last.
  route(plainEntityRoutes),
];

/** Outside /api/admin, each under its own prefix: the APIs of the pages opened from a link (docs/architecture.md, "Link pages"). */
export const LINK_ROUTES: RouteModule[] = [
  // The co-owner's voting page calls these without an admin login (a one-time code instead).
  route(publicVotingRoutes, ({ signatureProviders }) => ({ prefix: PUBLIC_VOTING_PREFIX, signatureProviders })),
  // The staff chat by link (/api/staff/chat/{token}; docs/architecture.md, "Link pages"): its token is its only credential.
  route(linkChatRoutes, () => ({ prefix: '/api/staff' })),
];
