import { DeliveryCard } from './delivery-card';
import { RulesCard } from './rules-card';
import { ChaosCard } from './chaos-card';
import { WebhooksCard } from './webhooks-card';

/** Everything that decides what happens to mail after it is accepted, and who hears about it. */
export function ScenariosPage({ teams }: { teams: string[] }) {
  return (
    <div className="page">
      <div className="page-inner">
        <div className="page-header">
          <div>
            <h1>Scenarios</h1>
            <p>Make the next email bounce, refuse a send with a 429, hold delivery, add random failures, and watch webhooks go out.</p>
          </div>
        </div>
        <DeliveryCard />
        <RulesCard teams={teams} />
        <div className="scenario-grid">
          <ChaosCard />
          <WebhooksCard />
        </div>
      </div>
    </div>
  );
}
