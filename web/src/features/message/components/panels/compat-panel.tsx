import { useMemo, useState } from 'react';
import type { HtmlCheckClient, HtmlCheckFeature, Platform } from '../../../../../../shared/lab';
import { EmptyState, ErrorState, Loading } from '../../../../components/states';
import { SelectField } from '../../../../components/select-field';
import { ExternalIcon } from '../../../../components/icons';
import { useHtmlCheck } from '../../api/get-html-check';
import { emailScore, featureScore, scoreTone } from '../../lab-score';

const MAX_CHIPS = 10;
const PLATFORM_LABELS: Record<'all' | Platform, string> = { all: 'All platforms', desktop: 'Desktop', mobile: 'Mobile', web: 'Webmail' };

/** Will it look right? Every HTML/CSS feature the email uses, worst first, per client (caniemail data). */
export function CompatPanel({ id }: { id: string }) {
  const { data, error, isPending, refetch } = useHtmlCheck(id);
  const [platform, setPlatform] = useState<'all' | Platform>('all');
  const [family, setFamily] = useState('all');
  const families = useMemo(() => [...new Map((data?.clients ?? []).map((c) => [c.family, c.name.replace(/ \(.*\)$/, '')])).entries()].sort((a, b) => a[1].localeCompare(b[1])), [data]);
  const clients = useMemo(() => (data?.clients ?? []).filter((c) => (platform === 'all' || c.platform === platform) && (family === 'all' || c.family === family)), [data, platform, family]);
  if (isPending) return <Loading label="Checking HTML compatibility" />;
  if (error) return <ErrorState error={error} title="Could not check the HTML" onRetry={() => void refetch()} />;
  if (data.features.length === 0) return <EmptyState title="No HTML to check">This email has no HTML part, or it uses no feature caniemail tracks.</EmptyState>;

  const score = emailScore(data.features, clients);
  const features = [...data.features].sort((a, b) => featureScore(a, clients) - featureScore(b, clients));
  return (
    <div className="lab-panel">
      <div className="lab-summary">
        <div className={`lab-score tone-${scoreTone(score)}`} role="img" aria-label={`Compatibility score ${score} %`}>
          {Math.round(score)}<small>%</small>
        </div>
        <div>
          <p className="lab-summary-title">of opens render every feature this email uses</p>
          <p className="panel-note">
            {clients.length} clients, weighted by share of opens · {data.features.length} features · caniemail data of {data.data.updated.slice(0, 10)}
          </p>
        </div>
        <div className="lab-filters">
          <SelectField label="Platform" value={platform} onChange={setPlatform}>
            {Object.entries(PLATFORM_LABELS).map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </SelectField>
          <SelectField label="Client" value={family} onChange={setFamily}>
            <option value="all">All clients</option>
            {families.map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </SelectField>
        </div>
      </div>
      <ul className="lab-list" aria-label="Features">
        {features.map((feature) => (
          <FeatureRow key={feature.slug} feature={feature} clients={clients} />
        ))}
      </ul>
    </div>
  );
}

function FeatureRow({ feature, clients }: { feature: HtmlCheckFeature; clients: HtmlCheckClient[] }) {
  const score = featureScore(feature, clients);
  const lacking = clients.filter((c) => feature.support[c.id]?.support === 'no');
  const partial = clients.filter((c) => feature.support[c.id]?.support === 'partial');
  return (
    <li className="lab-item">
      <div className="lab-item-head">
        <span className={`badge badge-plain tone-${scoreTone(score)}`}>{Math.round(score)} %</span>
        <a className="lab-item-title" href={feature.url} target="_blank" rel="noopener noreferrer">
          {feature.title} <ExternalIcon size={12} />
        </a>
        <span className="panel-note">{feature.category.toUpperCase()}</span>
        <span className="lab-lines mono">line {feature.uses.map((u) => u.line).join(', ')}</span>
      </div>
      <code className="lab-snippet mono">{feature.uses[0]?.snippet}</code>
      {lacking.length + partial.length === 0 ? (
        <p className="panel-note">Supported by every selected client.</p>
      ) : (
        <div className="lab-clients">
          {lacking.length > 0 && <ClientChips label="Not supported" tone="red" clients={lacking} feature={feature} />}
          {partial.length > 0 && <ClientChips label="Partial" tone="amber" clients={partial} feature={feature} />}
        </div>
      )}
    </li>
  );
}

function ClientChips({ label, tone, clients, feature }: { label: string; tone: 'red' | 'amber'; clients: HtmlCheckClient[]; feature: HtmlCheckFeature }) {
  // The clients with the most opens first; the long tail is counted, not listed.
  const shown = [...clients].sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
  const rest = shown.length - MAX_CHIPS;
  return (
    <p className="lab-chips">
      <span className="lab-chips-label">{label}</span>
      {shown.slice(0, MAX_CHIPS).map((c) => (
        <span key={c.id} className={`badge badge-plain tone-${tone}`} title={feature.support[c.id]?.notes.join(' ') || undefined}>
          {c.name}
        </span>
      ))}
      {rest > 0 && <span className="panel-note">and {rest} more</span>}
    </p>
  );
}
