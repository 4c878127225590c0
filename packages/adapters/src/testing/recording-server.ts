import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the SDK under test sent. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
}

/** A loopback HTTP server that answers each request with the next recorded JSON response. */
export interface RecordingServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and an ephemeral port. Test support, not part of the package. */
export async function startRecordingServer(
  responses: readonly unknown[],
): Promise<RecordingServer> {
  const queue = [...responses];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body: text === '' ? undefined : JSON.parse(text),
      });
      const next = queue.shift();
      response.writeHead(next === undefined ? 500 : 200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          next ?? { error: { message: 'no recorded response left', type: 'server_error' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}

/** The body of the request at `index`; throws when the SDK sent fewer requests. */
export function requestBody(server: RecordingServer, index: number): unknown {
  const request = server.requests[index];
  if (request === undefined)
    throw new Error(`no request #${index}; the SDK sent ${server.requests.length}`);
  return request.body;
}
