import { useId, type ReactNode } from 'react';

/** A labelled select. The label is tied by id (not by wrapping) so its name is only the label text. */
export function SelectField<T extends string>({ label, value, onChange, children, className }: { label: string; value: T; onChange: (value: T) => void; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value as T)}>
        {children}
      </select>
    </div>
  );
}
