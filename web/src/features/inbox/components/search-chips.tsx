import { describeTerm } from '../../../../../shared/search';
import { XIcon } from '../../../components/icons';
import { removeToken, searchChips } from '../search-query';

/**
 * The search as the server reads it: one removable chip per parsed filter, and for each term that
 * cannot be parsed, a chip saying why (it is left out of the request until fixed).
 */
export function SearchChips({ query, onChange, id }: { query: string; onChange: (query: string) => void; id: string }) {
  const chips = searchChips(query);
  if (chips.length === 0) return null;
  return (
    <ul className="search-chips" id={id} aria-label="Search filters">
      {chips.map((chip) => (
        <li key={`${chip.index}:${chip.source}`} className="search-chip" data-problem={chip.problem !== null || undefined} title={chip.source}>
          <span className="search-chip-text">
            {chip.term ? describeTerm(chip.term) : <><strong>{chip.source}</strong>: {chip.problem}</>}
          </span>
          <button type="button" className="search-chip-remove" aria-label={`Remove ${chip.source}`} onClick={() => onChange(removeToken(query, chip.index))}>
            <XIcon size={11} />
          </button>
        </li>
      ))}
    </ul>
  );
}
