/** A header name as RFC 9110 spells a token, at most 128 characters. */
export const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

/** What Node accepts in a header value: no control characters but tab, Latin-1 only. */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export const HEADER_VALUE_PROBLEM = 'must not contain control or non-Latin-1 characters';
