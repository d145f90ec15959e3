import { useState, type FormEvent } from 'react';
import type { DomainIdentity } from '../../../../../shared/domain';
import { ApiError } from '../../../lib/api-client';
import { InlineError } from '../../../components/states';
import { PlusIcon } from '../../../components/icons';
import { useAddDomain } from '../api/add-domain';

// Labels of letters, digits and hyphens with at least one dot; the server has the last word (IDNs, lengths).
const DOMAIN = /^(?=.{1,253}\.?$)(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+[a-z\u00a1-\uffff][a-z0-9\u00a1-\uffff-]{0,62}\.?$/i;

/** Team + domain name → a new identity with its records. */
export function AddDomainForm({ teamId, teams, onAdded }: { teamId: string | null; teams: string[]; onAdded: (identity: DomainIdentity) => void }) {
  const [team, setTeam] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddDomain();
  // Until the user types a team, follow the selected mailbox (or the first team once they load).
  const effectiveTeam = team ?? teamId ?? teams[0] ?? '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = value.trim().toLowerCase();
    if (!effectiveTeam.trim()) return setProblem('Choose the team that owns the domain.');
    if (!DOMAIN.test(name)) return setProblem('Enter a domain name such as acme.test (labels separated by dots).');
    setProblem(null);
    add.mutate(
      { team_id: effectiveTeam.trim(), value: name },
      {
        onSuccess: (identity) => {
          setValue('');
          onAdded(identity);
        },
      },
    );
  };
  const serverField = add.error instanceof ApiError ? add.error.errors.find((e) => e.field === 'value')?.message : undefined;

  return (
    <form className="card add-domain" onSubmit={submit} noValidate aria-label="Add a domain">
      <label className="field add-domain-team">
        <span>Team</span>
        <input className="input" list="domain-teams" value={effectiveTeam} onChange={(e) => setTeam(e.target.value)} placeholder="team_…" spellCheck={false} />
        <datalist id="domain-teams">
          {teams.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </label>
      <label className="field add-domain-name">
        <span>Domain</span>
        <input className="input" value={value} onChange={(e) => setValue(e.target.value)} placeholder="acme.test" spellCheck={false} autoCapitalize="off" aria-invalid={Boolean(problem || serverField) || undefined} />
      </label>
      <button type="submit" className="btn btn-primary" disabled={add.isPending}>
        <PlusIcon size={15} /> Add domain
      </button>
      <div className="add-domain-errors">
        {problem ? <p className="field-error" role="alert">{problem}</p> : <InlineError error={add.error} />}
      </div>
    </form>
  );
}
