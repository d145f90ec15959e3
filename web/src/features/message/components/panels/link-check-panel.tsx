import type { LinkCheckEntry } from '../../../../../../shared/lab';
import { EmptyState, InlineError } from '../../../../components/states';
import { InfoIcon } from '../../../../components/icons';
import { ApiError } from '../../../../lib/api-client';
import { useCheckLinks } from '../../api/check-links';

/** Do the links work? Fetched only when asked (it reaches other servers), HEAD then GET, bounded. */
export function LinkCheckPanel({ id, linkCount }: { id: string; linkCount: number }) {
  const check = useCheckLinks();
  const result = check.data && check.variables?.id === id ? check.data : null;
  // Off unless sendbox was started with --link-check (it makes sendbox reach other servers).
  if (check.error instanceof ApiError && check.error.status === 403 && check.variables?.id === id) {
    return (
      <EmptyState icon={<InfoIcon size={28} />} title="Link check is off">
        <p>{check.error.message}.</p>
        <p className="lab-flag mono">sendbox --link-check</p>
      </EmptyState>
    );
  }
  return (
    <div className="lab-panel">
      <div className="lab-summary">
        <div>
          <p className="lab-summary-title">
            {result ? `${result.ok} of ${result.checked} links and images answered OK` : `Fetch the ${linkCount === 1 ? 'link' : 'links'} and images of this email to see which ones work`}
          </p>
          <p className="panel-note">HEAD, then GET when refused · up to 5 redirects · no cookies or credentials sent</p>
        </div>
        <button type="button" className="btn btn-primary lab-action" disabled={check.isPending} onClick={() => check.mutate({ id })}>
          {check.isPending ? 'Checking…' : result ? 'Check again' : 'Check links'}
        </button>
      </div>
      <InlineError error={check.error} />
      {result && result.checked === 0 && <EmptyState title="No links">This email has no http(s) links or images.</EmptyState>}
      {result && result.checked > 0 && (
        <div className="panel-scroll">
          <table className="table" aria-label="Link check results">
            <thead>
              <tr>
                <th>Status</th>
                <th>URL</th>
                <th>Time</th>
              </tr>
            </thead>
            <tbody>
              {[...result.links].sort((a, b) => Number(a.ok) - Number(b.ok)).map((link) => (
                <LinkRow key={link.url} link={link} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result && result.skipped.length > 0 && <p className="panel-note">{result.skipped.length} more not checked (at most {result.limits.max_links} per check).</p>}
    </div>
  );
}

function LinkRow({ link }: { link: LinkCheckEntry }) {
  return (
    <tr>
      <td>
        <span className={`badge badge-plain tone-${link.ok ? 'green' : 'red'}`}>{link.status ?? 'error'}</span>
      </td>
      <td className="lab-url">
        <span className="mono">{link.url}</span>
        {link.kind === 'image' && <span className="panel-note"> · image</span>}
        {link.redirects > 0 && <div className="panel-note">→ {link.final_url} ({link.redirects} redirect{link.redirects === 1 ? '' : 's'})</div>}
        {link.error && <div className="lab-error">{link.error}</div>}
      </td>
      <td className="mono panel-note">{link.time_ms} ms</td>
    </tr>
  );
}
