/// <reference types="vite/client" />
declare const __APP_VERSION__: string;
declare const __BUILD_DATE__: string;

interface ImportMetaEnv {
  readonly VITE_EDITION?: 'alt' | 'main';
}

/** The declared entities' own screens (vite.config.ts, `declaredScreens`). */
declare module 'virtual:declared-screens' {
  type EntityDeclaration = import('../contract/entity').EntityDeclaration;
  export const DECLARED_SCREENS: (Pick<EntityDeclaration, 'name' | 'area' | 'texts'> & NonNullable<EntityDeclaration['screen']>)[];
}
