/** One page of a list that pages with a cursor, as the review list (`GET /api/v1/checks`) answers. */
interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * Every item of a paged list, read page by page along `next_cursor` (`page(null)` is the first), and read
 * again until it holds at least `count` items (at most 100 times): a list written once an answer has gone
 * out may lag its check.
 */
export async function wholeList<T>(
  page: (cursor: string | null) => Promise<Page<T>>,
  count: number,
): Promise<T[]> {
  for (let attempt = 0; ; attempt += 1) {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const next: Page<T> = await page(cursor);
      items.push(...next.items);
      cursor = next.next_cursor;
    } while (cursor !== null);
    if (items.length >= count || attempt === 100) return items;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
