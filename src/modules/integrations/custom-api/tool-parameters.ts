import { fieldPath } from '@/common/validation/validation-messages';
import { ActionParameters } from '../actions/action-executor';

const PARAM_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_PARAMS = 50;
const MAX_DESCRIPTION = 1000;

export interface ToolParam {
  name: string;
  type: ParamType;
  description?: string;
  required: boolean;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]{0,63})\}/g;

/** The `{name}` placeholders of a template, in order, each once. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

/** Replaces each `{name}` placeholder with `fill(name)` (left as it is when that is undefined). */
export function fillPlaceholders(
  template: string,
  fill: (name: string) => string | undefined,
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => fill(name) ?? whole);
}

/**
 * A parameter list as stored: the documented array of `{name, type, description?, required?}`,
 * or an object of name → type (or → `{type, description?, required?}`), which the API accepted
 * before the array form was settled. Entries that do not fit are skipped: creation refuses them
 * (`paramProblems`), so only rows stored before that check can hold any.
 */
export function toolParams(value: unknown): ToolParam[] {
  const entries: Array<[unknown, unknown]> = Array.isArray(value)
    ? value.map((entry) => [(entry as { name?: unknown } | null)?.name, entry])
    : value && typeof value === 'object'
      ? Object.entries(value)
      : [];
  const params: ToolParam[] = [];
  for (const [name, raw] of entries) {
    const spec = (typeof raw === 'string' ? { type: raw } : (raw ?? {})) as Record<string, unknown>;
    if (typeof name !== 'string' || !PARAM_NAME.test(name)) {
      continue;
    }
    const type = PARAM_TYPES.includes(spec.type as ParamType) ? (spec.type as ParamType) : 'string';
    params.push({
      name,
      type,
      ...(typeof spec.description === 'string' ? { description: spec.description } : {}),
      required: spec.required === true,
    });
  }
  return params;
}

function entryProblems(field: string, at: string, raw: unknown): string[] {
  if (typeof raw === 'string') {
    return PARAM_TYPES.includes(raw as ParamType)
      ? []
      : [`${field}.${at}: must be one of ${PARAM_TYPES.join(', ')}`];
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return [`${field}.${at}: must be an object {name, type, description?, required?}`];
  }
  const spec = raw as Record<string, unknown>;
  const problems: string[] = [];
  if (!PARAM_TYPES.includes(spec.type as ParamType)) {
    problems.push(`${field}.${at}.type: must be one of ${PARAM_TYPES.join(', ')}`);
  }
  if (
    spec.description !== undefined &&
    spec.description !== null &&
    (typeof spec.description !== 'string' || spec.description.length > MAX_DESCRIPTION)
  ) {
    problems.push(`${field}.${at}.description: must be a string of at most ${MAX_DESCRIPTION}`);
  }
  if (spec.required !== undefined && spec.required !== null && typeof spec.required !== 'boolean') {
    problems.push(`${field}.${at}.required: must be true or false`);
  }
  return problems;
}

/** Why `url_params` or `body_params` (named by `field`) cannot be a tool's parameters. */
export function paramProblems(field: string, value: unknown): string[] {
  if (value === undefined || value === null) {
    return [];
  }
  const entries: Array<[string, unknown, unknown]> = Array.isArray(value)
    ? value.map((entry, index) => [
        `${index}`,
        (entry as { name?: unknown } | null)?.name,
        typeof entry === 'string' ? null : entry,
      ])
    : Object.entries(value).map(([name, entry]) => [name, name, entry]);
  if (entries.length > MAX_PARAMS) {
    return [`${field}: at most ${MAX_PARAMS} parameters`];
  }
  const problems: string[] = [];
  for (const [key, name, raw] of entries) {
    const at = fieldPath('', key);
    if (typeof name !== 'string' || !PARAM_NAME.test(name)) {
      problems.push(`${field}.${at}.name: must be a name of letters, digits and _ (not first)`);
    }
    problems.push(...entryProblems(field, at, raw));
  }
  return problems;
}

function propertyOf(param: ToolParam): Record<string, unknown> {
  return {
    type: param.type,
    ...(param.type === 'array' ? { items: {} } : {}),
    ...(param.description ? { description: param.description } : {}),
  };
}

/** The placeholders of a tool's header and body templates. */
export function headerAndBodyPlaceholders(config: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const headers = config.headers_template;
  if (headers && typeof headers === 'object') {
    texts.push(...Object.values(headers).map(String));
  }
  if (config.body_template !== undefined && config.body_template !== null) {
    texts.push(
      typeof config.body_template === 'string'
        ? config.body_template
        : JSON.stringify(config.body_template),
    );
  }
  return [...new Set(texts.flatMap(placeholdersOf))];
}

/** The placeholders of a tool's URL, header and body templates. */
function templatePlaceholders(config: Record<string, unknown>): string[] {
  const url = typeof config.url_template === 'string' ? config.url_template : '';
  return [...new Set([...placeholdersOf(url), ...headerAndBodyPlaceholders(config)])];
}

/**
 * The JSON Schema of a tool's arguments: its `url_params` and `body_params`, plus any
 * `{placeholder}` of its templates they do not declare (a required string). A tool that declares no
 * parameter at all takes any argument; one that does takes only those.
 */
export function toolSchema(config: Record<string, unknown>): ActionParameters {
  const declared = [...toolParams(config.url_params), ...toolParams(config.body_params)];
  const properties: Record<string, Record<string, unknown>> = {};
  const required = new Set<string>();
  for (const param of declared) {
    if (properties[param.name]) {
      continue;
    }
    properties[param.name] = propertyOf(param);
    if (param.required) {
      required.add(param.name);
    }
  }
  for (const name of templatePlaceholders(config)) {
    if (!properties[name]) {
      properties[name] = { type: 'string' };
    }
    required.add(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
    additionalProperties: declared.length === 0,
  };
}
