import { useEffect, useState, type FormEvent } from 'react';
import type { ChaosRates, ChaosSettings } from '../../../../../shared/sandbox';
import { ErrorState, InlineError, Loading } from '../../../components/states';
import { TextField } from '../../../components/text-field';
import { useChaos } from '../api/get-chaos';
import { useUpdateChaos } from '../api/update-chaos';

const RATES: { key: keyof ChaosRates; label: string }[] = [
  { key: 'bounced', label: 'Bounced %' },
  { key: 'failed', label: 'Failed %' },
  { key: 'complaint', label: 'Complaint %' },
  { key: 'deferred', label: 'Deferred %' },
];

type Draft = Record<keyof ChaosRates, string> & { seed: string };
type Problems = Partial<Record<keyof Draft | 'total', string>>;

const toDraft = (s: ChaosSettings): Draft => ({
  bounced: String(+(s.rates.bounced * 100).toFixed(2)),
  failed: String(+(s.rates.failed * 100).toFixed(2)),
  complaint: String(+(s.rates.complaint * 100).toFixed(2)),
  deferred: String(+(s.rates.deferred * 100).toFixed(2)),
  seed: String(s.seed),
});

/** Random outcomes for recipients no rule or convention decided, reproducible with a seed. Rates are shown in percent. */
export function ChaosCard() {
  const { data, isPending, error, refetch } = useChaos();
  return (
    <section className="card" aria-label="Chaos">
      <div className="card-header">
        <div>
          <h2>Chaos</h2>
          <p>Random outcomes for everything rules and conventions leave undecided.</p>
        </div>
      </div>
      {isPending ? <Loading label="Loading chaos settings" /> : data ? <ChaosForm settings={data} /> : <ErrorState error={error} onRetry={() => void refetch()} />}
    </section>
  );
}

function ChaosForm({ settings }: { settings: ChaosSettings }) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [problems, setProblems] = useState<Problems>({});
  const [saved, setSaved] = useState(false);
  const update = useUpdateChaos();
  useEffect(() => setDraft(toDraft(settings)), [settings]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {};
    const rates = {} as ChaosRates;
    for (const { key, label } of RATES) {
      const value = Number(draft[key]);
      if (draft[key].trim() === '' || !Number.isFinite(value) || value < 0 || value > 100) found[key] = `${label.replace(' %', '')} is a percentage from 0 to 100.`;
      rates[key] = value / 100;
    }
    if (Object.keys(found).length === 0 && RATES.reduce((sum, { key }) => sum + rates[key], 0) > 1) found.total = 'Together the rates cannot pass 100 %.';
    if (!/^\d+$/.test(draft.seed.trim())) found.seed = 'The seed is a whole number.';
    setProblems(found);
    if (Object.keys(found).length) return;
    update.mutate({ rates, seed: Number(draft.seed) }, { onSuccess: () => setSaved(true) });
  };
  const set = (key: keyof Draft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setSaved(false);
  };

  return (
    <form className="card-body chaos-form" onSubmit={submit} noValidate aria-label="Chaos settings">
      <div className="form-grid form-grid-4">
        {RATES.map(({ key, label }) => (
          <TextField key={key} label={label} inputMode="decimal" value={draft[key]} onChange={set(key)} error={problems[key]} />
        ))}
      </div>
      <div className="form-footer">
        <TextField label="Seed" inputMode="numeric" value={draft.seed} onChange={set('seed')} error={problems.seed} className="seed-field" />
        {problems.total && <p className="field-error" role="alert">{problems.total}</p>}
        {saved && <span className="form-note" role="status">Saved</span>}
        <InlineError error={update.error} />
        <button type="submit" className="btn btn-primary" disabled={update.isPending}>
          Save chaos
        </button>
      </div>
    </form>
  );
}
