import { describe, expect, it } from 'vitest';
import { type ApprovalCheckpoint, approvalRequired } from './approval-required.ts';
import { DEFAULT_INTERACTION_POLICY, type InteractionPolicy } from './interaction-policy.ts';

const policy = (approval_policy: InteractionPolicy['approval_policy']) => ({
  ...DEFAULT_INTERACTION_POLICY,
  approval_policy,
});
const checkpoints: readonly ApprovalCheckpoint[] = ['final', 'milestone', 'step'];

describe('approvalRequired', () => {
  it.each([
    ['single_final', [true, false, false]],
    ['milestone_approvals', [true, true, false]],
    ['strict_every_step', [true, true, true]],
  ] as const)('%s asks at final, milestone, step: %j', (cadence, expected) => {
    expect(checkpoints.map((checkpoint) => approvalRequired(policy(cadence), checkpoint))).toEqual(
      expected,
    );
  });

  it('refuses an unknown checkpoint', () => {
    expect(() => approvalRequired(policy('single_final'), 'phase' as never)).toThrowError(
      expect.objectContaining({ field: 'checkpoint' }),
    );
  });
});
