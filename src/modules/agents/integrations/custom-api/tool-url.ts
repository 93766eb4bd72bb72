const ABSOLUTE = /^https?:\/\//i;

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
