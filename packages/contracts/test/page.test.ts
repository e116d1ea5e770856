// The API's page as pageJson writes it: the text JSON.stringify makes of the ApiPage object, its
// fields in the spec's order, whatever the items hold, and a cursor only while hasMore is true.
import { expect } from 'chai';
import fc from 'fast-check';
import { pageJson, type ApiPage } from '@webpush/contracts/page.js';

describe('contracts: the API page', () => {
  it('is the ApiPage object as JSON.stringify writes it, for any items and page facts', () => {
    const item = fc.record({ id: fc.uuid(), title: fc.string({ unit: 'binary' }), topics: fc.array(fc.string()), ctr: fc.double({ noNaN: true, noDefaultInfinity: true }), image: fc.constantFrom(null, 'x') });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), fc.integer({ min: 1, max: 60 }), fc.option(fc.string({ minLength: 1 }), { nil: undefined }), (items, limit, cursor) => {
        const page: ApiPage<(typeof items)[number]> = { items, limit, hasMore: cursor !== undefined, nextCursor: cursor ?? null };
        const text = pageJson(items.map((i) => JSON.stringify(i)), { limit, hasMore: cursor !== undefined, nextCursor: cursor });
        expect(text).to.equal(JSON.stringify(page));
        expect(Object.keys(JSON.parse(text))).to.deep.equal(['items', 'limit', 'hasMore', 'nextCursor']);
      }),
    );
  });

  it('answers the last page with a null cursor, an empty one too', () => {
    expect(pageJson([], { limit: 10, hasMore: false })).to.equal('{"items":[],"limit":10,"hasMore":false,"nextCursor":null}');
    expect(pageJson(['{"id":"a"}'], { limit: 1, hasMore: false, nextCursor: '' })).to.equal('{"items":[{"id":"a"}],"limit":1,"hasMore":false,"nextCursor":null}');
  });
});
