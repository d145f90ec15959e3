import type { DomainIdentity } from '../../../../../shared/domain';
import { CopyButton } from '../../../components/copy-button';
import { StatusBadge } from '../../../components/status-badge';
import { recordHost, recordRows } from '../records';

/** The records to publish, name and value each one click from the clipboard. */
export function RecordsTable({ identity }: { identity: DomainIdentity }) {
  return (
    <div className="records-scroll">
      <table className="table records-table" aria-label="DNS records">
        <thead>
          <tr>
            <th scope="col" className="col-record">Record</th>
            <th scope="col">Name and value</th>
            <th scope="col" className="col-ttl">TTL</th>
            <th scope="col" className="col-status">Status</th>
          </tr>
        </thead>
        <tbody>
          {recordRows(identity).map((row) => (
            <tr key={row.key} data-record={row.key}>
              <th scope="row" className="record-label">
                <span className="record-title">
                  {row.label} <span className="record-type">{row.record.record_type}</span>
                </span>
                <span className="record-purpose">{row.purpose}</span>
              </th>
              <td>
                <dl className="record-pair">
                  <dt>Name</dt>
                  <dd>
                    <span className="mono record-name">{recordHost(row)}</span>
                    <CopyButton value={recordHost(row)} label={`${row.label} name`} />
                  </dd>
                  <dt>Value</dt>
                  <dd>
                    <span className="mono record-value" title={row.record.value}>{row.record.value}</span>
                    <CopyButton value={row.record.value} label={`${row.label} value`} />
                  </dd>
                </dl>
              </td>
              <td className="mono col-ttl">{row.record.ttl}</td>
              <td className="col-status"><StatusBadge status={row.record.status} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
