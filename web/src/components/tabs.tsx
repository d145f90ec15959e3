import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  /** A small count after the label (0 hides it unless `showZero`). */
  count?: number;
  tone?: 'red' | 'amber';
}

/**
 * WAI-ARIA tabs: one tab stop, arrow keys move between tabs, Home/End jump. The panel is
 * rendered by the caller as children, labelled by the selected tab.
 */
export function Tabs<K extends string>({ items, selected, onSelect, label, children }: { items: TabItem<K>[]; selected: K; onSelect: (key: K) => void; label: string; children: ReactNode }) {
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.key === selected);
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % items.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    if (next < 0) return;
    event.preventDefault();
    const key = items[next].key;
    onSelect(key);
    refs.current.get(key)?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
        {items.map((item) => (
          <button
            key={item.key}
            ref={(el) => {
              if (el) refs.current.set(item.key, el);
              else refs.current.delete(item.key);
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            aria-selected={item.key === selected}
            aria-controls={`${id}-panel`}
            tabIndex={item.key === selected ? 0 : -1}
            className="tab"
            onClick={() => onSelect(item.key)}
          >
            {item.label}
            {item.count !== undefined && item.count > 0 && <span className={`tab-count ${item.tone ? `tone-${item.tone}` : ''}`}>{item.count}</span>}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${selected}`} className="tab-panel" tabIndex={0}>
        {children}
      </div>
    </>
  );
}
