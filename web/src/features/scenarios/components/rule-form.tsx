import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { InlineError } from '../../../components/states';
import { TextField } from '../../../components/text-field';
import { PlusIcon } from '../../../components/icons';
import { useCreateRule } from '../api/create-rule';
import { emptyRuleForm, serverErrorsToForm, toRuleInput, type RuleFormErrors, type RuleFormState } from '../rule-form';
import { RuleActionFields } from './rule-action-fields';

/** Create a rule: when (all optional, AND-ed), then (an outcome, an API refusal or an SMTP refusal), limits. */
export function RuleForm({ teams }: { teams: string[] }) {
  const [form, setForm] = useState<RuleFormState>(emptyRuleForm);
  const [errors, setErrors] = useState<RuleFormErrors>({});
  const create = useCreateRule();
  const set = <K extends keyof RuleFormState>(key: K) => (value: RuleFormState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { input, errors: found } = toRuleInput(form);
    setErrors(found);
    if (!input) return;
    create.mutate(input, {
      onSuccess: () => {
        setForm(emptyRuleForm());
        setErrors({});
      },
      onError: (error) => {
        if (error instanceof ApiError) setErrors(serverErrorsToForm(error.errors, form.kind));
      },
    });
  };

  return (
    <form className="rule-form" onSubmit={submit} noValidate aria-label="New rule">
      <fieldset>
        <legend>When</legend>
        <div className="form-grid">
          <TextField label="Recipient" placeholder="e.g. *+late@*" value={form.recipient} onChange={set('recipient')} error={errors.recipient} hint="Glob: * and ?, any case" />
          <TextField label="Sender" placeholder="e.g. *@acme.test" value={form.from} onChange={set('from')} error={errors.from} />
          <TextField label="Subject contains" placeholder="e.g. reset" value={form.subject} onChange={set('subject')} error={errors.subject} />
          <TextField label="Header name" placeholder="e.g. X-Env" value={form.headerName} onChange={set('headerName')} error={errors.headerName} />
          <TextField label="Header value" placeholder="e.g. ci" value={form.headerValue} onChange={set('headerValue')} error={errors.headerValue} />
          <TextField label="Team" placeholder="any team" value={form.teamId} onChange={set('teamId')} error={errors.teamId} list="rule-teams" />
          <datalist id="rule-teams">
            {teams.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
      </fieldset>
      <RuleActionFields form={form} errors={errors} set={set} />
      <fieldset>
        <legend>Limits</legend>
        <div className="form-grid">
          <TextField label="Times" inputMode="numeric" placeholder="unlimited" value={form.times} onChange={set('times')} error={errors.times} hint="Expires after this many uses" />
          <TextField label="Only the Nth match" inputMode="numeric" placeholder="every match" value={form.nth} onChange={set('nth')} error={errors.nth} hint="e.g. 3: only the third matching email" />
        </div>
      </fieldset>
      <div className="form-footer">
        <InlineError error={create.error instanceof ApiError && create.error.errors.length ? null : create.error} />
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          <PlusIcon size={15} /> Add rule
        </button>
      </div>
    </form>
  );
}
