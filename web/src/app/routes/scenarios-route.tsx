import { ScenariosPage } from '../../features/scenarios/components/scenarios-page';
import { useMailboxes } from '../../features/mailboxes/api/get-mailboxes';

export function ScenariosRoute() {
  const teams = (useMailboxes().data ?? []).map((m) => m.team_id);
  return <ScenariosPage teams={teams} />;
}
