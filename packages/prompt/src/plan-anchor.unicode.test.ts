import { createHmac } from 'node:crypto';
import { invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { trimText } from '@plankit/core/internal-unstable';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fromAuthenticatedPlanAnchor,
  MIN_ANCHOR_KEY_BYTES,
  toAuthenticatedPlanAnchor,
} from './authenticated-plan-anchor.ts';
import { fnv1a } from './fnv1a.ts';
import { isPlanReminder } from './is-plan-reminder.ts';
import { fromPlanAnchor, toPlanAnchor } from './plan-anchor.ts';
import { PlanningToolsSection } from './planning-tools-section.ts';
import { renderPlanReminder } from './render-plan-reminder.ts';

// Plans in any language, through the anchors and the reminder: set up by the tools in
// unicode mode, so the text is what a host's model could really store.

const KEY = 'k'.repeat(MIN_ANCHOR_KEY_BYTES);

/** The plan the unicode-mode tools store for `objective` and `titles`, or the refusal. */
async function setUp(objective: string, titles: readonly string[]) {
  const session = new Session();
  const { planning_setup_plan: setup } = new PlanningToolsSection({
    session,
    text: 'unicode',
  }).tools();
  const result = await invokeTool(
    setup,
    { objective, initial_steps: titles.map((title) => ({ title })) },
    { session },
  );
  return { result, plan: selectLatest(session, Plan) };
}

async function storedPlan(objective: string, titles: readonly string[]): Promise<Plan> {
  const { result, plan } = await setUp(objective, titles);
  if (!result.ok || plan === undefined) throw new Error(`refused: ${result.message}`);
  return plan;
}

// The titles, Japanese and an emoji with its presentation selector among them.
const TITLES = [
  'Café menu',
  'Write the README — then ship',
  'Don’t forget tests',
  '翻訳を確認する',
  'Ship v2 🚀',
  '❤️ 👩‍💻 Grüße',
];

/** The body of an anchor: the lines between the tags. */
const bodyOf = (anchor: string): string => anchor.split('\n').slice(1, -1).join('\n');

/** The anchor with `from` replaced by `to` in its body and the checksum made right again. */
function rewritten(anchor: string, from: string, to: string): string {
  const [open = '', ...rest] = anchor.split('\n');
  const body = rest.slice(0, -1).join('\n').replace(from, to);
  return `${open.replace(/checksum="[0-9a-f]{8}"/, `checksum="${fnv1a(body)}"`)}\n${body}\n</plankit-plan-anchor>`;
}

describe('plan anchors in any language', () => {
  it('writes the text as it is, UTF-8 in the checksum and the MAC, and reads it back', async () => {
    const plan = await storedPlan('リリース準備 ✅', TITLES);
    const anchor = toPlanAnchor(plan);
    for (const title of TITLES) expect(anchor).toContain(JSON.stringify(title));
    expect(fromPlanAnchor(anchor)).toEqual({ ok: true, value: plan });
    const signed = await toAuthenticatedPlanAnchor(plan, KEY);
    // An independent HMAC over the exact UTF-8 bytes gives the same MAC.
    const mac = createHmac('sha256', KEY)
      .update(Buffer.from(`plankit-plan-anchor version 2\n${bodyOf(signed)}`, 'utf8'))
      .digest('hex');
    expect(signed).toContain(`mac="${mac}"`);
    expect(await fromAuthenticatedPlanAnchor(signed, KEY)).toEqual({ ok: true, value: plan });
  });

  it('refuses an anchor whose text differs by one code point, even with its checksum made right', async () => {
    const plan = await storedPlan('リリース準備', ['翻訳を確認する', 'Café menu', 'Ship v2 🚀']);
    const signed = await toAuthenticatedPlanAnchor(plan, KEY);
    // One kana for another, an accent dropped, an astral character for another.
    for (const [from, to] of [
      ['翻訳を確認', '翻訳が確認'],
      ['Café', 'Cafe'],
      ['🚀', '🛸'],
    ]) {
      const forged = rewritten(signed, from as string, to as string);
      expect(forged).not.toBe(signed);
      expect(await fromAuthenticatedPlanAnchor(forged, KEY)).toMatchObject({
        ok: false,
        error: { code: 'anchor_mac_mismatch' },
      });
      expect(fromPlanAnchor(signed.replace(from as string, to as string))).toMatchObject({
        ok: false,
        error: { code: 'anchor_damaged' },
      });
    }
  });

  it('stores decomposed text composed, so both spellings give the same anchor', async () => {
    const composed = await storedPlan('Caf\u00e9', ['R\u00e9sum\u00e9']);
    const decomposed = await storedPlan('Cafe\u0301', ['Re\u0301sume\u0301']);
    expect(decomposed).toEqual(composed);
    expect(toPlanAnchor(decomposed)).toBe(toPlanAnchor(composed));
    expect(await toAuthenticatedPlanAnchor(decomposed, KEY)).toBe(
      await toAuthenticatedPlanAnchor(composed, KEY),
    );
  });

  it('round-trips any text the tools accept, byte for byte after NFC (property)', async () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      // Astral characters and combining marks, which most strings lack.
      fc.string({
        unit: fc.constantFrom('e', '\u0301', '\u0323', '𝄞', '😀', '\u200d', '\ufe0f', '語', ' '),
        maxLength: 20,
      }),
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(text, fc.array(text, { maxLength: 3 }), async (objective, titles) => {
        const { result, plan } = await setUp(objective, titles);
        if (!result.ok) {
          expect(plan).toBeUndefined();
          return;
        }
        accepted++;
        if (plan === undefined) throw new Error('accepted without a plan');
        expect(plan.objective).toBe(trimText(objective.normalize('NFC')));
        expect(plan.steps.map((step) => step.title)).toEqual(
          titles.map((title) => trimText(title.normalize('NFC'))),
        );
        expect(fromPlanAnchor(`summary\n${toPlanAnchor(plan)}`)).toEqual({
          ok: true,
          value: plan,
        });
        const signed = await toAuthenticatedPlanAnchor(plan, KEY);
        expect(await fromAuthenticatedPlanAnchor(signed, KEY)).toEqual({ ok: true, value: plan });
      }),
      { numRuns: 200 },
    );
    expect(accepted).toBeGreaterThan(20);
  });
});

describe('plan reminders in any language', () => {
  it('shows the stored text unchanged, and is still a reminder', async () => {
    const plan = await storedPlan('リリース準備', TITLES);
    const reminder = renderPlanReminder(plan) ?? '';
    expect(reminder).toContain('Objective: リリース準備\n');
    TITLES.forEach((title, i) => {
      expect(reminder).toContain(`S00${i + 1} [pending] ${title}\n`);
    });
    expect(isPlanReminder(reminder)).toBe(true);
  });
});
