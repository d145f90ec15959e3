import type { DeliveryOutcome } from '../../../../../shared/sandbox';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import type { RuleFormErrors, RuleFormState, RuleKind } from '../rule-form';

type Setter = <K extends keyof RuleFormState>(key: K) => (value: RuleFormState[K]) => void;

const KINDS: { value: RuleKind; label: string }[] = [
  { value: 'outcome', label: 'Delivery outcome' },
  { value: 'http', label: 'Refuse the API send' },
  { value: 'smtp', label: 'Refuse over SMTP' },
  { value: 'tags', label: 'Tag it' },
];
const OUTCOMES: DeliveryOutcome[] = ['bounced', 'failed', 'deferred', 'complaint', 'delivered'];

/** The "then" half of the rule form; its fields change with the kind of action. */
export function RuleActionFields({ form, errors, set }: { form: RuleFormState; errors: RuleFormErrors; set: Setter }) {
  return (
    <fieldset>
      <legend>Then</legend>
      <div role="radiogroup" aria-label="Action" className="segmented segmented-text rule-kinds">
        {KINDS.map((kind) => (
          <button key={kind.value} type="button" role="radio" aria-checked={form.kind === kind.value} className="segmented-item" onClick={() => set('kind')(kind.value)}>
            {kind.label}
          </button>
        ))}
      </div>
      {form.kind === 'outcome' && (
        <div className="form-grid">
          <SelectField label="Outcome" value={form.outcome} onChange={set('outcome')}>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>{o}</option>
            ))}
          </SelectField>
          <TextField label="SMTP code" inputMode="numeric" placeholder={form.outcome === 'complaint' ? 'none' : `e.g. ${form.outcome === 'deferred' ? '451' : form.outcome === 'delivered' ? '250' : '550'}`} value={form.code} onChange={set('code')} error={errors.code} />
          <TextField label="Response" placeholder="e.g. 5.1.1 user unknown" value={form.response} onChange={set('response')} error={errors.response} />
          <TextField label="Delay (ms)" inputMode="numeric" placeholder="0" value={form.delayMs} onChange={set('delayMs')} error={errors.delayMs} />
        </div>
      )}
      {form.kind === 'http' && (
        <div className="form-grid">
          <SelectField label="HTTP status" value={form.httpStatus} onChange={set('httpStatus')}>
            <option value="429">429 Too Many Requests</option>
            <option value="500">500 Internal Server Error</option>
            <option value="503">503 Service Unavailable</option>
          </SelectField>
          <TextField label="Retry-After (s)" inputMode="numeric" placeholder="e.g. 30" value={form.retryAfter} onChange={set('retryAfter')} error={errors.retryAfter} />
        </div>
      )}
      {form.kind === 'tags' && (
        <div className="form-grid">
          <TextField label="Tags" placeholder="e.g. vip, orders" value={form.tags} onChange={set('tags')} error={errors.tags} />
        </div>
      )}
      {form.kind === 'smtp' && (
        <div className="form-grid">
          <SelectField label="Stage" value={form.smtpStage} onChange={set('smtpStage')}>
            <option value="mail">MAIL FROM</option>
            <option value="rcpt">RCPT TO</option>
            <option value="data">DATA</option>
          </SelectField>
          <TextField label="Reply code" inputMode="numeric" value={form.smtpCode} onChange={set('smtpCode')} error={errors.smtpCode} />
          <TextField label="Reply text" placeholder="e.g. Mailbox unavailable" value={form.smtpMessage} onChange={set('smtpMessage')} error={errors.smtpMessage} />
          <TextField label="Delay (ms)" inputMode="numeric" placeholder="0" value={form.delayMs} onChange={set('delayMs')} error={errors.delayMs} />
          <label className="checkbox">
            <input type="checkbox" checked={form.disconnect} onChange={(e) => set('disconnect')(e.target.checked)} /> Drop the connection
          </label>
        </div>
      )}
    </fieldset>
  );
}
