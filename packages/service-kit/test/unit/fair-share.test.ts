import { fairShare } from '@spam-check/service-kit';

/** Resolves in the next turn of the event loop, with what `read` says then. */
const nextTurn = <T>(read: () => T) => new Promise<T>((resolve) => setImmediate(() => resolve(read())));

describe('fairShare', () => {
  it('when a client runs its checks one after the other (as a batch does) and none waits for I/O, they are spread over turns of the event loop', async () => {
    const share = fairShare(1);
    let done = 0;
    const batch = (async () => {
      for (let i = 0; i < 50; i++)
        await share('heavy', 1, async () => {
          done += 1;
        });
    })();

    const doneByNextTurn = await nextTurn(() => done);

    expect(doneByNextTurn).toBeLessThan(5);
    await batch;
    expect(done).toBe(50);
  });

  it('when a client has checks waiting, another client’s check starts at once', async () => {
    const share = fairShare(2);
    let heavyStarted = 0;
    const heavy = Array.from({ length: 10 }, () =>
      share('heavy', 1, () => {
        heavyStarted += 1;
        return new Promise<void>((resolve) => setImmediate(resolve));
      }),
    );
    let lightStarted = false;

    const light = share('light', 1, async () => {
      lightStarted = true;
      return 'answered';
    });

    expect(lightStarted).toBe(true);
    expect(heavyStarted).toBe(2);
    await expect(light).resolves.toBe('answered');
    await Promise.all(heavy);
    expect(heavyStarted).toBe(10);
  });

  it('when a check costs more than the budget, it still runs, alone, and its client’s next checks wait for it', async () => {
    const share = fairShare(100);
    let finishBig!: () => void;
    const started: string[] = [];
    const big = share('heavy', 1_000, () => {
      started.push('big');
      return new Promise<void>((resolve) => (finishBig = resolve));
    });
    const small = share('heavy', 1, async () => {
      started.push('small');
    });

    await nextTurn(() => undefined);
    expect(started).toEqual(['big']);
    finishBig();
    await Promise.all([big, small]);
    expect(started).toEqual(['big', 'small']);
  });

  it('when a check fails, its caller gets the error and the client’s next checks still run', async () => {
    const share = fairShare(1);
    const failing = share('a', 1, () => Promise.reject(new Error('boom')));
    const next = share('a', 1, async () => 'next');

    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
