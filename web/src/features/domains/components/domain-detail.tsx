import type { DomainIdentity } from '../../../../../shared/domain';
import { ConfirmButton } from '../../../components/confirm-button';
import { InlineError } from '../../../components/states';
import { RefreshIcon, TrashIcon } from '../../../components/icons';
import { StatusBadge } from '../../../components/status-badge';
import { fullDate } from '../../../lib/format';
import { useDeleteDomain } from '../api/delete-domain';
import { useVerifyDomain } from '../api/verify-domain';
import { RecordsTable } from './records-table';
import { ScriptVerificationForm } from './script-verification-form';

/** One identity: its overall state, the actions, the records to publish. */
export function DomainDetail({ identity, onDeleted }: { identity: DomainIdentity; onDeleted: () => void }) {
  const verify = useVerifyDomain();
  const remove = useDeleteDomain();
  const ref = { team_id: identity.team_id, domain: identity.value };
  const checked = identity.last_status_checked_at !== identity.created_at;

  return (
    <section className="card domain-detail" aria-label={`Domain ${identity.value}`}>
      <header className="domain-detail-header">
        <div className="domain-title">
          <h2>{identity.value}</h2>
          <StatusBadge status={identity.status} />
          {identity.attributes.verified_for_sending_status && <span className="badge badge-plain tone-green">can send</span>}
        </div>
        <p className="domain-sub">
          <span className="mono">{identity.team_id}</span> · added {fullDate(identity.created_at)}
          {checked && <> · checked {fullDate(identity.last_status_checked_at)}</>}
          {identity.attributes.error_type && <> · <span className="field-error">{identity.attributes.error_type}</span></>}
        </p>
        <div className="domain-actions">
          <button type="button" className="btn btn-primary" disabled={verify.isPending} onClick={() => verify.mutate(ref)}>
            <RefreshIcon size={15} className={verify.isPending ? 'spinning' : undefined} />
            {verify.isPending ? 'Verifying…' : 'Verify'}
          </button>
          <ConfirmButton confirmLabel={`Delete ${identity.value}`} onConfirm={() => remove.mutate(ref, { onSuccess: onDeleted })} disabled={remove.isPending}>
            <TrashIcon size={15} /> Delete
          </ConfirmButton>
        </div>
        <InlineError error={verify.error ?? remove.error} />
      </header>
      <RecordsTable identity={identity} />
      <ScriptVerificationForm identity={identity} />
    </section>
  );
}
