/**
 * The database schema, one file per domain under schema/ (drizzle-kit reads this file:
 * drizzle.config.ts). Everything else imports tables from here.
 */
export * from './schema/organizations-users.ts';
export * from './schema/reference.ts';
export * from './schema/complexes-houses.ts';
export * from './schema/members.ts';
export * from './schema/outbox.ts';
export * from './schema/community.ts';
export * from './schema/requests.ts';
export * from './schema/voting.ts';
export * from './schema/interview.ts';
export * from './schema/savedViews.ts';
export * from './schema/listChanges.ts';
