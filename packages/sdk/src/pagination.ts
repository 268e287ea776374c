/** The envelope of every paged list. */
export type ListPage<T> = { data: T[]; total: number; page: number; limit: number };

/** Query parameters that move a list to another page. */
export type PagePosition = { page?: number; after?: string };

/** The next page by number: until a page is empty or the total is reached. */
export const nextPageNumber = (page: ListPage<unknown>): PagePosition | null =>
  page.data.length > 0 && page.page * page.limit < page.total ? { page: page.page + 1 } : null;

/**
 * The next page of a list in ascending id order, after its last id: unlike page numbers, new items
 * arriving meanwhile shift nothing, so nothing is read twice or skipped.
 */
export const nextAfterId = (page: ListPage<{ id: string }>): PagePosition | null =>
  page.data.length === page.limit && page.data.length > 0
    ? { page: 1, after: page.data[page.data.length - 1].id }
    : null;

/**
 * A paged list: `await` it for its first page, `for await` over it for every item of every page
 * (an item a moving list shows again on a later page is yielded once), or over `pages()`.
 */
export class PageIterator<T, P extends ListPage<T> = ListPage<T>> implements AsyncIterable<T>, PromiseLike<P> {
  constructor(
    private readonly load: (position: PagePosition) => Promise<P>,
    private readonly next: (page: P) => PagePosition | null,
    private readonly key: (item: T) => string,
  ) {}

  // biome-ignore lint/suspicious/noThenProperty: a list is awaitable for its first page, as documented.
  then<A = P, B = never>(
    onFulfilled?: ((page: P) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.load({}).then(onFulfilled, onRejected);
  }

  /** Every page in turn, as the API answers it. */
  async *pages(): AsyncGenerator<P, void, undefined> {
    let position: PagePosition | null = {};
    while (position) {
      const page: P = await this.load(position);
      yield page;
      position = this.next(page);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const seen = new Set<string>();
    for await (const page of this.pages()) {
      for (const item of page.data) {
        const key = this.key(item);
        if (seen.has(key)) continue;
        seen.add(key);
        yield item;
      }
    }
  }

  /** Every item, in a list: mind a long list's requests against the rate limit. */
  async toArray(): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this) out.push(item);
    return out;
  }
}
