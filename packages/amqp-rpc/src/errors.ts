import type { RpcProblem } from './reply';

/** The call got no reply within its `timeoutMs`; the request expired in the broker and will not be processed. */
export class RpcTimeoutError extends Error {
  override name = 'RpcTimeoutError';
}

/**
 * No RPC was possible or it was cut off: not connected (within the reconnect wait), the connection or channel
 * closed while the call was pending, the target queue does not exist, or the client is closed.
 */
export class RpcUnavailableError extends Error {
  override name = 'RpcUnavailableError';
}

/** The handler answered `{ok: false, problem}`; `problem` is what the server sent. */
export class RpcRemoteError extends Error {
  override name = 'RpcRemoteError';

  constructor(readonly problem: RpcProblem) {
    super(`RPC handler failed: ${problem.code}`);
  }
}

/** The queue exists but nothing consumes it (every server of it is down): the call would only time out. */
export class RpcNoConsumerError extends RpcUnavailableError {
  override name = 'RpcNoConsumerError';
}
