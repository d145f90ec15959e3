import type { CheckSeverity, SandboxEmail } from '../../../../../../shared/sandbox';
import { EmptyState } from '../../../../components/states';
import { AlertIcon, CheckIcon, InfoIcon, XCircleIcon } from '../../../../components/icons';

const ORDER: CheckSeverity[] = ['error', 'warning', 'info'];
const ICONS = { error: XCircleIcon, warning: AlertIcon, info: InfoIcon };

/** What would embarrass this email in production: Gmail clipping, no text part, images without alt, localhost links… */
export function ChecksPanel({ email }: { email: SandboxEmail }) {
  if (email.checks.length === 0) {
    return (
      <EmptyState icon={<CheckIcon size={28} />} title="No problems found">
        Size, text part, image alt text, links and sender domain all look fine.
      </EmptyState>
    );
  }
  const sorted = [...email.checks].sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity));
  return (
    <ul className="checks" aria-label="Checks">
      {sorted.map((check) => {
        const Icon = ICONS[check.severity] ?? InfoIcon;
        return (
          <li key={check.id} className={`check check-${check.severity}`}>
            <Icon size={17} />
            <div>
              <p className="check-message">{check.message}</p>
              <p className="check-id mono">
                {check.severity} · {check.id}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
