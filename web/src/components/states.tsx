import type { ReactNode } from 'react';
import { errorMessage } from '../lib/api-client';
import { AlertIcon } from './icons';

/** A centered spinner with a label for screen readers. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <div className="spinner" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="state">
      {icon && <div className="state-icon">{icon}</div>}
      <h2>{title}</h2>
      {children && <div>{children}</div>}
    </div>
  );
}

export function ErrorState({ error, title = 'Something went wrong', onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <div className="state-icon"><AlertIcon size={28} /></div>
      <h2>{title}</h2>
      <p>{errorMessage(error)}</p>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** The one-line error under a form, from a failed mutation. */
export function InlineError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      {errorMessage(error)}
    </p>
  );
}
