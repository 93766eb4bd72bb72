import {
  fillPlaceholders,
  headerAndBodyPlaceholders,
  placeholdersOf,
  toolParams,
} from './tool-parameters';
import { HEADER_NAME, HEADER_VALUE } from '../header-syntax';
import { HOST_PLACEHOLDER_PROBLEM, placeholderInHost, toolUrl } from './tool-url';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export interface ToolRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export class TemplateError extends Error {}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function required(args: Record<string, unknown>, name: string): unknown {
  const value = args[name];
  if (value === undefined || value === null) {
    throw new TemplateError(`missing argument ${name}`);
  }
  return value;
}

/**
 * A path or query segment, `/`, `?` and `#` encoded. `.` and `..` are refused: URLs read them
 * (even encoded) as steps up the path.
 */
function urlSegment(name: string, value: unknown): string {
  const text = asText(value);
  if (text === '.' || text === '..') {
    throw new TemplateError(`argument ${name} cannot be "${text}"`);
  }
  return encodeURIComponent(text);
}

function renderUrl(
  baseUrl: string | null,
  config: Record<string, unknown>,
  args: Record<string, unknown>,
): { url: string; used: Set<string> } {
  const template = toolUrl(
    baseUrl,
    typeof config.url_template === 'string' ? config.url_template : '',
  );
  if (!template) {
    throw new TemplateError('its url_template is a path but its API has no base_url');
  }
  // Refused when the tool is added; a row stored before that check is refused here.
  if (placeholderInHost(template)) {
    throw new TemplateError(`its url_template: ${HOST_PLACEHOLDER_PROBLEM}`);
  }
  const used = new Set(placeholdersOf(template));
  const filled = fillPlaceholders(template, (name) => urlSegment(name, required(args, name)));
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    throw new TemplateError('its URL is not valid once filled');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TemplateError('its URL must be http or https');
  }
  // URL parameters no template has a place for go in the query string.
  const placedElsewhere = new Set(headerAndBodyPlaceholders(config));
  for (const param of toolParams(config.url_params)) {
    const value = args[param.name];
    if (
      !used.has(param.name) &&
      !placedElsewhere.has(param.name) &&
      value !== undefined &&
      value !== null
    ) {
      url.searchParams.append(param.name, asText(value));
      used.add(param.name);
    }
  }
  return { url: url.toString(), used };
}

function renderHeaders(
  config: Record<string, unknown>,
  args: Record<string, unknown>,
): Record<string, string> {
  const template = (config.headers_template ?? {}) as Record<string, unknown>;
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(template)) {
    const value = fillPlaceholders(String(raw), (param) => asText(required(args, param)));
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) {
      throw new TemplateError(`header ${name} is not a valid HTTP header once filled`);
    }
    headers[name] = value;
  }
  return headers;
}

/** An object template: a string that is one placeholder becomes the argument itself (any JSON). */
function fillValue(template: unknown, args: Record<string, unknown>): unknown {
  if (typeof template === 'string') {
    const whole = /^\{([A-Za-z_][A-Za-z0-9_]{0,63})\}$/.exec(template);
    if (whole) {
      return required(args, whole[1]);
    }
    return fillPlaceholders(template, (name) => asText(required(args, name)));
  }
  if (Array.isArray(template)) {
    return template.map((item) => fillValue(item, args));
  }
  if (template && typeof template === 'object') {
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, fillValue(value, args)]),
    );
  }
  return template;
}

/**
 * A JSON text template: a placeholder outside a string literal becomes the argument as JSON
 * (`{"qty": {qty}}` → `{"qty": 2}`), one inside a string its text escaped for that string
 * (`"Hi {name}"`), so no argument can close a string or add a field.
 */
function fillJsonText(template: string, args: Record<string, unknown>): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if (inString && char === '\\') {
      out += char + (template[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"') {
      inString = !inString;
      out += char;
      continue;
    }
    const placeholder =
      char === '{' ? /^\{([A-Za-z_][A-Za-z0-9_]{0,63})\}/.exec(template.slice(i)) : null;
    if (!placeholder) {
      out += char;
      continue;
    }
    const value = required(args, placeholder[1]);
    out += inString ? JSON.stringify(asText(value)).slice(1, -1) : JSON.stringify(value);
    i += placeholder[0].length - 1;
  }
  return out;
}

function renderBody(
  config: Record<string, unknown>,
  method: string,
  args: Record<string, unknown>,
  usedInUrl: Set<string>,
): string | undefined {
  const template = config.body_template;
  if (template !== undefined && template !== null) {
    if (typeof template !== 'string') {
      return JSON.stringify(fillValue(template, args));
    }
    let parsedTemplate: unknown;
    try {
      parsedTemplate = JSON.parse(template);
    } catch {
      const filled = fillJsonText(template, args);
      try {
        JSON.parse(filled);
      } catch {
        throw new TemplateError('its body_template is not JSON once filled');
      }
      return filled;
    }
    return JSON.stringify(fillValue(parsedTemplate, args));
  }
  if (!WITH_BODY.has(method)) {
    return undefined;
  }
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(args).filter(
        ([name, value]) => !usedInUrl.has(name) && value !== undefined && value !== null,
      ),
    ),
  );
}

/**
 * The HTTP request a custom API tool stands for, its templates filled from `args` (auth headers
 * are added by the caller). Throws TemplateError, with what is wrong, when it cannot be built.
 */
export function renderToolRequest(
  baseUrl: string | null,
  config: Record<string, unknown>,
  args: Record<string, unknown>,
): ToolRequest {
  const method = typeof config.http_method === 'string' ? config.http_method.toUpperCase() : 'GET';
  const { url, used } = renderUrl(baseUrl, config, args);
  const headers = renderHeaders(config, args);
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (!has('accept')) {
    headers.Accept = 'application/json';
  }
  const body = renderBody(config, method, args, used);
  if (body !== undefined && !has('content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  return { method, url, headers, ...(body !== undefined ? { body } : {}) };
}
