import type { SandboxEmail } from '../../../../../../shared/sandbox';
import { EmptyState } from '../../../../components/states';

export function TextPanel({ email }: { email: SandboxEmail }) {
  const text = email.metadata.text;
  if (text.trim() === '') return <EmptyState title="No text part">Some clients show nothing for an email without one (see Checks).</EmptyState>;
  return <pre className="text-body">{text}</pre>;
}
