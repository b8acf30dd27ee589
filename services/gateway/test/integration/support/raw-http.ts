import http from 'node:http';
import { buffer } from 'node:stream/consumers';

/** A POST with headers fetch would refuse to send (Connection, Keep-Alive, TE, Upgrade, ...). */
export function rawPost(
  baseUrl: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}${path}`,
      { method: 'POST', headers, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A GET that keeps the body as sent (fetch would decode a gzip body). */
export function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}${path}`, { headers, agent: false }, (response) => {
        buffer(response).then(
          (body) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
          reject,
        );
      })
      .on('error', reject);
  });
}
