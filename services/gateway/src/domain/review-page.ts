import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CheckListQuery, ReviewItem } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';

/** A stored item as listed: the item without its content, and the client's last report on it. */
export type StoredItem = Omit<ReviewItem, 'content' | 'report'>;

/** A place in a client's list: the time of a check (ms) and its id (checks of one millisecond by id, descending). */
export interface Position {
  at: number;
  id: string;
}

export interface ListedRow {
  position: Position;
  item: StoredItem;
  report: ReviewItem['report'];
}

/**
 * A client's rows from `from` (exclusive when it has an id) down to `oldest` (ms, inclusive), newest first, at
 * most `count` of them. The stores answer it (Redis or memory); the page walk below decides what is listed.
 */
export type ReadRows = (from: Position, oldest: number, count: number) => Promise<ListedRow[]>;

/**
 * A page reads at most this many rows: a filter that matches few of a client's checks answers a short (or
 * empty) page with a cursor rather than reading the whole retention at once.
 */
const SCANNED_PER_PAGE = 2000;
const ROWS_PER_READ = 200;

/** The rules of the filters: all given ones hold (verdicts: any of them). */
function matches(query: CheckListQuery, row: ListedRow): boolean {
  const { item } = row;
  if (query.verdict && !query.verdict.includes(item.verdict)) return false;
  if (query.kind && item.kind !== query.kind) return false;
  if (query.reason && !item.reasons.includes(query.reason)) return false;
  if (query.reported !== undefined && (row.report !== null) !== query.reported) return false;
  return true;
}

/** The filters of a query as one string: a cursor holds its hash, so it pages only the query it came from. */
function filtersOf(query: CheckListQuery): string {
  const { verdict, kind, reason, reported, since, until } = query;
  return JSON.stringify([verdict ? [...verdict].sort() : null, kind, reason, reported, since, until]);
}

interface CursorBody {
  /** client, filters' hash, position time, position id, issued (ms). */
  c: string;
  f: string;
  a: number;
  i: string;
  t: number;
}

/**
 * Opaque cursors: the position and what it belongs to (the client, the query's filters, when it was issued),
 * signed with HMAC-SHA-256. A cursor that was altered, made for another client or query, or issued longer ago
 * than the retention (its checks are gone) is refused as VALIDATION_FAILED.
 */
export function reviewCursors(key: Buffer, retentionSeconds: number, now = () => Date.now()) {
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  const hashOf = (filters: string) => sign(`filters\n${filters}`).slice(0, 16);
  const refused = () =>
    new AppError('VALIDATION_FAILED', {
      errors: [
        { path: 'cursor', message: 'not a cursor of this list (altered, expired or of another query)' },
      ],
    });
  return {
    encode(client: string, query: CheckListQuery, position: Position): string {
      const body: CursorBody = {
        c: client,
        f: hashOf(filtersOf(query)),
        a: position.at,
        i: position.id,
        t: now(),
      };
      const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
      return `${encoded}.${sign(encoded)}`;
    },
    decode(client: string, query: CheckListQuery, cursor: string): Position {
      const [encoded = '', signature = ''] = cursor.split('.');
      const expected = Buffer.from(sign(encoded));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
      const body = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as CursorBody;
      if (body.c !== client || body.f !== hashOf(filtersOf(query))) throw refused();
      if (body.t < now() - retentionSeconds * 1000 || body.t > now() + 60_000) throw refused();
      return { at: body.a, id: body.i };
    },
  };
}

/**
 * One page of a client's list: rows read newest first from the cursor's position (or `until`, or now) down to
 * `since` or the retention, kept when they match, until the page is full or SCANNED_PER_PAGE rows were read.
 * The next position is the last row read unless the rows ran out.
 */
export async function pageOf(
  read: ReadRows,
  query: CheckListQuery,
  start: Position | undefined,
  oldest: number,
): Promise<{ rows: ListedRow[]; next: Position | null }> {
  const filtered =
    query.verdict !== undefined ||
    query.kind !== undefined ||
    query.reason !== undefined ||
    query.reported !== undefined;
  const count = filtered ? ROWS_PER_READ : query.limit;
  const until = query.until === undefined ? Number.MAX_SAFE_INTEGER : Date.parse(query.until) - 1;
  let position: Position = start ?? { at: until, id: '' };
  const since = Math.max(oldest, query.since === undefined ? 0 : Date.parse(query.since));
  const rows: ListedRow[] = [];
  let scanned = 0;
  while (scanned < SCANNED_PER_PAGE) {
    const read_ = await read(position, since, count);
    for (const row of read_) {
      scanned += 1;
      position = row.position;
      if (matches(query, row)) rows.push(row);
      if (rows.length === query.limit) return { rows, next: position };
    }
    if (read_.length < count) return { rows, next: null };
  }
  return { rows, next: position };
}
