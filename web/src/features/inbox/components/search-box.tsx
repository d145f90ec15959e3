import { useEffect, useRef, useState } from 'react';
import { SearchIcon } from '../../../components/icons';
import { parseSearch } from '../search-query';

export const SEARCH_INPUT_ID = 'inbox-search';

/**
 * The search field. Typing is debounced before it becomes the query (the URL, the request);
 * Enter applies at once, Escape clears. Parsing problems show under the field.
 */
export function SearchBox({ value, onChange }: { value: string; onChange: (query: string) => void }) {
  const [draft, setDraft] = useState(value);
  const latest = useRef(value);
  useEffect(() => {
    // Follow changes made elsewhere (a status picked in the menu, back/forward).
    if (value !== latest.current) {
      latest.current = value;
      setDraft(value);
    }
  }, [value]);
  useEffect(() => {
    if (draft === latest.current) return;
    const timer = setTimeout(() => commit(draft), 250);
    return () => clearTimeout(timer);
  });

  const commit = (query: string) => {
    latest.current = query;
    onChange(query);
  };
  const { problems } = parseSearch(draft);

  return (
    <div className="search">
      <label htmlFor={SEARCH_INPUT_ID} className="visually-hidden">
        Search emails
      </label>
      <div className="search-field">
        <SearchIcon size={15} />
        <input
          id={SEARCH_INPUT_ID}
          type="search"
          className="search-input"
          placeholder="Search (try from: or status:)"
          title="Filters: from: to: subject: status: has:attachment is:unread is:read, and free text"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          aria-describedby={problems.length ? `${SEARCH_INPUT_ID}-problems` : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit(draft);
            if (event.key === 'Escape') {
              if (draft) {
                setDraft('');
                commit('');
              } else event.currentTarget.blur();
            }
          }}
        />
        <kbd aria-hidden="true">/</kbd>
      </div>
      {problems.length > 0 && (
        <p id={`${SEARCH_INPUT_ID}-problems`} className="search-problems" role="status">
          {problems.join(' ')}
        </p>
      )}
    </div>
  );
}
