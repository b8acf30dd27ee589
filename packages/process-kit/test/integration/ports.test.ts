import { freePort } from '@spam-check/process-kit';

describe('freePort', () => {
  afterEach(() => jest.restoreAllMocks());

  it('when the pick lands on a port fetch refuses (10080), it picks another one', async () => {
    const low = 32_768;
    // The first pick is 10080, the next one 20000 (when the ephemeral range starts at 32768, as here).
    jest
      .spyOn(Math, 'random')
      .mockReturnValueOnce(80.5 / (low - 10_000))
      .mockReturnValueOnce(10_000.5 / (low - 10_000));
    const port = await freePort();
    expect(port).not.toBe(10_080);
    // Nothing listens there yet: fetch tries to connect instead of refusing the port.
    const failure = await fetch(`http://127.0.0.1:${port}/`).then(
      () => 'answered',
      (error: { cause?: { message?: string } }) => error.cause?.message,
    );
    expect(failure).toMatch(/ECONNREFUSED/);
  });
});
