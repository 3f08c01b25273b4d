/** The alternative brand/edition is chosen at build time (VITE_EDITION=alt). */
export type Edition = 'main' | 'alt';
export const EDITION: Edition = import.meta.env.VITE_EDITION === 'alt' ? 'alt' : 'main';
