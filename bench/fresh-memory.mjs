// What touching memory the process has not used before costs here, against touching it again.
// On this machine (a VM whose host takes back free memory) a fresh page costs ~11 µs the first
// time, so whatever makes the page cache grow (a database file that grows) pays for it: the
// reason a stored byte, not a parsed one, is most of a large send's cost (bench/README.md).
//   node bench/fresh-memory.mjs [--gb 4]
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { gb: { type: 'string', default: '4' } } });
const CHUNK = 64 << 20;
const chunks = [];
const first = [];
for (let i = 0; i < (Number(values.gb) << 30) / CHUNK; i++) {
  const t = performance.now();
  const b = Buffer.allocUnsafeSlow(CHUNK);
  b.fill(1);
  chunks.push(b);
  first.push(performance.now() - t);
}
const t = performance.now();
for (const b of chunks) b.fill(2);
const again = (performance.now() - t) / chunks.length;
const sorted = [...first].sort((a, b) => a - b);
const at = (q) => sorted[Math.floor(q * (sorted.length - 1))];
process.stdout.write(`first touch of 64 MB: min ${at(0).toFixed(0)} ms, median ${at(0.5).toFixed(0)} ms, max ${at(1).toFixed(0)} ms (${((at(0.5) * 1000) / (CHUNK / 4096)).toFixed(1)} µs per 4 KB page at the median)\n`);
process.stdout.write(`touching it again: ${again.toFixed(1)} ms per 64 MB\n`);
