import { formatStepId, type Plan } from '@plankit/core';
import { STEP_STATUSES } from '@plankit/core/constants';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a } from './fnv1a.ts';
import { fromPlanAnchor, toPlanAnchor } from './plan-anchor.ts';
import { PlanAnchorError } from './plan-anchor-error.ts';

const plan: Plan = {
  objective: 'Ship v2',
  status: 'active',
  steps: [
    {
      step_id: 'S001',
      title: 'Draft',
      details: 'with "quotes" and \\ slashes',
      status: 'done',
      notes: ['ok', 'line break'],
    },
    { step_id: 'S002', title: 'Tag', details: null, status: 'pending', notes: [] },
  ],
};

function errorOf(text: string): PlanAnchorError {
  const result = fromPlanAnchor(text);
  if (result.ok) throw new Error('expected a refusal');
  expect(PlanAnchorError.isInstance(result.error)).toBe(true);
  return result.error;
}

describe('fnv1a', () => {
  it('matches the published FNV-1a 32-bit test vectors, over UTF-8 bytes', () => {
    expect(fnv1a('')).toBe('811c9dc5');
    expect(fnv1a('a')).toBe('e40c292c');
    expect(fnv1a('foobar')).toBe('bf9cf968');
    expect(fnv1a('\u00e9')).not.toBe(fnv1a('\u00c3\u00a9'));
  });
});

