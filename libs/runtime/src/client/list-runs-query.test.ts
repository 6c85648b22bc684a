import { describe, expect, it } from 'vitest';
import { InvalidRunQueryError } from './invalid-run-query-error.js';
import { DEFAULT_RUN_LIST_LIMIT, encodeCursor, parseListRunsQuery } from './list-runs-query.js';

describe('parseListRunsQuery', () => {
  it('fills the default limit and decodes a cursor a list gave back', () => {
    const member = '001718000000000:acme~run-1';
    expect(parseListRunsQuery({ cursor: encodeCursor(member) })).toEqual({
      limit: DEFAULT_RUN_LIST_LIMIT,
      after: member,
    });
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 1001 }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ status: 'done' }, 'status'],
    [{ agentId: 'a b' }, 'agentId'],
    [{ createdAfter: -1 }, 'createdAfter'],
    [{ cursor: encodeCursor('not a member') }, 'cursor'],
    [{ cursor: encodeCursor('001718000000000:{r:x}') }, 'cursor'],
    [{ sort: 'asc' }, ''],
  ])('refuses %j naming %s', (query, field) => {
    const error = (() => {
      try {
        parseListRunsQuery(query);
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidRunQueryError.is(error)).toBe(true);
    expect((error as InvalidRunQueryError).field).toBe(field);
  });
});
