/** Dialog widths used across the product (docs/architecture.md, "Interface conventions": 437 to 796 px). */
export const DIALOG_WIDTH = { small: 437, medium: 560, large: 796 } as const;
export type DialogSize = keyof typeof DIALOG_WIDTH;
