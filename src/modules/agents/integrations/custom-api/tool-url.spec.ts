import { toolUrl } from './tool-url';

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
});
