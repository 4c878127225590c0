import type { BrowserWindow } from 'happy-dom';

/**
 * The window vitest's happy-dom environment installs as the global scope, typed with
 * happy-dom's own types: the repository's tsconfig has no DOM lib.
 */
export const dom: BrowserWindow = globalThis as unknown as BrowserWindow;

/** `markup` parsed as a document. */
export function parse(
  markup: string,
): ReturnType<BrowserWindow['DOMParser']['prototype']['parseFromString']> {
  return new dom.DOMParser().parseFromString(markup, 'text/html');
}
