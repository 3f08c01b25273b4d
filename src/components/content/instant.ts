/** datetime-local inputs give local wall time ("2026-05-09T10:00"); the API takes an instant. */
export const toInstant = (v: string | null | undefined) => (v ? new Date(v).toISOString() : null);
