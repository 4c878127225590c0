import { describe, expect, it } from 'vitest';
import { clip } from './eval-host.ts';

describe('clip', () => {
  it('keeps a short output and cuts a long one to the cap, ending in ...', () => {
    expect(clip('short')).toBe('short');
    const cut = clip('x'.repeat(2500));
    expect(cut).toHaveLength(2000);
    expect(cut.endsWith('...')).toBe(true);
  });

  it('never leaves half a surrogate pair at the cut', () => {
    // The pair's high half would fall on the last kept code unit.
    const text = `${'a'.repeat(6)}\u{1F600}${'b'.repeat(10)}`;
    const cut = clip(text, 10);
    expect(cut).toBe('aaaaaa...');
  });
});
