import type { Pagination as PageInfo } from '../../../../../shared/email';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/icons';
import { formatNumber } from '../../../lib/format';

/** "51–100 of 12,345" with previous / next. */
export function Pagination({ info, onPage }: { info: PageInfo; onPage: (page: number) => void }) {
  const { page, limit, total_records: total, total_pages: pages } = info;
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  return (
    <nav className="pagination" aria-label="Pages">
      <span className="pagination-text" aria-live="polite">
        {total === 0 ? 'No emails' : `${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(total)}`}
      </span>
      {pages > 2 && (
        <button type="button" className="btn btn-ghost btn-sm" aria-label="First page" disabled={page <= 1} onClick={() => onPage(1)}>
          Newest
        </button>
      )}
      <button type="button" className="btn btn-ghost btn-sm btn-icon" aria-label="Previous page" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeftIcon />
      </button>
      <button type="button" className="btn btn-ghost btn-sm btn-icon" aria-label="Next page" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        <ChevronRightIcon />
      </button>
      {pages > 2 && (
        <button type="button" className="btn btn-ghost btn-sm" aria-label="Last page" disabled={page >= pages} onClick={() => onPage(pages)}>
          Oldest
        </button>
      )}
    </nav>
  );
}
