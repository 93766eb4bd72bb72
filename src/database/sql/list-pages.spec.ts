import { dialectOf } from './dialect';
import { ListTable, listStatementTexts } from './list-pages';

const TABLE: ListTable = {
  from: 'agents agent',
  columns: 'agent.*',
  searchColumns: ['agent.name'],
  sortColumns: { name: 'agent.name', created_at: 'agent.created_at' },
  defaultSort: '-created_at',
  tieBreaker: 'agent.id',
};
const OWNED = { where: 'agent.team_id = $1', params: ['team'] };

describe('listStatementTexts', () => {
  it('reads the page with its total as a subquery column, sorted by the default sort', () => {
    expect(listStatementTexts(TABLE, dialectOf('sqlite'), OWNED, {})).toEqual({
      count: 'SELECT count(*) AS total FROM agents agent WHERE agent.team_id = $1',
      page:
        'SELECT agent.*, (SELECT count(*) AS total FROM agents agent WHERE agent.team_id = $1) ' +
        'AS total FROM agents agent WHERE agent.team_id = $1 ' +
        'ORDER BY agent.created_at DESC, agent.id DESC LIMIT $2 OFFSET $3',
    });
  });

  it('numbers the search term after the filter’s parameters, in the page and in the count', () => {
    const texts = listStatementTexts(TABLE, dialectOf('postgres'), OWNED, {
      search: 'x',
      sort: 'name',
    });
    const where = "(agent.team_id = $1) AND (LOWER(agent.name) LIKE $2 ESCAPE '\\')";
    expect(texts.count).toBe(`SELECT count(*) AS total FROM agents agent WHERE ${where}`);
    expect(texts.page).toContain(`FROM agents agent WHERE ${where} ORDER BY agent.name ASC`);
    expect(texts.page).toMatch(/agent\.id ASC LIMIT \$3 OFFSET \$4$/);
  });

  it('refuses a sort field the table does not whitelist', () => {
    expect(() =>
      listStatementTexts(TABLE, dialectOf('sqlite'), OWNED, { sort: '-constructor' }),
    ).toThrow('agents agent cannot be sorted by constructor');
    expect(() =>
      listStatementTexts(TABLE, dialectOf('sqlite'), OWNED, { sort: 'id; DROP' }),
    ).toThrow();
  });
});
