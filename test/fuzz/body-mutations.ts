import {
  CONTENT_TYPES,
  deeplyNested,
  INVALID_JSON,
  NAN_ISH_STRINGS,
  RAW_NUMBERS,
  UNICODE_EDGES,
  wrongTypeFor,
} from './hostile';

export interface SerializedBody {
  body: string | Buffer;
  contentType?: string;
  tag: string;
}

/** Random choices a mutation draws on, drawn by fast-check so that a seed replays them. */
export interface Picks {
  a: number;
  b: number;
}

type Json = any;

const SENTINEL = '__fuzz_raw__';
const HUGE_STRING_LENGTHS = [256, 2_001, 10_001, 50_001, 200_001, 1_100_000];
const HUGE_ARRAY_LENGTHS = [501, 5_000];
const NESTING_DEPTHS = [65, 1_000, 10_000, 100_000];

/** Paths to every value inside `value` (objects and arrays included), root first. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      paths.push(...pathsOf(child, [...prefix, Array.isArray(value) ? Number(key) : key]));
    }
  }
  return paths;
}

/** A copy with the value at `path` replaced; an empty path (an empty body) sets `name`. */
function setAt(root: Json, path: (string | number)[], value: unknown): Json {
  if (path.length === 0) {
    return { name: value };
  }
  const copy = structuredClone(root);
  let parent = copy;
  for (const key of path.slice(0, -1)) {
    parent = parent[key];
  }
  parent[path[path.length - 1]] = value;
  return copy;
}

function innerPath(root: Json, picks: Picks): (string | number)[] {
  const paths = pathsOf(root).slice(1);
  return paths.length > 0 ? paths[picks.a % paths.length] : [];
}

function objectPaths(root: Json): (string | number)[][] {
  return pathsOf(root).filter((path) => {
    const value = path.reduce((node: Json, key) => node[key], root);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  });
}

const json = (value: Json, tag: string): SerializedBody => ({ body: JSON.stringify(value), tag });

/** The body mutations, each a different way a client (or attacker) gets a body wrong. */
export const BODY_MUTATIONS: Record<
  string,
  (body: Json, picks: Picks, required: string[]) => SerializedBody
> = {
  'wrong-type': (body, picks) => {
    const path = innerPath(body, picks);
    const current = path.reduce((node: Json, key) => node?.[key], body);
    return json(
      setAt(body, path, wrongTypeFor(current, picks.b)),
      `body:wrong-type ${path.join('.')}`,
    );
  },
  'missing-required': (body, picks, required) => {
    const copy = { ...body };
    const field = required.length > 0 ? required[picks.a % required.length] : Object.keys(copy)[0];
    delete copy[field];
    return json(copy, `body:missing ${field}`);
  },
  'unknown-field': (body, picks) => {
    const objects = objectPaths(body);
    const path = objects[picks.a % objects.length] ?? [];
    const target = path.reduce((node: Json, key) => node[key], body) ?? {};
    return json(
      setAt(body, path, { ...target, unknown_field: picks.b }),
      `body:unknown-field at ${path.join('.') || 'root'}`,
    );
  },
  'huge-string': (body, picks) => {
    const length = HUGE_STRING_LENGTHS[picks.b % HUGE_STRING_LENGTHS.length];
    const path = innerPath(body, picks);
    return json(
      setAt(body, path, 'x'.repeat(length)),
      `body:huge-string ${length} at ${path.join('.')}`,
    );
  },
  'huge-array': (body, picks) => {
    const length = HUGE_ARRAY_LENGTHS[picks.b % HUGE_ARRAY_LENGTHS.length];
    const path = innerPath(body, picks);
    return json(
      setAt(
        body,
        path,
        Array.from({ length }, (_, i) => `item ${i}`),
      ),
      `body:huge-array ${length}`,
    );
  },
  unicode: (body, picks) => {
    const path = innerPath(body, picks);
    const text = UNICODE_EDGES[picks.b % UNICODE_EDGES.length];
    return json(setAt(body, path, text), `body:unicode ${JSON.stringify(text)}`);
  },
  'nan-string': (body, picks) => {
    const path = innerPath(body, picks);
    return json(
      setAt(body, path, NAN_ISH_STRINGS[picks.b % NAN_ISH_STRINGS.length]),
      'body:nan-string',
    );
  },
  'raw-number': (body, picks) => {
    const token = RAW_NUMBERS[picks.b % RAW_NUMBERS.length];
    const text = JSON.stringify(setAt(body, innerPath(body, picks), SENTINEL)).replace(
      `"${SENTINEL}"`,
      token,
    );
    return { body: text, tag: `body:raw-number ${token}` };
  },
  'duplicate-key': (body, picks) => {
    const text = JSON.stringify(body);
    const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    const key = keys[picks.a % Math.max(keys.length, 1)] ?? 'name';
    const duplicate = `${JSON.stringify(key)}:${JSON.stringify(wrongTypeFor(body?.[key], picks.b))}`;
    const merged =
      text === '{}' || !text.startsWith('{') ? `{${duplicate}}` : `{${duplicate},${text.slice(1)}`;
    return { body: merged, tag: `body:duplicate-key ${key}` };
  },
  'deep-nesting': (_body, picks) => {
    const depth = NESTING_DEPTHS[picks.a % NESTING_DEPTHS.length];
    const kind = picks.b % 2 === 0 ? 'object' : 'array';
    const nested = deeplyNested(depth, kind);
    return {
      body: picks.b % 4 < 2 ? nested : `{"name":${nested}}`,
      tag: `body:nested ${depth} ${kind}`,
    };
  },
  'invalid-json': (_body, picks) => ({
    body: INVALID_JSON[picks.a % INVALID_JSON.length],
    tag: `body:invalid-json ${INVALID_JSON[picks.a % INVALID_JSON.length].slice(0, 20)}`,
  }),
  'invalid-utf8': (body, picks) => {
    const [before, after] = JSON.stringify(setAt(body, innerPath(body, picks), SENTINEL)).split(
      SENTINEL,
    );
    return {
      body: Buffer.concat([
        Buffer.from(before),
        Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80, 0xc0, 0xaf]),
        Buffer.from(after),
      ]),
      tag: 'body:invalid-utf8',
    };
  },
  'content-type': (body, picks) => {
    const contentType = CONTENT_TYPES[picks.a % CONTENT_TYPES.length];
    return { ...json(body, `body:content-type ${contentType || '(none)'}`), contentType };
  },
};

export const BODY_MUTATION_NAMES = Object.keys(BODY_MUTATIONS);
