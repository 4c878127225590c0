import type { Plan, PlanStep } from '@plankit/core';
import { type PlanView, parsePlanView, planView } from '@plankit/core/plan-view';

/** A plan of `count` steps (`S001`...), the first `done` of them done. */
export function planOf(count: number, done = 0, extra: Partial<PlanStep> = {}): Plan {
  const steps: PlanStep[] = Array.from({ length: count }, (_, i) => ({
    step_id: `S${String(i + 1).padStart(3, '0')}`,
    title: `Step ${i + 1}`,
    details: null,
    status: i < done ? 'done' : 'pending',
    notes: [],
    ...extra,
  }));
  return {
    objective: 'Ship the release',
    status: done === count && count > 0 ? 'completed' : 'active',
    steps,
  };
}

/** `plan` with step `index` changed. */
export function withStep(plan: Plan, index: number, change: Partial<PlanStep>): Plan {
  const steps = plan.steps.map((step, i) => (i === index ? { ...step, ...change } : step));
  const status =
    steps.length > 0 && steps.every((step) => step.status === 'done') ? 'completed' : 'active';
  return { ...plan, status, steps };
}

/** The plan's view as the client gets it: built by core, sent as JSON, parsed back. */
export function wireView(plan: Plan): PlanView {
  const view = planView(plan);
  if (view === null) throw new Error('no view');
  const parsed = parsePlanView(JSON.parse(JSON.stringify(view)));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/**
 * Titles from the issue on plans in any language, and more: Japanese, emoji (a ZWJ family, a flag, a
 * keycap with its variation selector), typographic punctuation, Hebrew ending in a number.
 */
export const UNICODE_TITLES: readonly string[] = [
  '翻訳を確認する',
  'Ship v2 🚀',
  'Café menu',
  'Don’t forget tests',
  'Write the README — then ship',
  '👩‍👩‍👧 家族の写真を選ぶ 🇯🇵',
  'רשימת בדיקות 2',
  '1️⃣ 最初のステップ',
];

/** A plan in Japanese with {@link UNICODE_TITLES}, the second in progress and the rest after it. */
export function unicodePlan(): Plan {
  return {
    objective: 'リリースノートを公開する 📝',
    status: 'active',
    steps: UNICODE_TITLES.map((title, i) => ({
      step_id: `S${String(i + 1).padStart(3, '0')}`,
      title,
      details: i === 0 ? '日本語の訳文をすべて読み直す' : null,
      status: i === 0 ? 'done' : i === 1 ? 'in_progress' : 'pending',
      notes: i === 0 ? ['完了 ✅'] : i === 6 ? ['עברית: נבדק'] : [],
      // S006 waits on S002, S007 on S006, S008 on S007: titles in every waiting line.
      depends_on: i < 5 ? [] : [i === 5 ? 'S002' : `S00${i}`],
    })),
  };
}
