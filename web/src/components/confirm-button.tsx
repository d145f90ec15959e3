import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A destructive button that asks once, in place: the first click turns it into
 * "Cancel / <confirm>", so nothing is lost to a stray click and no modal is needed.
 */
export function ConfirmButton({ children, confirmLabel, onConfirm, disabled, className = 'btn btn-danger' }: { children: ReactNode; confirmLabel: string; onConfirm: () => void; disabled?: boolean; className?: string }) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" className={className} disabled={disabled} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}>
      <button type="button" className="btn btn-ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
      <button
        ref={confirmRef}
        type="button"
        className="btn btn-danger confirm-yes"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
    </span>
  );
}
