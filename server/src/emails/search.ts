import { parseSearch, type SearchTerm } from '../../../shared/search.js';
import { EMAIL_STATUSES, type EmailStatus } from '../../../shared/email.js';
import type { EmailFilter } from '../storage/emails.js';
import { badQuery } from '../errors.js';

/**
 * `?q=` of `GET /sandbox/emails` and of bulk actions: the shared search language turned into a
 * storage filter. Positive terms the filter has a field for go there first (status, read flag,
 * attachments, dates as an id range, one free-text, from, to and subject), so the list keeps
 * its counters and fast paths; everything else (negations, tags, cc, sizes, headers, repeats)
 * becomes a term storage compiles to SQL. A term that cannot be parsed is a 400 naming it.
 */
export function applySearch(filter: EmailFilter, q: string): EmailFilter {
  const { terms, problems } = parseSearch(q);
  if (problems.length) {
    const [first] = problems;
    throw badQuery(`Cannot parse the search term ${first.term}: ${first.message}`, problems.map((p) => ({ field: 'q', message: `${p.term}: ${p.message}` })));
  }
  const out: EmailFilter = { ...filter };
  const rest: SearchTerm[] = [];
  for (const term of terms) if (!intoField(out, term)) rest.push(term);
  if (rest.length) out.terms = [...(out.terms ?? []), ...rest];
  return out;
}

/** Puts a term into a dedicated filter field when that says exactly the same; false otherwise. */
function intoField(filter: EmailFilter, term: SearchTerm): boolean {
  switch (term.kind) {
    case 'status': {
      // -status:x is "any other status": a list the status index and counters can use.
      const named = term.negated ? EMAIL_STATUSES.filter((s) => !term.statuses.includes(s)) : term.statuses;
      const statuses = filter.statuses?.length ? intersect(filter.statuses, named) : named;
      // An empty intersection must match nothing, which an empty list would not say: kept as a term.
      if (statuses.length === 0) return false;
      filter.statuses = statuses;
      return true;
    }
    case 'is': {
      const read = term.read !== term.negated;
      if (filter.isRead !== undefined && filter.isRead !== read) return false;
      filter.isRead = read;
      return true;
    }
    case 'has': {
      if (term.part !== 'attachment') return false;
      const has = !term.negated;
      if (filter.hasAttachment !== undefined && filter.hasAttachment !== has) return false;
      filter.hasAttachment = has;
      return true;
    }
    case 'after':
    case 'before': {
      // -before:X is after:X and the other way round; both bounds become an id range.
      const lower = (term.kind === 'after') !== term.negated;
      if (lower) filter.startMs = Math.max(filter.startMs ?? -Infinity, term.ms);
      else filter.endMs = Math.min(filter.endMs ?? Infinity, term.ms - 1);
      return true;
    }
    case 'text':
      if (term.negated || filter.search !== undefined) return false;
      filter.search = term.value;
      return true;
    case 'from':
    case 'to':
    case 'subject':
      if (term.negated || filter[term.kind] !== undefined) return false;
      filter[term.kind] = term.value;
      return true;
    default:
      return false;
  }
}

const intersect = (a: readonly EmailStatus[], b: readonly EmailStatus[]) => a.filter((s) => b.includes(s));
