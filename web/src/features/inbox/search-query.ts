import { formatSearch, parseSearch, parseSearchTokens, removeSearchToken, setSearchKey, type ParsedToken, type SearchKey, type SearchProblem } from '../../../../shared/search';
import type { EmailStatus } from '../../../../shared/email';
import type { EmailListParams } from '../../lib/query-keys';

/**
 * The inbox's view of the search box: the shared parser (shared/search.ts, the one the server
 * uses for `?q=`), so what the chips and explanations say is exactly what the server does.
 */
export interface InboxSearch {
  /** The parsed terms written back: what is sent as `q` (terms that cannot be parsed are left out). */
  q: string;
  problems: SearchProblem[];
  /** Statuses named by positive `status:` terms (for the status menu). */
  statuses: EmailStatus[];
}

export function readSearch(input: string): InboxSearch {
  const { terms, problems } = parseSearch(input);
  const statuses = terms.flatMap((t) => (t.kind === 'status' && !t.negated ? t.statuses : []));
  return { q: formatSearch(terms), problems, statuses: [...new Set(statuses)] };
}

/** The search as `GET /sandbox/emails` query parameters. */
export function toListParams(search: InboxSearch): Pick<EmailListParams, 'q'> {
  return search.q ? { q: search.q } : {};
}

/** Each typed token with its term or its problem: the chips under the search box. */
export function searchChips(input: string): ParsedToken[] {
  return parseSearchTokens(input).filter((t) => t.term !== null || t.problem !== null);
}

/** The query with every `key:` term replaced by `key:value` (removed when value is null), the rest as typed. */
export const setToken = (input: string, key: SearchKey, value: string | null): string => setSearchKey(input, key, value);

/** The query without the token at `index` (a chip's remove button). */
export const removeToken = removeSearchToken;