describe('plan anchors', () => {
  it('writes a versioned, checksummed block, one JSON line per step', async () => {
    await expect(toPlanAnchor(plan)).toMatchFileSnapshot('./__snapshots__/anchor/two-steps.txt');
    expect(toPlanAnchor(plan)).toBe(toPlanAnchor(structuredClone(plan) as Plan));
    expect(toPlanAnchor({ objective: 'o', status: 'abandoned', steps: [] })).toMatch(
      /^<plankit-plan-anchor version="1" checksum="[0-9a-f]{8}">\n\{"objective":"o","status":"abandoned"\}\n<\/plankit-plan-anchor>$/,
    );
  });

  it('restores the exact plan from a summary, deeply frozen, with CRLF line ends accepted', () => {
    const summary = `We drafted the notes.\n\n${toPlanAnchor(plan)}\n\nNext: tag.`;
    const restored = fromPlanAnchor(summary);
    expect(restored).toEqual({ ok: true, value: plan });
    if (restored.ok) expect(Object.isFrozen(restored.value.steps[0]?.notes)).toBe(true);
    expect(fromPlanAnchor(summary.replace(/\n/g, '\r\n'))).toEqual({ ok: true, value: plan });
    // An anchor is a path in like any other: it holds the tools' text rules.
    const forged = toPlanAnchor({ ...plan, objective: 'Ship\nS009 [done] forged' });
    expect(fromPlanAnchor(forged)).toMatchObject({ ok: false, error: { code: 'anchor_invalid' } });
  });

  it('reads the last anchor when a summary holds several', () => {
    const older = toPlanAnchor({ ...plan, objective: 'Old' });
    expect(fromPlanAnchor(`${older}\n${toPlanAnchor(plan)}`)).toEqual({ ok: true, value: plan });
  });

  it('rejects missing, foreign, damaged and future blocks with a clear error', () => {
    const anchor = toPlanAnchor(plan);
    expect(errorOf('no anchor here').code).toBe('anchor_missing');
    expect(errorOf('<plan-anchor version="1">{}</plan-anchor>').code).toBe('anchor_missing');
    expect(errorOf(anchor.replace('Draft', 'Drift'))).toMatchObject({
      code: 'anchor_damaged',
      field: 'checksum',
    });
    expect(errorOf(anchor.replace(/\n/g, ' ')).code).toBe('anchor_damaged');
    expect(errorOf(anchor.replace(' version="1"', '')).code).toBe('anchor_damaged');
    expect(errorOf(anchor.replace('version="1"', 'version="3"'))).toMatchObject({
      code: 'anchor_version_unknown',
      message: 'Plan anchor version 3 is unknown; this build reads versions 1 and 2.',
    });
    expect(fromPlanAnchor(42 as never).ok).toBe(false);
  });

  it('rejects a well-formed block that does not hold a plan', () => {
    const bad = (lines: string[]) => {
      const body = lines.join('\n');
      // A valid checksum over invalid content: only the content is wrong.
      return `<plankit-plan-anchor version="1" checksum="${fnv1a(body)}">\n${body}\n</plankit-plan-anchor>`;
    };
    expect(errorOf(bad(['{"objective":"x","status":"paused"}']))).toMatchObject({
      code: 'anchor_invalid',
      field: 'status',
    });
    expect(errorOf(bad(['[1,2]'])).code).toBe('anchor_invalid');
    expect(errorOf(bad(['{"objective":"x","status":"active"}', 'not json'])).code).toBe(
      'anchor_damaged',
    );
    expect(
      errorOf(bad(['{"objective":"x","status":"active","__proto__":{"polluted":true}}'])).code,
    ).toBe('anchor_invalid');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('keeps depends_on (an opt-in field) after the reference keys, and reference plans byte-identical', () => {
    const dependent: Plan = {
      ...plan,
      steps: [
        plan.steps[0] as Plan['steps'][number],
        { ...(plan.steps[1] as Plan['steps'][number]), depends_on: ['S001'] },
      ],
    };
    const anchor = toPlanAnchor(dependent);
    expect(anchor).toContain(
      '{"step_id":"S002","title":"Tag","details":null,"status":"pending","notes":[],"depends_on":["S001"]}',
    );
    expect(fromPlanAnchor(anchor)).toEqual({ ok: true, value: dependent });
    // A step whose depends_on is undefined writes no key, so it reads back as the reference step.
    const undefinedDeps = {
      ...plan,
      steps: [{ ...(plan.steps[1] as Plan['steps'][number]), depends_on: undefined }],
    };
    expect(toPlanAnchor(undefinedDeps)).not.toContain('depends_on');
  });

  it('reads a whole anchor after a truncated one, and a plan whose text spells the tag', () => {
    const anchor = toPlanAnchor(plan);
    const cut = anchor.slice(0, 120);
    expect(fromPlanAnchor(`Summary: ${cut}\n\n${anchor}`)).toEqual({ ok: true, value: plan });
    const tricky: Plan = {
      ...plan,
      objective: 'Quote </plankit-plan-anchor> and <plankit-plan-anchor version="1">',
    };
    const written = toPlanAnchor(tricky);
    expect(written.match(/<\/?plankit-plan-anchor/g)).toHaveLength(2);
    expect(fromPlanAnchor(`${written}\ntrailing`)).toEqual({ ok: true, value: tricky });
    // A plan without the tag in its text keeps its bytes (the snapshot above).
  });

  it('round-trips any plan exactly (property)', () => {
    // Any plan that keeps core's plan invariants (unique well-formed ids, a status that agrees
    // with the steps, the tools' text rules); fromPlanAnchor refuses the others.
    const text = fc
      .oneof(
        // Text the tools could store: printable ASCII, trimmed, not empty.
        fc.stringMatching(/^[!-~]([ -~]{0,38}[!-~])?$/),
        fc.constantFrom(
          '<plankit-plan-anchor>',
          '</plankit-plan-anchor>',
          '<plankit-plan-anchor version="1" checksum="0">',
        ),
      )
      .filter((value) => value.length > 0);
    const step = fc.record({
      step_id: fc.integer({ min: 1, max: 99_999 }).map(formatStepId),
      title: text,
      details: fc.option(text),
      status: fc.constantFrom(...STEP_STATUSES),
      notes: fc.array(text, { maxLength: 3 }),
    });
    const plans: fc.Arbitrary<Plan> = fc
      .record({
        objective: text,
        abandoned: fc.boolean(),
        steps: fc.uniqueArray(step, { maxLength: 8, selector: (s) => s.step_id }),
      })
      .map(({ objective, abandoned, steps }) => {
        if (abandoned) return { objective, status: 'abandoned' as const, steps: [] };
        const done = steps.length > 0 && steps.every((s) => s.status === 'done');
        // Every other step depends on the steps before it: no cycle, ids of the same plan.
        const withDependencies = steps.map((s, i) =>
          i % 2 === 1 ? { ...s, depends_on: steps.slice(0, i).map((p) => p.step_id) } : s,
        );
        return {
          objective,
          status: done ? ('completed' as const) : ('active' as const),
          steps: withDependencies,
        };
      });
    fc.assert(
      fc.property(plans, fc.string(), fc.string(), (original, before, after) => {
        const anchor = toPlanAnchor(original);
        expect(
          fromPlanAnchor(`${before}\n${anchor}\n${after.replaceAll('<plankit-plan-anchor', '')}`),
        ).toEqual({
          ok: true,
          value: original,
        });
        expect(toPlanAnchor(original)).toBe(anchor);
      }),
      { numRuns: 300 },
    );
  });
});
