import { placeholderInHost, toolUrl } from './tool-url';

describe('toolUrl', () => {
  it('appends a path template to the path of the base URL', () => {
    expect(toolUrl('https://shop.example/v1', '/orders/{id}')).toBe(
      'https://shop.example/v1/orders/{id}',
    );
    expect(toolUrl('https://shop.example/v1/', '/orders')).toBe('https://shop.example/v1/orders');
    expect(toolUrl('https://shop.example', '/orders')).toBe('https://shop.example/orders');
  });

  it("keeps the base URL's query beside the template's", () => {
    expect(toolUrl('https://shop.example/v1?tenant=a', '/orders?status={s}')).toBe(
      'https://shop.example/v1/orders?tenant=a&status={s}',
    );
  });

  it('takes an absolute template as it is, and has no URL for a path without a base', () => {
    expect(toolUrl('https://shop.example/v1', 'https://other.example/x')).toBe(
      'https://other.example/x',
    );
    expect(toolUrl(null, '/orders')).toBeNull();
  });

  it('tells a placeholder in the host, port or user part from one in the path or query', () => {
    for (const url of [
      'https://{host}/x',
      'https://api.{region}.shop.example/x',
      'https://shop.example{suffix}/x',
      'https://shop.example:{port}/x',
      'https://{user}@shop.example/x',
      'http://{host}',
    ]) {
      expect(placeholderInHost(url)).toBe(true);
    }
    for (const url of [
      'https://shop.example/{path}',
      'https://shop.example?q={q}',
      'https://shop.example#{x}',
    ]) {
      expect(placeholderInHost(url)).toBe(false);
    }
  });
});
