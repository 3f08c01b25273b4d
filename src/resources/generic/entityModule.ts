import { createElement, type ComponentType } from 'react';
import type { ResourceProps } from 'react-admin';
import type { EntityDeclaration } from '../../../contract/entity';
import type { Area } from '../../../contract/permissions';
import { page, type AppRoute } from '../../lib/routing';
import { defineModule, type LegacyPage, type ModuleMenuItem, type ResourceModule } from '../module';

export interface EntityModuleOptions {
  /** The resource name and permission area, as the declaration says (a test compares them). */
  name: string;
  area: Area;
  /** The list screen's path. */
  path: string;
  /** The declaration, loaded with the screen: its schemas stay out of the first JavaScript. */
  load: () => Promise<EntityDeclaration>;
  recordRepresentation?: ResourceProps['recordRepresentation'];
  routes?: AppRoute[];
  menu?: ModuleMenuItem[];
  legacy?: LegacyPage[];
  /** A list screen of its own (an entity with workflow screens), instead of the generic one. */
  list?: () => Promise<{ default: ComponentType }>;
}

/**
 * The module of a declared entity: its react-admin resource and its list screen, built from the
 * declaration, with the options' extra routes, sidebar items and old addresses.
 */
export function entityModule(opts: EntityModuleOptions): ResourceModule & { entity: EntityModuleOptions } {
  const screen = async () => {
    const [{ EntityList }, entity] = await Promise.all([import('./EntityList'), opts.load()]);
    return { default: () => createElement(EntityList, { entity }) };
  };
  return {
    ...defineModule({
      resources: [{ name: opts.name, recordRepresentation: opts.recordRepresentation }],
      routes: [page(opts.path, opts.area, opts.list ?? screen), ...(opts.routes ?? [])],
      menu: opts.menu,
      legacy: opts.legacy,
    }),
    entity: opts,
  };
}
