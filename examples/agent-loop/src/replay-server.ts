import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback server answering each request with the next response of a recorded transcript. */
export interface ReplayServer {
  readonly url: string;
  /** Responses not yet served. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * Serves a transcript (a JSON array of API responses, as recorded) on 127.0.0.1, so the real
 * SDK client runs unchanged against it: same requests, same parsing, no network.
 */
export async function startReplayServer(transcriptPath: string): Promise<ReplayServer> {
  const queue: unknown[] = JSON.parse(await readFile(transcriptPath, 'utf8'));
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const next = queue.shift();
      response.writeHead(next === undefined ? 500 : 200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          next ?? {
            error: { type: 'replay_exhausted', message: 'The transcript has no response left.' },
          },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}

/**
 * Ends a replayed or live session: a replay must have served every response (or the loop
 * ended early); a live run with `record` set saves its responses as a new transcript.
 */
export async function finishTranscript(
  replay: ReplayServer | undefined,
  recorded: readonly unknown[],
  record: string | undefined,
  label: string,
): Promise<void> {
  if (replay !== undefined) {
    const left = replay.remaining();
    await replay.close();
    if (left > 0)
      throw new Error(`The ${label} transcript still has ${left} responses: the loop ended early.`);
  } else if (record !== undefined) {
    await writeFile(record, `${JSON.stringify(recorded, null, 2)}\n`);
  }
}
