import { EmptyState, ErrorState, Loading } from '../../../../components/states';
import { CheckIcon, InfoIcon } from '../../../../components/icons';
import { useSpam } from '../../api/get-spam';

/** Will it pass the filters? The score a real SpamAssassin (or rspamd) gives the message as received. */
export function SpamPanel({ id }: { id: string }) {
  const { data, error, isPending, refetch } = useSpam(id);
  if (isPending) return <Loading label="Asking the spam filter" />;
  if (error) return <ErrorState error={error} title="The spam filter did not answer" onRetry={() => void refetch()} />;
  if (!data.configured) {
    return (
      <EmptyState icon={<InfoIcon size={28} />} title="No spam filter configured">
        <p>{data.message}</p>
        <p className="lab-flag mono">sendbox --spamassassin 127.0.0.1:783</p>
      </EmptyState>
    );
  }
  const spam = data.verdict === 'spam';
  return (
    <div className="lab-panel">
      <div className="lab-summary">
        <div className={`lab-score tone-${spam ? 'red' : 'green'}`} role="img" aria-label={`Spam score ${data.score}`}>
          {data.score}
        </div>
        <div>
          <p className="lab-summary-title">{spam ? 'Spam' : 'Not spam'}: {data.score} points, threshold {data.threshold}</p>
          <p className="panel-note">
            {data.backend === 'spamassassin' ? 'SpamAssassin' : 'rspamd'} at {data.server}{data.action ? ` · action: ${data.action}` : ''} · checked {new Date(data.checked_at).toLocaleString()}
          </p>
        </div>
      </div>
      {data.rules.length === 0 ? (
        <EmptyState icon={<CheckIcon size={28} />} title="No rule matched" />
      ) : (
        <div className="panel-scroll">
          <table className="table" aria-label="Rules hit">
            <thead>
              <tr>
                <th>Points</th>
                <th>Rule</th>
                <th>Description</th>
              </tr>
            </thead>
            <tbody>
              {data.rules.map((rule) => (
                <tr key={rule.name}>
                  <td className={`mono lab-points ${rule.score > 0 ? 'lab-points-up' : rule.score < 0 ? 'lab-points-down' : ''}`}>{rule.score > 0 ? `+${rule.score}` : rule.score}</td>
                  <td className="mono">{rule.name}</td>
                  <td>{rule.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
