import type { DomainIdentity } from '../../../../../shared/domain';
import { EmptyState, ErrorState, Loading } from '../../../components/states';
import { GlobeIcon } from '../../../components/icons';
import { useDomains } from '../api/get-domains';
import { AddDomainForm } from './add-domain-form';
import { DomainList } from './domain-list';
import { DomainDetail } from './domain-detail';

interface DomainsPageProps {
  teamId: string | null;
  teams: string[];
  selectedId: string | null;
  hrefFor: (identity: DomainIdentity) => string;
  onAdded: (identity: DomainIdentity) => void;
  onDeleted: () => void;
}

/** Sending domains of every team (or one): add, read the DNS records, verify, script the next check, delete. */
export function DomainsPage(props: DomainsPageProps) {
  return (
    <div className="page">
      <div className="page-inner">
        <div className="page-header">
          <div>
            <h1>Domains</h1>
            <p>Add a sending domain, copy its DNS records, and see how verification goes — or script how it will go.</p>
          </div>
        </div>
        <AddDomainForm teamId={props.teamId} teams={props.teams} onAdded={props.onAdded} />
        <DomainsBody {...props} />
      </div>
    </div>
  );
}

function DomainsBody({ teamId, selectedId, hrefFor, onDeleted }: DomainsPageProps) {
  const { data, isPending, error, refetch } = useDomains(teamId);
  if (isPending) return <Loading label="Loading domains" />;
  if (!data) return <ErrorState error={error} title="Domains could not be loaded" onRetry={() => void refetch()} />;
  if (data.length === 0) {
    return (
      <div className="card">
        <EmptyState icon={<GlobeIcon size={28} />} title="No domains yet">
          <p>Add one above, or through the API with POST /v1/domains.</p>
        </EmptyState>
      </div>
    );
  }
  const selected = data.find((d) => d.id === selectedId) ?? data[0];
  return (
    <div className="domains-layout">
      <DomainList domains={data} selectedId={selected.id} hrefFor={hrefFor} />
      <DomainDetail key={selected.id} identity={selected} onDeleted={onDeleted} />
    </div>
  );
}
