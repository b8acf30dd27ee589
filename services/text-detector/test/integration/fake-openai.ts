import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Scenario = 'good' | 'malformed' | '429' | '500' | 'slow';

/** A real HTTP server on loopback speaking the chat completions protocol, one scenario at a time. */
export class FakeOpenAi {
  scenario: Scenario = 'good';
  answer = { spam: true, confidence: 0.9, categories: ['advertising'], reason: 'Sells pills.' };
  requests: { path: string; authorization: string | undefined; body: Record<string, unknown> }[] = [];
  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  baseUrl = '';

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.requests.push({
      path: `${req.method} ${req.url}`,
      authorization: req.headers.authorization,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
    });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const completion = (content: string) => ({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    });
    switch (this.scenario) {
      case 'good':
        return json(200, completion(JSON.stringify(this.answer)));
      case 'malformed':
        return json(200, completion('{"spam": "maybe", "confidence": 7}'));
      case '429':
        return json(
          429,
          { error: { message: 'rate limited', type: 'rate_limit' } },
          { 'retry-after-ms': '10' },
        );
      case '500':
        return json(500, { error: { message: 'boom', type: 'server_error' } }, { 'retry-after-ms': '10' });
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, 1500));
        if (!res.destroyed) json(200, completion(JSON.stringify(this.answer)));
        return;
    }
  }
}
