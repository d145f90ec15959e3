// The layering rules of ARCHITECTURE.md, checked over the import graph of server/src and shared/:
//   1. HTTP errors (http/errors.ts) are imported only inside http/ and smtp/, and by app.ts,
//      the HTTP composition root that mounts the error middleware. Domain code throws domain
//      values (errors.ts); only transports translate them.
//   2. storage/ imports only storage/, shared/ and the logger: no domain or transport module.
//   3. shared/ imports only shared/ (the web inbox and the client use it too).
//   4. No import cycles (type-only imports included: a cycle of types is still a knot to untie).
// Run by `npm test` (npm run check:layers) and by server/src/layers.test.ts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** file (repo-relative) → repo-relative files it imports (relative specifiers only). */
export function importGraph(root = ROOT, dirs = ['server/src', 'shared']) {
  const graph = new Map();
  for (const dir of dirs) {
    for (const file of sourceFiles(join(root, dir))) {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = [];
      for (const { fileName } of info.importedFiles) {
        if (!fileName.startsWith('.')) continue;
        const target = resolve(dirname(file), fileName).replace(/\.js$/, '.ts');
        targets.push(relative(root, target));
      }
      graph.set(relative(root, file), targets);
    }
  }
  return graph;
}

const inside = (file, dir) => file.startsWith(`${dir}/`);

/** Every broken rule as one line a person can act on; empty when the layering holds. */
export function layeringProblems(graph) {
  const problems = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (target === 'server/src/http/errors.ts' && !inside(file, 'server/src/http') && !inside(file, 'server/src/smtp') && file !== 'server/src/app.ts') {
        problems.push(`${file} imports HTTP errors (${target}): throw a domain error from server/src/errors.ts and let http/ translate it`);
      }
      if (inside(file, 'server/src/storage') && !inside(target, 'server/src/storage') && !inside(target, 'shared') && target !== 'server/src/logger.ts') {
        problems.push(`${file} imports ${target}: storage/ may import only storage/, shared/ and the logger`);
      }
      if (inside(file, 'shared') && !inside(target, 'shared')) {
        problems.push(`${file} imports ${target}: shared/ may import only shared/`);
      }
    }
  }
  for (const cycle of findCycles(graph)) problems.push(`import cycle: ${cycle.join(' → ')}`);
  return problems;
}

/** One cycle per strongly connected component (Tarjan), written as a path back to its start. */
function findCycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indices = new Map();
  const lowlinks = new Map();
  const cycles = [];
  const strongConnect = (node) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        strongConnect(next);
        lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) cycles.push(pathThrough(graph, new Set(component), node));
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) strongConnect(node);
  return cycles;
}

/** A concrete cycle from `start` back to itself inside one component (breadth-first). */
function pathThrough(graph, component, start) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let n = node; n !== start; n = previous.get(n)) path.splice(1, 0, n);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...component];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const problems = layeringProblems(graph);
  if (problems.length) {
    for (const problem of problems) console.error(problem);
    console.error(`layering: ${problems.length} problem(s) in ${graph.size} modules (see ARCHITECTURE.md)`);
    process.exit(1);
  }
  console.log(`layering: ok (${graph.size} modules, no cycles)`);
}
