import dashboard from './dashboard';
import meeting from './meeting';
import request from './request';
import setup from './setup';
import staffChat from './staff-chat';
import user from './user';
import vote from './vote';
import type { ResourceModule } from '../resources/module';

/**
 * Screens that are not plain CRUD of one resource, each folder a module like a resource's
 * (src/resources/module.ts); they use the generic parts where those fit. tours/ holds the guided
 * tours the layout shows.
 */
export const CUSTOM_PAGES: ResourceModule[] = [dashboard, setup, user, vote, staffChat, request, meeting];
