import type { ForcedEventType, SandboxEmail } from '../../../../../../shared/sandbox';
import { InlineError } from '../../../../components/states';
import { useForceEvent } from '../../api/force-event';

const FINAL = ['bounced', 'failed', 'complaint'];

/** What can happen next to one recipient, following the state machine (CONTRACT §8): opens and clicks need a delivery, complaints too. */
export function SimulateActions({ email, recipient, state }: { email: SandboxEmail; recipient: string; state: string }) {
  const force = useForceEvent();
  const delivered = state === 'delivered';
  const pending = state === 'processing' || state === 'queued';
  const url = email.links[0]?.href;
  const actions: { type: ForcedEventType; label: string; enabled: boolean }[] = [
    { type: 'open', label: 'Open', enabled: delivered },
    { type: 'click', label: 'Click', enabled: delivered },
    { type: 'delivered', label: 'Deliver', enabled: pending },
    { type: 'bounced', label: 'Bounce', enabled: pending },
    { type: 'complaint', label: 'Complaint', enabled: delivered },
  ];
  return (
    <div className="simulate">
      <span className="simulate-label">Simulate</span>
      <div className="simulate-buttons" role="group" aria-label={`Simulate for ${recipient}`}>
        {actions.map((action) => (
          <button
            key={action.type}
            type="button"
            className="btn btn-sm"
            disabled={!action.enabled || force.isPending || FINAL.includes(state) && action.type !== 'open' && action.type !== 'click'}
            onClick={() => force.mutate({ id: email.id, type: action.type, recipient, ...(action.type === 'click' && url ? { url } : {}) })}
            aria-label={`${action.label} ${recipient}`}
          >
            {action.label}
          </button>
        ))}
      </div>
      <InlineError error={force.error} />
    </div>
  );
}
