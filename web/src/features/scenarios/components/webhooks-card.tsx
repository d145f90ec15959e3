import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../../components/confirm-button';
import { ErrorState, InlineError, Loading } from '../../../components/states';
import { TextField } from '../../../components/text-field';
import { PlusIcon, TrashIcon } from '../../../components/icons';
import { useWebhooks } from '../api/get-webhooks';
import { useCreateWebhook } from '../api/create-webhook';
import { useDeleteWebhook } from '../api/delete-webhook';
import { WebhookAttempts } from './webhook-attempts';

/** Endpoints that receive signed event POSTs, and what happened to each delivery. */
export function WebhooksCard() {
  const { data, isPending, error, refetch } = useWebhooks();
  const remove = useDeleteWebhook();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="card" aria-label="Webhooks">
      <div className="card-header">
        <div>
          <h2>Webhooks</h2>
          <p>Signed POSTs for every state change, open, click and domain change; retried with backoff.</p>
        </div>
      </div>
      {isPending ? (
        <Loading label="Loading webhooks" />
      ) : !data ? (
        <ErrorState error={error} title="Webhooks could not be loaded" onRetry={() => void refetch()} />
      ) : data.length === 0 ? (
        <p className="card-empty">No webhooks. Add your app's endpoint below.</p>
      ) : (
        <ul className="webhooks">
          {data.map((hook) => (
            <li key={hook.id} className="webhook">
              <div className="webhook-row">
                <div className="webhook-text">
                  <span className="mono webhook-url">{hook.url}</span>
                  <span className="webhook-events">
                    {hook.events?.length ? hook.events.join(', ') : 'all events'} · {hook.deliveries.delivered} delivered, {hook.deliveries.pending} pending, {hook.deliveries.failed} failed
                  </span>
                </div>
                <button type="button" className="btn btn-ghost btn-sm" aria-expanded={open === String(hook.id)} onClick={() => setOpen(open === String(hook.id) ? null : String(hook.id))}>
                  Attempts
                </button>
                <ConfirmButton className="btn btn-ghost btn-sm btn-danger" confirmLabel="Delete webhook" onConfirm={() => remove.mutate(hook.id)}>
                  <TrashIcon size={14} />
                  <span className="visually-hidden">Delete webhook {hook.url}</span>
                </ConfirmButton>
              </div>
              {open === String(hook.id) && <WebhookAttempts id={hook.id} />}
            </li>
          ))}
        </ul>
      )}
      <InlineError error={remove.error} />
      <WebhookForm />
    </section>
  );
}

function WebhookForm() {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const create = useCreateWebhook();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return setProblem('Enter an http:// or https:// URL.');
    setProblem(undefined);
    const list = events.split(/[\s,]+/).filter(Boolean);
    create.mutate({ url: url.trim(), ...(secret ? { secret } : {}), ...(list.length ? { events: list } : {}) }, { onSuccess: () => { setUrl(''); setSecret(''); setEvents(''); } });
  };
  return (
    <form className="card-body webhook-form" onSubmit={submit} noValidate aria-label="New webhook">
      <div className="form-grid">
        <TextField label="Endpoint URL" placeholder="e.g. http://localhost:3000/webhooks/email" value={url} onChange={setUrl} error={problem} />
        <TextField label="Secret" placeholder="--webhook-secret, or generated" value={secret} onChange={setSecret} />
        <TextField label="Events" placeholder="all, or e.g. email.bounced, email.complaint" value={events} onChange={setEvents} />
      </div>
      <div className="form-footer">
        <InlineError error={create.error} />
        <button type="submit" className="btn" disabled={create.isPending}>
          <PlusIcon size={15} /> Add webhook
        </button>
      </div>
    </form>
  );
}
