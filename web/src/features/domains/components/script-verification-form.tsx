import { useState, type FormEvent } from 'react';
import type { DomainIdentity, DomainStatus, RecordKey } from '../../../../../shared/domain';
import { InlineError } from '../../../components/states';
import { SelectField } from '../../../components/select-field';
import { useScriptVerification, type VerificationScript } from '../api/script-verification';

const OVERALL: { value: DomainStatus | 'records'; label: string }[] = [
  { value: 'success', label: 'succeeds' },
  { value: 'failed', label: 'fails' },
  { value: 'pending', label: 'stays pending' },
  { value: 'temporary_failure', label: 'hits a DNS error (temporary failure)' },
  { value: 'records', label: 'decides per record…' },
];
const RECORD_LABELS: Record<RecordKey, string> = { dkim: 'DKIM', spf: 'SPF', bounce: 'Bounce', dmarc: 'DMARC' };
// Not shared RECORD_KEYS: that module would bring zod into the bundle.
const RECORD_KEYS = Object.keys(RECORD_LABELS) as RecordKey[];
type RecordOutcome = 'success' | 'failed' | 'pending';

/** Decide what the next Verify answers, so a test (or you) can see the failure paths without real DNS. */
export function ScriptVerificationForm({ identity }: { identity: DomainIdentity }) {
  const [choice, setChoice] = useState<DomainStatus | 'records'>('failed');
  const [records, setRecords] = useState<Record<RecordKey, RecordOutcome>>({ dkim: 'failed', spf: 'success', bounce: 'success', dmarc: 'success' });
  const [done, setDone] = useState<string | null>(null);
  const script = useScriptVerification();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: VerificationScript = choice === 'records' ? { records } : { status: choice };
    script.mutate(
      { domain: identity.value, team_id: identity.team_id, script: body },
      { onSuccess: () => setDone(choice === 'records' ? 'Scripted per record. Press Verify to run the check.' : `Scripted: the next check ${OVERALL.find((o) => o.value === choice)?.label}. Press Verify to run it.`) },
    );
  };

  return (
    <form className="script-form" onSubmit={submit} aria-label="Script the next verification">
      <h3>Script the next check</h3>
      <div className="script-row">
        <SelectField label="The next check" value={choice} onChange={(value) => { setChoice(value); setDone(null); }}>
          {OVERALL.map((o) => (
            <option key={o.value} value={o.value}>{o.label}</option>
          ))}
        </SelectField>
        {choice === 'records' &&
          RECORD_KEYS.map((key) => (
            <SelectField key={key} label={RECORD_LABELS[key]} value={records[key]} onChange={(value) => setRecords({ ...records, [key]: value })}>
              <option value="success">success</option>
              <option value="failed">failed</option>
              <option value="pending">pending</option>
            </SelectField>
          ))}
        <button type="submit" className="btn" disabled={script.isPending}>
          Script
        </button>
      </div>
      {done && <p className="form-note" role="status">{done}</p>}
      <InlineError error={script.error} />
    </form>
  );
}
