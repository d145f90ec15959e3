import { InlineError } from '../../../components/states';
import { PauseIcon, PlayIcon } from '../../../components/icons';
import { useDelivery } from '../api/get-delivery';
import { useSetDeliveryPaused } from '../api/set-delivery-paused';

/** The delivery clock: paused, emails wait in queued until resumed. */
export function DeliveryCard() {
  const { data, error } = useDelivery();
  const toggle = useSetDeliveryPaused();
  const paused = data?.paused ?? false;
  return (
    <section className="card delivery-card" aria-label="Delivery">
      <div className="card-header">
        <div>
          <h2>
            Delivery is <span className={paused ? 'text-amber' : 'text-green'}>{data ? (paused ? 'paused' : 'running') : '…'}</span>
          </h2>
          <p>{paused ? 'New emails wait in queued until you resume.' : 'Accepted emails move on to their outcome within moments.'}</p>
        </div>
        <button type="button" className={paused ? 'btn btn-primary' : 'btn'} disabled={!data || toggle.isPending} onClick={() => toggle.mutate(!paused)}>
          {paused ? <PlayIcon size={14} /> : <PauseIcon size={14} />}
          {paused ? 'Resume delivery' : 'Pause delivery'}
        </button>
      </div>
      {(error || toggle.error) && (
        <div className="card-body">
          <InlineError error={error ?? toggle.error} />
        </div>
      )}
    </section>
  );
}
