import type { DomainIdentity } from '../../../../../shared/domain';
import { CopyButton } from '../../../components/copy-button';
import { StatusBadge } from '../../../components/status-badge';
import { recordHost, recordRows } from '../records';

/** The records to publish, each value one click from the clipboard. */
export function RecordsTable({ identity }: { identity: DomainIdentity }) {
  return (
    <div className="records-scroll">
      <table className="table records-table" aria-label="DNS records">
        <thead>
          <tr>
            <th scope="col">Record</th>
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">TTL</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {recordRows(identity).map((row) => (
            <tr key={row.key} data-record={row.key}>
              <th scope="row" className="record-label">
                {row.label}
                <span className="record-purpose">{row.purpose}</span>
              </th>
              <td><span className="record-type">{row.record.record_type}</span></td>
              <td>
                <span className="record-copy">
                  <span className="mono record-name">{recordHost(row)}</span>
                  <CopyButton value={recordHost(row)} label={`${row.label} name`} />
                </span>
              </td>
              <td>
                <span className="record-copy">
                  <span className="mono record-value">{row.record.value}</span>
                  <CopyButton value={row.record.value} label={`${row.label} value`} />
                </span>
              </td>
              <td className="mono">{row.record.ttl}</td>
              <td><StatusBadge status={row.record.status} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
