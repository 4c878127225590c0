import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERACTION_POLICY } from './interaction-policy.ts';
import { limitQuestions } from './limit-questions.ts';

const policy = (probing_depth: number) => ({ ...DEFAULT_INTERACTION_POLICY, probing_depth });

describe('limitQuestions', () => {
  it('keeps the first probing_depth questions', () => {
    const questions = ['Deadline?', 'Budget?', 'Team?', 'Risks?'];
    expect(limitQuestions(policy(0), questions)).toEqual([]);
    expect(limitQuestions(policy(2), questions)).toEqual(['Deadline?', 'Budget?']);
    expect(limitQuestions(policy(3), questions.slice(0, 1))).toEqual(['Deadline?']);
  });

  it('refuses an invalid policy or a non-array', () => {
    expect(() => limitQuestions(policy(7), [])).toThrowError(
      expect.objectContaining({ field: 'policy.probing_depth' }),
    );
    expect(() => limitQuestions(policy(1), 'Deadline?' as never)).toThrowError(
      expect.objectContaining({ field: 'questions' }),
    );
  });
});
