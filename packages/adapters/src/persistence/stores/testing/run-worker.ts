import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from '../../../testing/bundle-worker.ts';

/** The repository root: workers run from there so the workspace packages resolve. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../..');

/** A worker process running a TypeScript file from the sources. */
export interface Worker {
  readonly child: ChildProcess;
  /** Every complete line the worker printed so far. */
  readonly lines: string[];
  /** Resolves with the first printed line matching `match`, or rejects when the worker exits. */
  waitFor(match: RegExp | ((line: string) => boolean)): Promise<string>;
  /** Resolves when the worker has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/**
 * Starts `node <file, bundled> <config as JSON>` (see {@link bundleWorker}); `file` is absolute
 * or relative to the repository. The worker is killed if it outlives `timeoutMs`, so a hung
 * worker fails the test instead of hanging it.
 */
export function startWorker(file: string, config: unknown, timeoutMs = 60_000): Worker {
  const child = spawn(
    process.execPath,
    ['--conditions=@plankit/source', bundleWorker(file), JSON.stringify(config)],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' },
  );
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const parts = stdout.split('\n');
    stdout = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => {
    child.on('close', (code, signal) => {
      for (const listener of listeners) listener();
      resolve({ code, signal, stderr });
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    child,
    lines,
    exited,
    waitFor(match: RegExp | ((line: string) => boolean)): Promise<string> {
      const test = typeof match === 'function' ? match : (line: string) => match.test(line);
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = lines.find(test);
          if (line !== undefined) {
            listeners.delete(check);
            resolve(line);
          } else if (done || child.exitCode !== null || child.signalCode !== null) {
            listeners.delete(check);
            reject(
              new Error(`worker exited before printing ${String(match)}: ${stderr.slice(-2000)}`),
            );
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}
