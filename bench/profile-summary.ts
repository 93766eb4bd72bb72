/**
 * Reads a V8 CPU profile (`node --cpu-prof`, or `BENCH_CPU_PROFILE=<dir> npm run bench`) and
 * prints where the busy time went: self time by place (a package of node_modules, a file of the
 * service, Node's own internals, the garbage collector), then the functions with the most self
 * time. Idle time is left out of every share. `--layers` (files or packages) adds a split of the
 * busy time by the innermost of them on each sample's stack: what each layer costs, the code it
 * calls included, another layer's excluded. `--from` skips the first seconds (start-up, seed).
 *
 *   npm run bench:profile -- /tmp/profiles/app.cpuprofile [--top=30] [--from=5]
 *     [--layers=dist/common/auth/api-key.guard.js,typeorm]
 */
import { readFileSync } from 'node:fs';

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
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

function option(args: string[], name: string): string | undefined {
  return args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/**
 * Each node's innermost layer: the first of `layers` met walking from the node to its callers.
 * Middleware and interceptors call the rest of the chain from inside themselves, so "on the stack
 * anywhere" would charge a middleware for everything after it; the innermost layer is the one the
 * time was spent for.
 */
function innermostLayers(profile: CpuProfile, layers: string[]): Map<number, string> {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parentOf.set(child, node.id);
    }
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const found = new Map<number, string>();
  const layerOf = (id: number): string => {
    let layer = found.get(id);
    if (layer === undefined) {
      const place = placeOf(byId.get(id)!.callFrame.url);
      const parent = parentOf.get(id);
      layer =
        layers.find((candidate) => place.includes(candidate)) ??
        (parent === undefined ? '(none of the layers)' : layerOf(parent));
      found.set(id, layer);
    }
    return layer;
  };
  profile.nodes.forEach((node) => layerOf(node.id));
  return found;
}

function main() {
  const args = process.argv.slice(2);
  const file = args.find((arg) => !arg.startsWith('--'));
  const top = Number(option(args, 'top') ?? 30);
  const fromUs = Number(option(args, 'from') ?? 0) * 1e6;
  const layers = (option(args, 'layers') ?? '').split(',').filter(Boolean);
  if (!file) {
    console.error(
      'usage: npm run bench:profile -- <file.cpuprofile> [--top=N] [--from=S] [--layers=a,b]',
    );
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsedUs += delta;
    if (elapsedUs >= fromUs) {
      selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    }
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
  const print = (title: string, totals: Map<string, number>, limit = top) => {
    console.log(`\n${title}`);
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .forEach(([name, us]) =>
        console.log(`${share(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`),
      );
  };
  console.log(
    `busy ${(busy / 1e6).toFixed(2)} s, idle or unattributed ${(idle / 1e6).toFixed(2)} s`,
  );
  print('self time by place', places);
  print('self time by function', functions);
  if (layers.length > 0) {
    const layerOf = innermostLayers(profile, layers);
    const byLayer = new Map<string, number>();
    for (const [id, us] of selfUs) {
      const { functionName } = byId.get(id)!.callFrame;
      if (functionName !== '(idle)' && functionName !== '(program)') {
        const layer = functionName === '(garbage collector)' ? functionName : layerOf.get(id)!;
        byLayer.set(layer, (byLayer.get(layer) ?? 0) + us);
      }
    }
    print('busy time by innermost layer on the stack', byLayer, byLayer.size);
  }
}

main();
