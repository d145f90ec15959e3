import type { SandboxEmail } from '../../../../../shared/sandbox';
import { StatusBadge } from '../../../components/status-badge';
import { fileSize, fullDate, splitAddress } from '../../../lib/format';
import { MessageTags } from './message-tags';

/** Subject, the address block and the record's facts. Everything is text: names and subjects never become markup. */
export function MessageHeader({ email }: { email: SandboxEmail }) {
  const m = email.metadata;
  const sender = splitAddress(m.from || email.from_address);
  const unverified = Boolean(email.flags?.unverified_sender);
  return (
    <header className="message-header">
      <div className="message-subject-row">
        <h2 className="message-subject">{email.subject || '(no subject)'}</h2>
        <StatusBadge status={email.status} />
      </div>
      <div className="message-from">
        <span className="avatar" aria-hidden="true">{(sender.name || sender.address).trim().charAt(0).toUpperCase() || '?'}</span>
        <div className="message-from-text">
          <div>
            {sender.name && <strong className="message-from-name">{sender.name}</strong>}
            <span className="message-from-address">{sender.name ? `<${sender.address}>` : sender.address}</span>
            {unverified && <span className="badge tone-amber badge-plain" title="The sender's domain is not verified for this team">unverified domain</span>}
          </div>
          <time dateTime={email.created_at} className="message-date">{fullDate(email.created_at)}</time>
        </div>
      </div>
      <MessageTags email={email} />
      <dl className="message-facts">
        <Fact label="To" value={m.to.join(', ')} />
        {m.cc && m.cc.length > 0 && <Fact label="Cc" value={m.cc.join(', ')} />}
        {m.bcc && m.bcc.length > 0 && <Fact label="Bcc" value={m.bcc.join(', ')} />}
        {m.reply_to && <Fact label="Reply-To" value={m.reply_to} />}
        <Fact label="Message ID" value={email.message_id} mono />
        <Fact label="Size" value={`${fileSize(email.size)} · ${email.credits_used} credit${email.credits_used === 1 ? '' : 's'}`} />
        <Fact label="Received" value={`${email.source === 'smtp' ? 'SMTP' : 'API'} · key #${email.api_key_id} · ${email.team_id}`} />
      </dl>
    </header>
  );
}

function Fact({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd className={mono ? 'mono' : undefined}>{value}</dd>
    </div>
  );
}
