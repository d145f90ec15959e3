import type { EmailLogEntry } from '../../../../../../shared/email';
import type { EmailActivity, RecipientOutcome, SandboxEmail } from '../../../../../../shared/sandbox';
import { EmptyState } from '../../../../components/states';
import { StatusBadge } from '../../../../components/status-badge';
import { fullDate, unixTime } from '../../../../lib/format';
import { decidedByText } from '../../decided-by';
import { SimulateActions } from './simulate-actions';

interface RecipientStory {
  recipient: string;
  type: string;
  outcome: RecipientOutcome | undefined;
  logs: EmailLogEntry[];
  activity: EmailActivity[];
}

/** Groups the email's log entries, outcomes and opens/clicks by recipient, in the order recipients were given. */
export function recipientStories(email: SandboxEmail): RecipientStory[] {
  const order: string[] = [];
  const seen = (r: string) => {
    const key = r.toLowerCase();
    if (!order.includes(key)) order.push(key);
    return key;
  };
  email.outcomes.forEach((o) => seen(o.recipient));
  email.logs.forEach((l) => seen(l.recipient));
  return order.map((key) => {
    const logs = email.logs.filter((l) => l.recipient.toLowerCase() === key);
    const outcome = email.outcomes.find((o) => o.recipient.toLowerCase() === key);
    return {
      recipient: outcome?.recipient ?? logs[0]?.recipient ?? key,
      type: logs[0]?.recipient_type ?? 'to',
      outcome,
      logs,
      activity: (email.events ?? []).filter((e) => e.recipient.toLowerCase() === key),
    };
  });
}

/** A timeline per recipient: every stage with its SMTP code and response, what decided the outcome, and buttons to simulate what happens next. */
export function DeliveryPanel({ email }: { email: SandboxEmail }) {
  const stories = recipientStories(email);
  if (stories.length === 0) return <EmptyState title="No delivery yet">The simulation has not logged anything for this email.</EmptyState>;
  return (
    <div className="delivery">
      {stories.map((story) => (
        <section key={story.recipient} className="recipient card" aria-label={`Delivery to ${story.recipient}`}>
          <header className="recipient-header">
            <div className="recipient-id">
              <span className="recipient-type">{story.type}</span>
              <span className="recipient-address">{story.recipient}</span>
              {story.outcome && <StatusBadge status={story.outcome.state} />}
            </div>
            {story.outcome && <span className="recipient-decided">decided by <strong>{decidedByText(story.outcome.decided_by)}</strong></span>}
          </header>
          <ol className="timeline">
            {story.logs.map((log, i) => (
              <li key={i} className="timeline-item" data-status={log.status}>
                <span className="timeline-dot" aria-hidden="true" />
                <div className="timeline-main">
                  <div className="timeline-line">
                    <StatusBadge status={isDeferral(log) ? 'deferred' : log.status} label={isDeferral(log) ? 'deferred' : undefined} />
                    {log.code && <code className="smtp-code">{log.code}</code>}
                    <span className="timeline-response">{log.response}</span>
                  </div>
                  <div className="timeline-meta">
                    <time>{unixTime(log.time)}</time>
                    {log.mx_hostname && <span className="mono">{log.mx_hostname}</span>}
                  </div>
                </div>
              </li>
            ))}
            {story.activity.map((event, i) => (
              <li key={`a${i}`} className="timeline-item" data-status={event.type}>
                <span className="timeline-dot" aria-hidden="true" />
                <div className="timeline-main">
                  <div className="timeline-line">
                    <span className="badge tone-blue">{event.type === 'open' ? 'opened' : 'clicked'}</span>
                    {event.url && <span className="timeline-response mono">{event.url}</span>}
                  </div>
                  <div className="timeline-meta">
                    <time>{fullDate(event.at)}</time>
                  </div>
                </div>
              </li>
            ))}
          </ol>
          <SimulateActions email={email} recipient={story.recipient} state={story.outcome?.state ?? story.logs.at(-1)?.status ?? 'processing'} />
        </section>
      ))}
    </div>
  );
}

/** A temporary failure is logged as `queued` with a 4xx code (CONTRACT §8). */
const isDeferral = (log: EmailLogEntry) => log.status === 'queued' && log.code.startsWith('4');
