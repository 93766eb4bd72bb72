import { Page } from './page';

describe('Page.of', () => {
  it('computes meta for a middle page', () => {
    expect(Page.of([1], 45, 2, 20).meta).toEqual({
      total_count: 45,
      page_count: 3,
      current_page: 2,
      limit: 20,
      has_next_page: true,
      has_previous_page: true,
    });
  });

  it('gives zero pages for an empty list', () => {
    expect(Page.of([], 0, 1, 20).meta).toMatchObject({
      page_count: 0,
      has_next_page: false,
      has_previous_page: false,
    });
  });
});
