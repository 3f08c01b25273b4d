import { advertisementEntity } from './advertisements.ts';
import { announcementEntity } from './announcements.ts';
import { articleEntity } from './articles.ts';
import { interviewEntity } from './interview.ts';
import { cameraEntity } from './cameras.ts';
import { contactEntity, contactGroupEntity, contactSectionEntity } from './contacts.ts';
import { houseTypeEntity } from './houses.ts';
import { memberEntity } from './members.ts';
import { departureEntity, requestTypeEntity, staffEntity, staffRoleEntity } from './staff.ts';
import { discountEntity } from './discounts.ts';
import { documentEntity } from './documents.ts';
import { eventEntity } from './events.ts';
import { complexEntity } from './complexes.ts';
import { realtyEntity } from './realty.ts';
import { residentRoleEntity } from './residentRoles.ts';
import type { EntityDeclaration, ResourceDeclaration } from './entity.ts';
import { RESOURCES } from './resources.ts';
import { serviceRequestEntity } from './serviceRequests.ts';
import { vehicleEntity } from './vehicles.ts';
import { votingEntity } from './voting.ts';

/**
 * Every declared entity (docs/adding-an-entity.md). The API registers a generic CRUD plugin for
 * each, the SPA builds its list and form, and the parametrised suites test each. An entity whose
 * sample refers to another declared entity (`refs`) comes after it.
 */
export const ENTITIES = [
  cameraEntity,
  houseTypeEntity,
  requestTypeEntity,
  discountEntity,
  departureEntity,
  staffRoleEntity,
  residentRoleEntity,
  contactSectionEntity,
  contactGroupEntity,
  contactEntity,
  announcementEntity,
  eventEntity,
  complexEntity,
  realtyEntity,
  memberEntity,
  vehicleEntity,
  advertisementEntity,
  documentEntity,
  articleEntity,
  interviewEntity,
  staffEntity,
  votingEntity,
  serviceRequestEntity,
] as const satisfies readonly EntityDeclaration[];

export type EntityName = (typeof ENTITIES)[number]['name'];

/** Entities by react-admin resource name. */
export type EntitiesByName = { [E in (typeof ENTITIES)[number] as E['name']]: E };
export const ENTITY_BY_NAME = Object.fromEntries(ENTITIES.map((e) => [e.name, e])) as EntitiesByName;

export function findEntity(name: string): EntityDeclaration | undefined {
  return (ENTITIES as readonly EntityDeclaration[]).find((e) => e.name === name);
}

/** Every resource's API calls: declared entities and the rest (contract/resources.ts). */
export const ALL_RESOURCES: Record<string, ResourceDeclaration> = { ...RESOURCES, ...ENTITY_BY_NAME };
