import { invalidArgument } from '../internal/invalid-argument.ts';

/**
 * Which text the planning tools accept: `'ascii'` (the reference behaviour: printable ASCII
 * only) or `'unicode'` (any language: NFC-normalised, with controls, bidirectional controls
 * and invisible characters refused). The same option decides the tools' rules and the copy
 * the prompt renders.
 *
 * @public
 */
export type TextMode = 'ascii' | 'unicode';

/** The modes of {@link TextMode}. @public */
export const TEXT_MODES: readonly ['ascii', 'unicode'] = ['ascii', 'unicode'];

/**
 * `mode` when it is a {@link TextMode}; otherwise a programmer error naming `where` and
 * `field`, as for every other option.
 */
export function checkTextMode(mode: unknown, where: string, field: string): TextMode {
  if (mode === 'ascii' || mode === 'unicode') return mode;
  throw invalidArgument(where, field, 'must be one of ascii, unicode');
}
