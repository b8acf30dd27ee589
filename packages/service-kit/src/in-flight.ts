import type { ServerResponse } from 'node:http';

/** One response in the list; its links are cleared when it leaves, so it points at nothing. */
class Link {
  prev: Link = this;
  next: Link = this;

  constructor(public res: ServerResponse | undefined) {}
}

/**
 * The responses of a server still in flight (for draining and for `clientError`): a doubly linked list, one
 * link per request, unlinked and cleared when its response closes.
 *
 * Not a `Set`: V8 keeps every table a `Set` or `Map` replaces linked to its successor (for iterators still
 * running). With an add and a delete per request the table is replaced every few dozen requests, and once one
 * of those tables is in the old generation (any full collection under load puts it there) the chain from it
 * keeps every later table, and the responses that were in them, alive through each young-generation
 * collection until the next full one (service-kit README, "Garbage collection").
 */
export class InFlightResponses implements Iterable<ServerResponse> {
  readonly #head = new Link(undefined);

  /** Adds a response; the returned function removes it (once its response has closed). */
  add(res: ServerResponse): () => void {
    const head = this.#head;
    const link = new Link(res);
    link.prev = head.prev;
    link.next = head;
    head.prev.next = link;
    head.prev = link;
    return () => {
      link.prev.next = link.next;
      link.next.prev = link.prev;
      link.prev = link;
      link.next = link;
      link.res = undefined;
    };
  }

  *[Symbol.iterator](): Iterator<ServerResponse> {
    for (let link = this.#head.next; link !== this.#head; link = link.next) if (link.res) yield link.res;
  }
}
