import { dialectOf } from './dialect';
import { likePattern, searchCondition } from './search-condition';

describe('likePattern', () => {
  it('lower-cases and escapes LIKE wildcards and the escape character', () => {
    expect(likePattern('50%_A\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});

describe('searchCondition', () => {
  const columns = { searchColumns: ['w.name', 'w.category'], searchArrayColumns: ['w.tags'] };

  it('matches any column or any element of an array column on SQLite', () => {
    expect(searchCondition(dialectOf('sqlite'), columns, '$2')).toBe(
      "(LOWER(w.name) LIKE $2 ESCAPE '\\' OR LOWER(w.category) LIKE $2 ESCAPE '\\' OR " +
        "EXISTS (SELECT 1 FROM json_each(w.tags) WHERE LOWER(value) LIKE $2 ESCAPE '\\'))",
    );
  });

  it('reads array elements with json_array_elements_text on PostgreSQL', () => {
    expect(searchCondition(dialectOf('postgres'), columns, ':search')).toContain(
      'EXISTS (SELECT 1 FROM json_array_elements_text(w.tags::json) AS element ' +
        "WHERE LOWER(element) LIKE :search ESCAPE '\\')",
    );
  });

  it('searches plain columns only when there are no array columns', () => {
    expect(searchCondition(dialectOf('postgres'), { searchColumns: ['a.name'] }, '$1')).toBe(
      "(LOWER(a.name) LIKE $1 ESCAPE '\\')",
    );
  });
});
