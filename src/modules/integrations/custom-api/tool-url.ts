const ABSOLUTE = /^https?:\/\//i;
/** A `{` before the end of the authority: a placeholder would fill (part of) the host. */
const TEMPLATED_AUTHORITY = /^https?:\/\/[^/?#]*\{/i;

export const HOST_PLACEHOLDER_PROBLEM =
  "a placeholder may not fill the host (it comes from base_url or the template's own text)";

/** Whether a tool URL (as `toolUrl` gives it) lets an argument choose the host or the port. */
export function placeholderInHost(url: string): boolean {
  return TEMPLATED_AUTHORITY.test(url);
}

/**
 * The URL a tool calls, placeholders left in: an absolute `url_template` as it is, a path one
 * appended to the path of `base_url` (whose query is kept), since resolving it as a relative
 * reference would drop that path. null for a path without a base URL.
 */
export function toolUrl(baseUrl: string | null, template: string): string | null {
  if (ABSOLUTE.test(template)) {
    return template;
  }
  if (!baseUrl) {
    return null;
  }
  const base = new URL(baseUrl);
  const [path, query = ''] = template.split(/\?(.*)/s);
  const search = [base.search.slice(1), query].filter(Boolean).join('&');
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
}
