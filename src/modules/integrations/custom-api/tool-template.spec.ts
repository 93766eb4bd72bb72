import { renderToolRequest, TemplateError } from './tool-template';

const BASE = 'https://shop.example/v1';

describe('renderToolRequest', () => {
  it('fills URL placeholders URL-encoded, below the path of the base URL', () => {
    const request = renderToolRequest(
      BASE,
      { http_method: 'GET', url_template: '/orders/{order_id}/items?sku={sku}' },
      { order_id: 'A 1/2', sku: 'x&y=z' },
    );
    expect(request).toEqual({
      method: 'GET',
      url: 'https://shop.example/v1/orders/A%201%2F2/items?sku=x%26y%3Dz',
      headers: { Accept: 'application/json' },
    });
  });

  it('keeps a value from climbing the path or naming another host', () => {
    const config = { url_template: '/orders/{id}' };
    expect(() => renderToolRequest(BASE, config, { id: '..' })).toThrow(
      'argument id cannot be ".."',
    );
    expect(() => renderToolRequest(BASE, config, { id: '.' })).toThrow('argument id cannot be "."');
    expect(renderToolRequest(BASE, config, { id: '%2e%2e' }).url).toBe(
      'https://shop.example/v1/orders/%252e%252e',
    );
    const host = renderToolRequest(
      BASE,
      { url_template: '/orders/{id}' },
      { id: '@evil.example/x' },
    );
    expect(new URL(host.url).host).toBe('shop.example');
  });

  it('puts URL parameters the template has no place for in the query string', () => {
    const request = renderToolRequest(
      BASE,
      {
        http_method: 'GET',
        url_template: '/orders',
        url_params: [
          { name: 'status', type: 'string' },
          { name: 'page', type: 'integer' },
        ],
      },
      { status: 'open', page: 2 },
    );
    expect(request.url).toBe('https://shop.example/v1/orders?status=open&page=2');
    expect(request.body).toBeUndefined();
  });

  it('leaves out of the query string a URL parameter that a header or body template places', () => {
    const request = renderToolRequest(
      BASE,
      {
        http_method: 'GET',
        url_template: '/orders',
        url_params: [
          { name: 'customer', type: 'string' },
          { name: 'status', type: 'string' },
        ],
        headers_template: { 'X-Customer': 'id {customer}' },
      },
      { customer: 'c-7', status: 'open' },
    );
    expect(request.url).toBe('https://shop.example/v1/orders?status=open');
    expect(request.headers['X-Customer']).toBe('id c-7');
  });

  it('refuses a stored template whose placeholder fills the host', () => {
    for (const url_template of ['https://{host}/x', 'https://shop.example{suffix}/x']) {
      expect(() =>
        renderToolRequest(BASE, { url_template }, { host: 'a', suffix: '.evil' }),
      ).toThrow(TemplateError);
    }
  });

  it('sends the arguments not used in the URL as the JSON body of a POST without body_template', () => {
    const request = renderToolRequest(
      BASE,
      { http_method: 'POST', url_template: '/customers/{customer}/orders' },
      { customer: 'c1', product: 'p9', quantity: 2 },
    );
    expect(request.url).toBe('https://shop.example/v1/customers/c1/orders');
    expect(JSON.parse(request.body!)).toEqual({ product: 'p9', quantity: 2 });
    expect(request.headers['Content-Type']).toBe('application/json');
  });

  it('fills an object body_template: a lone placeholder keeps the JSON type of its argument', () => {
    const request = renderToolRequest(
      BASE,
      {
        http_method: 'POST',
        url_template: '/orders',
        body_template: {
          item: { sku: '{sku}', qty: '{qty}' },
          note: 'for {name}',
          tags: ['{tags}'],
        },
      },
      { sku: 'S1', qty: 3, name: 'Ada', tags: ['a', 'b'] },
    );
    expect(JSON.parse(request.body!)).toEqual({
      item: { sku: 'S1', qty: 3 },
      note: 'for Ada',
      tags: [['a', 'b']],
    });
  });

  it('fills a JSON text body_template so that no argument can break out of its place', () => {
    const request = renderToolRequest(
      BASE,
      {
        http_method: 'POST',
        url_template: '/orders',
        body_template: '{"qty": {qty}, "note": "Hi {name}"}',
      },
      { qty: 2, name: 'x", "admin": true, "y": "' },
    );
    expect(JSON.parse(request.body!)).toEqual({ qty: 2, note: 'Hi x", "admin": true, "y": "' });
  });

  it('fills headers, refusing a value that would end the header', () => {
    const config = { url_template: '/x', headers_template: { 'X-Customer': '{customer}' } };
    expect(renderToolRequest(BASE, config, { customer: 'c-1' }).headers['X-Customer']).toBe('c-1');
    expect(() => renderToolRequest(BASE, config, { customer: 'a\r\nX-Evil: 1' })).toThrow(
      TemplateError,
    );
  });

  it('says what is missing or impossible', () => {
    expect(() => renderToolRequest(BASE, { url_template: '/orders/{id}' }, {})).toThrow(
      'missing argument id',
    );
    expect(() => renderToolRequest(null, { url_template: '/orders' }, {})).toThrow(
      'its url_template is a path but its API has no base_url',
    );
    expect(() =>
      renderToolRequest(
        BASE,
        { http_method: 'POST', url_template: '/x', body_template: '{"a": {a} ' },
        { a: 1 },
      ),
    ).toThrow('its body_template is not JSON once filled');
  });

  it('takes an absolute url_template as it is', () => {
    const request = renderToolRequest(
      BASE,
      { url_template: 'https://other.example/o/{id}' },
      { id: 7 },
    );
    expect(request.url).toBe('https://other.example/o/7');
  });
});
