import type { Failure } from '../openapi/failures';

/** historyPage's request examples: Swagger UI fills the body with the first (the document adds one of every field). */
export const HISTORY_PAGE_EXAMPLES = {
  firstPage: { summary: 'The newest 10 entries, no filters', value: { current: 1, pageSize: 10 } },
};

/** What historyPage refuses beside a body of the wrong shape. */
export const HISTORY_PAGE_FAILURES: Failure[] = [
  {
    status: 400,
    when: 'timeStart is after timeEnd.',
    error: 'timeStart must not be after timeEnd',
    input: { set: { timeStart: 1798761599999, timeEnd: 1767225600000 } },
  },
];
