// How many bytes does a stored email take on disk? Sends `--count` emails of one /v1/send
// case to the built sendbox (a fresh database), stops it cleanly and divides the file
// (plus WAL) by the emails stored; prints that × `--per` (default 100 000).
//   node bench/db-size.mjs [--case 100kb-html] [--count 2000] [--per 100000]
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blast, json } from './lib/http-load.mjs';
import { SEND_CASES } from './lib/payloads.mjs';
import { startSendbox } from './lib/servers.mjs';
import { pinSelfToLoadCore, killAll } from './lib/proc.mjs';

const { values } = parseArgs({ options: { case: { type: 'string', default: '100kb-html' }, count: { type: 'string', default: '2000' }, per: { type: 'string', default: '100000' } } });
const testCase = SEND_CASES.find((c) => c.id === values.case);
if (!testCase) throw new Error(`unknown case ${values.case}; one of ${SEND_CASES.map((c) => c.id).join(', ')}`);

pinSelfToLoadCore();
const tmp = mkdtempSync(join(tmpdir(), 'sendbox-db-size-'));
try {
  const db = join(tmp, 'size.db');
  const sendbox = await startSendbox(db, { extraArgs: ['--max-emails', '1000000'] });
  const headers = { authorization: 'Bearer bench-db-size-key' };
  await blast({ url: `${sendbox.url}/v1/send`, body: testCase.sendbox, headers, connections: 8, durationS: 120, amount: Number(values.count) });
  const stored = (await json(`${sendbox.url}/v1/emails?limit=1`, { headers })).data.pagination.total_records;
  await sendbox.stop();
  const bytes = ['', '-wal', '-large', '-large-wal', '-large-2', '-large-2-wal'].reduce((sum, suffix) => sum + (statSync(db + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
  const per = Number(values.per);
  process.stdout.write(`${testCase.label}: ${stored} stored in ${(bytes / 1e6).toFixed(1)} MB, ${(bytes / stored / 1024).toFixed(1)} KB per email; × ${per.toLocaleString('en-US')} = ${((bytes / stored) * per / 1e9).toFixed(2)} GB\n`);
} finally {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
}
