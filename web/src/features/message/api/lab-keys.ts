/**
 * Query keys of the quality-lab checks. Kept apart from messageKeys.detail(id): a live update of
 * the email (a delivery step, a read flag) does not change its HTML, spam score or signature, so
 * it must not refetch them.
 */
export const labKeys = {
  all: ['lab'] as const,
  check: (id: string, check: 'html-check' | 'spam' | 'auth') => [...labKeys.all, id, check] as const,
};
