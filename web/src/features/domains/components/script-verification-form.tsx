import { useState, type FormEvent } from 'react';
import type { DomainIdentity, RecordKey } from '../../../../../shared/domain';
import type { ScriptedRecordStatus, ScriptedStatus, ScriptStep } from '../../../../../shared/domain-scripts';
import { InlineError } from '../../../components/states';
import { SelectField } from '../../../components/select-field';
import { useScriptVerification } from '../api/script-verification';
import { useVerificationScripts } from '../api/get-verification-scripts';

type Choice = ScriptedStatus | 'records';
const CHOICES: { value: Choice; label: string }[] = [
  { value: 'success', label: 'succeeds' },
  { value: 'failed', label: 'fails' },
  { value: 'pending', label: 'stays pending' },
  { value: 'temporary_failure', label: 'hits a DNS error (temporary failure)' },
  { value: 'records', label: 'decides per record…' },
];
const RECORD_LABELS: Record<RecordKey, string> = { dkim: 'DKIM', spf: 'SPF', bounce: 'Bounce', dmarc: 'DMARC' };
// Not shared RECORD_KEYS: that module would bring zod into the bundle.
const RECORD_KEYS = Object.keys(RECORD_LABELS) as RecordKey[];

/** "fails", or "DKIM failed, SPF success…": a scripted step in words. */
function describeStep(step: ScriptStep): string {
  if (step.records) return RECORD_KEYS.filter((k) => step.records?.[k]).map((k) => `${RECORD_LABELS[k]} ${step.records?.[k]}`).join(', ');
  return CHOICES.find((c) => c.value === step.status)?.label ?? step.status ?? 'succeeds';
}

/** Decide what the next Verify answers, so a test (or you) can see the failure paths without real DNS. */
export function ScriptVerificationForm({ identity }: { identity: DomainIdentity }) {
  const [choice, setChoice] = useState<Choice>('failed');
  const [records, setRecords] = useState<Record<RecordKey, ScriptedRecordStatus>>({ dkim: 'failed', spf: 'success', bounce: 'success', dmarc: 'success' });
  const script = useScriptVerification();
  const pending = (useVerificationScripts(identity.value).data ?? []).filter((s) => s.team_id === null || s.team_id === identity.team_id);
  const steps = pending.flatMap((s) => s.steps);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    script.mutate({ domain: identity.value, script: { ...(choice === 'records' ? { records } : { status: choice }), team_id: identity.team_id } });
  };

  return (
    <form className="script-form" onSubmit={submit} aria-label="Script the next verification">
      <h3>Script the next check</h3>
      <div className="script-row">
        <SelectField label="The next check" value={choice} onChange={setChoice}>
          {CHOICES.map((o) => (
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
      {steps.length > 0 && (
        <p className="form-note" role="status">
          Scripted: the next check {describeStep(steps[0])}
          {steps.length > 1 && `, then ${steps.slice(1).map(describeStep).join(', then ')}`}. Press Verify to run it.
        </p>
      )}
      <InlineError error={script.error} />
    </form>
  );
}
