import type { ReactNode } from 'react';
import type { AuthResult, AuthVerdict } from '../../../../../../shared/lab';
import { ErrorState, Loading } from '../../../../components/states';
import { AlertIcon, CheckIcon, XCircleIcon } from '../../../../components/icons';
import { useAuth } from '../../api/get-auth';

const TONE: Record<AuthVerdict, 'green' | 'red' | 'amber' | 'gray'> = { pass: 'green', fail: 'red', softfail: 'amber', neutral: 'amber', none: 'gray', temperror: 'amber', permerror: 'red', policy: 'amber' };

/** Will it authenticate? DKIM, SPF and DMARC as a receiving server sees them, plus the bulk-sender rules. */
export function AuthPanel({ id }: { id: string }) {
  const { data, error, isPending, refetch } = useAuth(id);
  if (isPending) return <Loading label="Verifying authentication" />;
  if (error) return <ErrorState error={error} title="Could not verify the message" onRetry={() => void refetch()} />;
  const ok = data.dmarc.result === 'pass';
  return (
    <div className="lab-panel">
      <div className={`lab-verdict tone-${ok ? 'green' : 'amber'}`} role="status">
        {ok ? <CheckIcon size={18} /> : <AlertIcon size={18} />}
        <p>{data.summary}</p>
      </div>
      <div className="lab-grid">
        <Result name="DKIM" verdict={data.dkim[0]?.result ?? 'none'}>
          {data.dkim.length === 0 ? 'No signature.' : data.dkim.map((d) => (
            <span key={`${d.domain}-${d.selector}`} className="lab-detail">
              d={d.domain} s={d.selector} {d.algorithm} · body hash {d.body_hash_matches === false ? 'does not match' : 'matches'}{d.aligned ? ' · aligned' : ''}{d.comment ? ` · ${d.comment}` : ''}
            </span>
          ))}
        </Result>
        <Result name="SPF" verdict={data.spf.result}>
          MAIL FROM {data.spf.mail_from} from {data.spf.ip}
        </Result>
        <Result name="DMARC" verdict={data.dmarc.result}>
          From {data.dmarc.from_domain}{data.dmarc.policy ? ` · p=${data.dmarc.policy}` : ''} · aligned DKIM {data.dmarc.aligned_dkim ? 'yes' : 'no'}, SPF {data.dmarc.aligned_spf ? 'yes' : 'no'}
        </Result>
      </div>
      <BulkSender checks={data.bulk_sender} />
      <h3 className="panel-heading">Authentication-Results, as a receiver adds it</h3>
      <pre className="code-block">{data.authentication_results}</pre>
      <p className="panel-note">DNS: {data.dns === 'real' ? 'real lookups (--dns real)' : 'the records sendbox generated, published only once the domain is verified'}.</p>
    </div>
  );
}

function Result({ name, verdict, children }: { name: string; verdict: AuthVerdict; children: ReactNode }) {
  return (
    <section className="lab-result" aria-label={name}>
      <div className="lab-result-head">
        <h3>{name}</h3>
        <span className={`badge tone-${TONE[verdict]}`}>{verdict}</span>
      </div>
      <div className="lab-detail">{children}</div>
    </section>
  );
}

function BulkSender({ checks }: { checks: AuthResult['bulk_sender'] }) {
  return (
    <section aria-label="Bulk-sender requirements">
      <h3 className="panel-heading">Bulk-sender requirements (Gmail, Yahoo 2024)</h3>
      <ul className="checks">
        {checks.map((check) => (
          <li key={check.id} className={`check check-${check.ok ? 'ok' : 'warning'}`}>
            {check.ok ? <CheckIcon size={17} /> : <XCircleIcon size={17} />}
            <p className="check-message">{check.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
