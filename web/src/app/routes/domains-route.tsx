import { navigate, useLocation, withParams } from '../../lib/router';
import { pagePaths } from '../../paths';
import { DomainsPage } from '../../features/domains/components/domains-page';
import { useMailboxes } from '../../features/mailboxes/api/get-mailboxes';

/** Domains of the selected mailbox (or all); the open domain is in the path. */
export function DomainsRoute({ domainId }: { domainId: string | null }) {
  const { search } = useLocation();
  const team = search.get('team');
  const teams = (useMailboxes().data ?? []).map((m) => m.team_id).filter((t) => t !== 'team_smtp');
  const href = (id: string) => withParams(pagePaths.domain(id), search, {});
  return (
    <DomainsPage
      teamId={team}
      teams={teams}
      selectedId={domainId}
      hrefFor={(identity) => href(identity.id)}
      onAdded={(identity) => navigate(href(identity.id))}
      onDeleted={() => navigate(withParams(pagePaths.domains, search, {}), { replace: true })}
    />
  );
}
