/** Below this width the sidebar collapses to icons (and to a drawer on phones). */
export const LAYOUT_BREAKPOINT = 1440;

/** Whether the sidebar starts open: decided before the first render, so the content never slides. */
export const sidebarOpenAtStart = () => typeof window === 'undefined' || window.innerWidth >= LAYOUT_BREAKPOINT;
