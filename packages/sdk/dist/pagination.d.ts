/** The envelope of every paged list. */
export type ListPage<T> = {
    data: T[];
    total: number;
    page: number;
    limit: number;
};
/** Query parameters that move a list to another page. */
export type PagePosition = {
    page?: number;
    after?: string;
};
/** The next page by number: until a page is empty or the total is reached. */
export declare const nextPageNumber: (page: ListPage<unknown>) => PagePosition | null;
/**
 * The next page of a list in ascending id order, after its last id: unlike page numbers, new items
 * arriving meanwhile shift nothing, so nothing is read twice or skipped.
 */
export declare const nextAfterId: (page: ListPage<{
    id: string;
}>) => PagePosition | null;
/**
 * A paged list: `await` it for its first page, `for await` over it for every item of every page
 * (an item a moving list shows again on a later page is yielded once), or over `pages()`.
 */
export declare class PageIterator<T, P extends ListPage<T> = ListPage<T>> implements AsyncIterable<T>, PromiseLike<P> {
    private readonly load;
    private readonly next;
    private readonly key;
    constructor(load: (position: PagePosition) => Promise<P>, next: (page: P) => PagePosition | null, key: (item: T) => string);
    then<A = P, B = never>(onFulfilled?: ((page: P) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B>;
    /** Every page in turn, as the API answers it. */
    pages(): AsyncGenerator<P, void, undefined>;
    [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined>;
    /** Every item, in a list: mind a long list's requests against the rate limit. */
    toArray(): Promise<T[]>;
}
