import { EMAIL_STATUS_LIST } from '../../../lib/statuses';
import { readSearch, setToken } from '../search-query';

/** A status menu that edits the `status:` part of the search text, so the query stays the one source of truth. */
export function StatusFilter({ query, onChange }: { query: string; onChange: (query: string) => void }) {
  const { statuses } = readSearch(query);
  const value = statuses.length === 0 ? '' : statuses.length === 1 ? statuses[0] : 'several';
  return (
    <select className="select status-filter" aria-label="Status" value={value} onChange={(event) => onChange(setToken(query, 'status', event.target.value || null))}>
      <option value="">All statuses</option>
      {EMAIL_STATUS_LIST.map((status) => (
        <option key={status} value={status}>
          {status[0].toUpperCase() + status.slice(1)}
        </option>
      ))}
      {value === 'several' && (
        <option value="several" disabled>
          {statuses.join(', ')}
        </option>
      )}
    </select>
  );
}
