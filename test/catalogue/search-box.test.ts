// The catalogue's search box: whatever a person types is searched for, never answered with a
// syntax error. A text that reads as a query (`tags:steel`) is one; anything else is its words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import { parseSearch, searchBoxQuery } from '../../lib/catalogue/search-query.ts';

test('a text that reads as a query is kept as written', () => {
  for (const typed of ['tensile', 'tags:steel', 'name:probe-1 OR title:"Zug versuch"', 'tens*', '']) {
    assert.equal(searchBoxQuery(typed), typed);
  }
});

test('anything else becomes its words, each a phrase', () => {
  assert.equal(searchBoxQuery('C++ 10:30'), '"C++" "10:30"');
  assert.equal(searchBoxQuery('a "b c'), '"a" "\\"b" "c"');
  assert.equal(searchBoxQuery('x~2 [1 TO 5]'), '"x~2" "[1" "TO" "5]"');
  const tree = parseSearch(searchBoxQuery('C++'), 'q');
  assert.ok(tree && 'value' in tree && tree.field === 'text' && tree.value === 'C++', JSON.stringify(tree));
});

test('property: whatever is typed (within the length limit) reads as a query', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300, unit: 'binary' }), (typed) => {
      parseSearch(searchBoxQuery(typed), 'q');
    }),
    { numRuns: 500 },
  );
});
