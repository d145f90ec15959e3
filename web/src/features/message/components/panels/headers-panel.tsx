import type { SandboxEmail } from '../../../../../../shared/sandbox';
import { EmptyState } from '../../../../components/states';

/** Every header in order, unfolded and decoded, as text. */
export function HeadersPanel({ email }: { email: SandboxEmail }) {
  if (email.headers.length === 0) return <EmptyState title="No headers" />;
  return (
    <div className="panel-scroll">
      <table className="table headers-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {email.headers.map((header, i) => (
            <tr key={`${header.name}-${i}`}>
              <th scope="row" className="header-name">{header.name}</th>
              <td className="header-value mono">{header.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
