/** What went wrong in a fetch, in a word: undici puts the system error (ECONNREFUSED, ENOTFOUND…) in `cause`. */
export function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
