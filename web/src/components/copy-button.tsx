import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from './icons';

/** Copies a value to the clipboard and says so for a moment; `label` names what is copied for screen readers. */
export function CopyButton({ value, label, text }: { value: string; label: string; text?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API refused (plain http on a non-localhost host): fall back to a hidden textarea.
      const area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
  };

  return (
    <button type="button" className={`btn btn-sm ${text ? '' : 'btn-icon'} btn-ghost copy-button`} onClick={copy} aria-label={copied ? `Copied ${label}` : `Copy ${label}`} title={copied ? 'Copied' : 'Copy'}>
      {copied ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
      {text && <span>{copied ? 'Copied' : text}</span>}
    </button>
  );
}
