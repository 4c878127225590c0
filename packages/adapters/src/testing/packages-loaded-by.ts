import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const hook = fileURLToPath(new URL('./record-imports.mjs', import.meta.url));
const root = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * The bare packages a fresh Node process resolves when it imports `specifier` (from the
 * sources, through record-imports.mjs): what an entry point makes an app load.
 */
export async function packagesLoadedBy(specifier: string): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [
      '--conditions=@plankit/source',
      '--import',
      'tsx',
      '--import',
      hook,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(specifier)});`,
    ],
    { cwd: root, timeout: 60_000 },
  );
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('RESOLVE '))
    .map((line) => line.slice('RESOLVE '.length));
}
