import { readFileSync } from 'node:fs';
import type { Effect } from './steps.ts';

/** One line of the ledger the side-effect steps write. */
export interface LedgerEntry {
  readonly key: string;
  readonly kind: Effect;
  readonly attempt: number;
}

/** The entries of a ledger file, one JSON object a line; none for a missing file. */
export function readLedger(path: string): LedgerEntry[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LedgerEntry);
}
