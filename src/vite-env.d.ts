/// <reference types="vite/client" />
declare const __APP_VERSION__: string;
declare const __BUILD_DATE__: string;

interface ImportMetaEnv {
  readonly VITE_EDITION?: 'alt' | 'main';
}

/** The declared entities' own screens (vite.config.ts, `declaredScreens`). */
declare module 'virtual:declared-screens' {
  export const DECLARED_SCREENS: { name: string; area: import('../contract/permissions').Area; path: string; recordRepresentation?: string }[];
}
