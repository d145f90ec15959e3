import { useState, type FormEvent } from 'react';
import type { SandboxEmail } from '../../../../../shared/sandbox';
import { TextField } from '../../../components/text-field';
import { InlineError } from '../../../components/states';
import { SendIcon } from '../../../components/icons';
import { useRelay, useReleaseEmail } from '../api/release-email';

/** Splits "a@x.com, b@y.com" (commas, semicolons or spaces) into addresses. */
const addresses = (value: string) => value.split(/[\s,;]+/).map((a) => a.trim()).filter(Boolean);

/** Release to a real server: recipients (prefilled with the email's own), the relay and its allow list, the result. */
export function ReleaseForm({ email, onClose }: { email: SandboxEmail; onClose: () => void }) {
  const relay = useRelay();
  const release = useReleaseEmail();
  const [to, setTo] = useState(() => email.to_addresses.join(', '));

  if (relay.isPending) return null;
  const info = relay.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    release.mutate({ id: email.id, to: addresses(to) });
  };

  return (
    <form className="release-form" aria-label="Release to a real server" onSubmit={submit}>
      {!info?.configured ? (
        <p className="release-hint" role="status">
          Release is off. Start sendbox with <code>--relay smtp://user:pass@host:port</code> and <code>--relay-allow</code> to send this email to a real mailbox.
        </p>
      ) : (
        <>
          <TextField
            label="Release to"
            value={to}
            onChange={setTo}
            placeholder="qa@example.com"
            hint={`Through ${info.relay}. Allowed: ${info.allow.length ? info.allow.join(', ') : 'nobody yet (--relay-allow)'}`}
            autoFocus
          />
          <div className="release-actions">
            <button type="submit" className="btn btn-primary btn-sm" disabled={release.isPending || addresses(to).length === 0}>
              <SendIcon size={14} /> {release.isPending ? 'Sending…' : 'Send'}
            </button>
          </div>
        </>
      )}
      <button type="button" className="btn btn-ghost btn-sm release-close" onClick={onClose}>
        Close
      </button>
      <InlineError error={relay.error ?? release.error} />
      {release.data && (
        <p className="release-done" role="status">
          Released to {release.data.to.join(', ')} via {release.data.relay}: {release.data.response}
        </p>
      )}
    </form>
  );
}
