import { describe, expect, it } from 'vitest';
import { latestPlan, type PlanMessage } from './latest-plan.ts';
import { planOf, UNICODE_TITLES, unicodePlan, wireView, withStep } from './test/plans.ts';

const first = JSON.parse(JSON.stringify(wireView(planOf(3))));
const second = JSON.parse(JSON.stringify(wireView(withStep(planOf(3), 0, { status: 'done' }))));

// The fixtures' user messages are named u1, u2...; every other one is the assistant's.
function message(id: string, ...parts: PlanMessage['parts']): PlanMessage {
  return { id, role: /^u\d/.test(id) ? 'user' : 'assistant', parts };
}
const planPart = (data: unknown) => ({ type: 'data-plan', id: 'plan', data });

describe('latestPlan', () => {
  it('reads the newest plan part of the newest message that has one', () => {
    const reading = latestPlan([
      message('u1', { type: 'text' }),
      message('a1', planPart(first), { type: 'text' }),
      message('a2', { type: 'text' }, planPart(second), { type: 'text' }),
      message('u2', { type: 'text' }),
    ]);
    expect(reading.warnings).toEqual([]);
    expect(reading.plan?.counts.done).toBe(1);
    expect(Object.isFrozen(reading.plan)).toBe(true);
    expect(Object.isFrozen(reading.plan?.steps[0])).toBe(true);
  });

  it("reads only the assistant's messages: a plan part pasted into a user message never shows", () => {
    const forged = JSON.parse(JSON.stringify(wireView(withStep(planOf(3), 1, { status: 'done' }))));
    const messages: PlanMessage[] = [
      message('a1', planPart(first)),
      message('u1', planPart(forged)),
      { id: 's1', role: 'system', parts: [planPart(forged)] },
      { id: 't1', role: 'tool', parts: [planPart(null)] },
    ];
    const reading = latestPlan(messages);
    expect(reading.plan?.counts.done).toBe(0);
    expect(reading.warnings).toEqual([]);
    expect(latestPlan([message('u1', planPart(forged))]).plan).toBeNull();
  });

  it("is null after the server's part that clears the plan, which older plans do not outlive", () => {
    const cleared = latestPlan([
      message('a1', planPart(first)),
      message('a2', planPart(second), { type: 'text' }, planPart(null)),
    ]);
    expect(cleared).toEqual({ plan: null, warnings: [] });
    // A plan sent after the clearing part shows again.
    const again = latestPlan([message('a1', planPart(null)), message('a2', planPart(second))]);
    expect(again.plan?.counts.done).toBe(1);
  });

  it('is null with no plan part, and ignores other data parts', () => {
    const reading = latestPlan([
      message('a1', { type: 'data-weather', data: first }, { type: 'text' }),
    ]);
    expect(reading).toEqual({ plan: null, warnings: [] });
  });

  it('skips a foreign or malformed part with a warning and shows the last valid plan', () => {
    const broken = {
      ...second,
      steps: [...second.steps.slice(0, 2), { ...second.steps[2], title: 42 }],
    };
    const reading = latestPlan([
      message('a1', planPart(first)),
      message('a2', planPart({ kind: 'someone-else', items: [] })),
      message('a3', { type: 'text' }, planPart(broken)),
    ]);
    // Never half-read: the broken part's two good steps are not shown.
    expect(reading.plan?.counts.done).toBe(0);
    expect(reading.plan?.steps.map((step) => step.status)).toEqual([
      'pending',
      'pending',
      'pending',
    ]);
    expect(
      reading.warnings.map((warning) => [
        warning.messageId,
        warning.partIndex,
        warning.problem.code,
      ]),
    ).toEqual([
      ['a3', 1, 'plan_view_invalid'],
      ['a2', 0, 'plan_view_foreign'],
    ]);
    const [invalid] = reading.warnings;
    expect(invalid?.code).toBe('plan_part_ignored');
    expect(invalid?.partId).toBe('plan');
    expect(invalid?.problem.field).toBe('steps[2].title');
    expect(invalid?.message).toContain('message "a3"');
    expect(invalid?.message).toContain('steps[2].title');
  });

  it('reads a plan in any language exactly as the server sent it', () => {
    const sent = JSON.parse(JSON.stringify(wireView(unicodePlan())));
    const reading = latestPlan([message('a1', planPart(first)), message('a2', planPart(sent))]);
    expect(reading.warnings).toEqual([]);
    expect(reading.plan).toEqual(sent);
    expect(reading.plan?.objective).toBe('リリースノートを公開する 📝');
    expect(reading.plan?.steps.map((step) => step.title)).toEqual(UNICODE_TITLES);
  });

  it('ignores a part with text no tool could have stored, naming the field and the character', () => {
    const sent = JSON.parse(JSON.stringify(wireView(unicodePlan())));
    const withTitle = (title: string) => ({
      ...sent,
      steps: sent.steps.map((step: { title: string }, i: number) =>
        i === 1 ? { ...step, title } : step,
      ),
    });
    const reading = latestPlan([
      message('a1', planPart(sent)),
      // Trojan Source: an override that shows `txt.exe` as `exe.txt`.
      message('a2', planPart(withTitle('invoice\u202Eexe.txt'))),
      // ASCII smuggling: tag characters a person cannot see and a model reads.
      message('a3', planPart(withTitle('Ship v2 \u{E0049}\u{E0047}\u{E004E}'))),
      // Decomposed: the tools store every text in NFC.
      message('a4', planPart(withTitle('Cafe\u0301 menu'))),
    ]);
    expect(reading.plan?.steps[1]?.title).toBe('Ship v2 🚀');
    expect(reading.warnings.map((warning) => [warning.messageId, warning.problem.field])).toEqual([
      ['a4', 'steps[1].title'],
      ['a3', 'steps[1].title'],
      ['a2', 'steps[1].title'],
    ]);
    const [nfc, tag, bidi] = reading.warnings.map((warning) => warning.message);
    expect(nfc).toContain('NFC');
    expect(tag).toContain('U+E0049');
    expect(bidi).toContain('U+202E');
    // The log line names the character; it never carries it.
    expect(bidi).not.toContain('\u202E');
    expect(tag).not.toContain('\u{E0049}');
  });

  it('warns about parts that are not even objects', () => {
    const reading = latestPlan([
      message('a1', planPart('{"kind":"plankit.plan"}'), planPart(undefined)),
    ]);
    expect(reading.plan).toBeNull();
    expect(reading.warnings.map((warning) => warning.problem.code)).toEqual([
      'plan_view_foreign',
      'plan_view_foreign',
    ]);
  });

  it('quotes a message id in the warning line clipped, on one line', () => {
    const id = `${'m'.repeat(1 << 20)}`;
    const [long] = latestPlan([message(id, planPart(7))]).warnings;
    expect(long?.messageId).toBe(id);
    expect(long?.message.length).toBeLessThan(400);
    expect(long?.message).toContain(`"${'m'.repeat(197)}..."`);
    const [odd] = latestPlan([message('a\u2028b\nc\u0085d', planPart(7))]).warnings;
    expect(odd?.message).toContain('"a\\u2028b\\nc\\u0085d"');
  });

  it('clips a message id between characters, never inside an emoji', () => {
    for (const before of [196, 199]) {
      // The emoji's two code units straddle where the clip cuts: it is dropped whole.
      const id = `${'m'.repeat(before)}\u{1F680}${'m'.repeat(10)}`;
      const [warning] = latestPlan([message(id, planPart(7))]).warnings;
      expect(warning?.message).toContain(`"${'m'.repeat(Math.min(before, 197))}..."`);
      expect(warning?.message).not.toContain('\\ud83d');
    }
    const [japanese] = latestPlan([message('翻訳🚀', planPart(7))]).warnings;
    expect(japanese?.message).toContain('message "翻訳🚀"');
  });

  it('never throws on what is not a message, and still finds the plan', () => {
    const hostile = [
      message('a1', planPart(first)),
      null,
      'text',
      { id: 'a2' },
      { id: 'a3', parts: 'data-plan' },
      { id: 4, role: 'assistant', parts: [null, { type: 'data-plan', id: 7, data: [] }] },
    ] as unknown as PlanMessage[];
    const reading = latestPlan(hostile);
    expect(reading.plan?.objective).toBe('Ship the release');
    expect(reading.warnings.map((warning) => [warning.messageId, warning.partId])).toEqual([
      ['4', null],
    ]);
  });

  it('never throws on a message with more malformed plan parts than a call takes arguments', () => {
    const parts = Array.from({ length: 300_000 }, () => planPart(7));
    const reading = latestPlan([
      message('a1', planPart(first)),
      { id: 'a2', role: 'assistant', parts },
    ]);
    expect(reading.plan?.objective).toBe('Ship the release');
    expect(reading.warnings).toHaveLength(parts.length);
  });

  it('parses each message once: a re-read returns the same frozen plan', () => {
    const messages = [message('a1', planPart(first))];
    const once = latestPlan(messages).plan;
    expect(latestPlan(messages).plan).toBe(once);
    // useChat replaces a message to change it and keeps each part's data object.
    const replaced = [{ ...messages[0], parts: [{ ...planPart(first) }] } as PlanMessage];
    expect(latestPlan(replaced).plan).toBe(once);
  });
});
