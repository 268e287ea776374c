/** The next page by number: until a page is empty or the total is reached. */
export const nextPageNumber = (page) => page.data.length > 0 && page.page * page.limit < page.total ? { page: page.page + 1 } : null;
/**
 * The next page of a list in ascending id order, after its last id: unlike page numbers, new items
 * arriving meanwhile shift nothing, so nothing is read twice or skipped.
 */
export const nextAfterId = (page) => page.data.length === page.limit && page.data.length > 0
    ? { page: 1, after: page.data[page.data.length - 1].id }
    : null;
/**
 * A paged list: `await` it for its first page, `for await` over it for every item of every page
 * (an item a moving list shows again on a later page is yielded once), or over `pages()`.
 */
export class PageIterator {
    load;
    next;
    key;
    constructor(load, next, key) {
        this.load = load;
        this.next = next;
        this.key = key;
    }
    // biome-ignore lint/suspicious/noThenProperty: a list is awaitable for its first page, as documented.
    then(onFulfilled, onRejected) {
        return this.load({}).then(onFulfilled, onRejected);
    }
    /** Every page in turn, as the API answers it. */
    async *pages() {
        let position = {};
        while (position) {
            const page = await this.load(position);
            yield page;
            position = this.next(page);
        }
    }
    async *[Symbol.asyncIterator]() {
        const seen = new Set();
        for await (const page of this.pages()) {
            for (const item of page.data) {
                const key = this.key(item);
                if (seen.has(key))
                    continue;
                seen.add(key);
                yield item;
            }
        }
    }
    /** Every item, in a list: mind a long list's requests against the rate limit. */
    async toArray() {
        const out = [];
        for await (const item of this)
            out.push(item);
        return out;
    }
}
