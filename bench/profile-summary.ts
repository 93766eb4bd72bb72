/**
 * Reads a V8 CPU profile (`node --cpu-prof`, or `BENCH_CPU_PROFILE=<dir> npm run bench`) and
 * prints where the busy time went: self time by place (a package of node_modules, a file of the
 * service, Node's own internals, the garbage collector), then the functions with the most self
 * time. Idle time is left out of every share.
 *
 *   npm run bench:profile -- /tmp/profiles/app.cpuprofile [--top=30]
 */
import { readFileSync } from 'node:fs';

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

function placeOf(url: string): string {
  if (!url) {
    return '(native)';
  }
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) {
    return 'node:' + url.slice(5).split('/')[0];
  }
  const dist = url.indexOf('/dist/');
  return dist === -1 ? url : url.slice(dist + 1);
}

function main() {
  const args = process.argv.slice(2);
  const file = args.find((arg) => !arg.startsWith('--'));
  const top = Number((args.find((arg) => arg.startsWith('--top=')) ?? '--top=30').slice(6));
  if (!file) {
    console.error('usage: npm run bench:profile -- <file.cpuprofile> [--top=N]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') {
      idle += us;
      continue;
    }
    busy += us;
    const place = functionName === '(garbage collector)' ? '(garbage collector)' : placeOf(url);
    places.set(place, (places.get(place) ?? 0) + us);
    const name = `${functionName || '(anonymous)'} ${placeOf(url)}:${lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  const print = (title: string, totals: Map<string, number>) => {
    console.log(`\n${title}`);
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .forEach(([name, us]) =>
        console.log(`${share(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`),
      );
  };
  console.log(
    `busy ${(busy / 1e6).toFixed(2)} s, idle or unattributed ${(idle / 1e6).toFixed(2)} s`,
  );
  print('self time by place', places);
  print('self time by function', functions);
}

main();
