import { ErrorState, Loading } from '../../../components/states';
import { StatusBadge } from '../../../components/status-badge';
import { fullDate } from '../../../lib/format';
import { useWebhookAttempts } from '../api/get-webhook-attempts';

/** Each POST the webhook made: event, attempt number, the answer (or the network error), when. */
export function WebhookAttempts({ id }: { id: string | number }) {
  const { data, isPending, error } = useWebhookAttempts(id);
  if (isPending) return <Loading label="Loading attempts" />;
  if (!data) return <ErrorState error={error} title="Attempts could not be loaded" />;
  if (data.length === 0) return <p className="card-empty">No deliveries yet. They appear as events happen.</p>;
  return (
    <table className="table attempts-table" aria-label="Delivery attempts">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Try</th>
          <th scope="col">Answer</th>
          <th scope="col">When</th>
        </tr>
      </thead>
      <tbody>
        {data.map((a, i) => {
          return (
            <tr key={a.id ?? i}>
              <td className="mono">{a.event_type}</td>
              <td>{a.attempt}</td>
              <td>
                <StatusBadge status={a.success ? 'success' : 'failed'} label={a.status_code ? String(a.status_code) : a.success ? 'ok' : 'no answer'} />
                {a.error && <span className="attempt-error">{a.error}</span>}
                {a.next_attempt_at && <span className="attempt-retry">next try {fullDate(a.next_attempt_at)}</span>}
              </td>
              <td>{fullDate(a.created_at)} · {a.duration_ms} ms</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
