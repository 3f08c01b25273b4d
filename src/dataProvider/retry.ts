/**
 * Whether a failed read is worth another try: a network error or a server error may pass, an
 * answer in the 4xx range (not found, forbidden, invalid) will not — it shows at once instead of
 * after three retries. Used as react-query's default `retry`.
 */
export function retryRead(failureCount: number, error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return false;
  return failureCount < 3;
}
