import type { DomainIdentity } from '../../../../../shared/domain';
import { Link } from '../../../components/link';
import { StatusBadge } from '../../../components/status-badge';

export function DomainList({ domains, selectedId, hrefFor }: { domains: DomainIdentity[]; selectedId: string; hrefFor: (identity: DomainIdentity) => string }) {
  return (
    <nav aria-label="Domain list" className="card domain-list">
      <ul>
        {domains.map((d) => (
          <li key={d.id}>
            <Link to={hrefFor(d)} className="domain-item" aria-current={d.id === selectedId ? 'true' : undefined}>
              <span className="domain-item-text">
                <span className="domain-item-name">{d.value}</span>
                <span className="domain-item-team">{d.team_id}</span>
              </span>
              <StatusBadge status={d.status} />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
