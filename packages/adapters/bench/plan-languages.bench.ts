import { callTool, formatToolContent } from '@plankit/adapters';
import { formatStepId, Plan, Session, selectLatest } from '@plankit/core';
import { PlanningToolsSection, renderPlanReminder } from '@plankit/prompt';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { BenchCount, BenchSuite } from '../../../scripts/bench.ts';
import { ENGLISH, GERMAN, JAPANESE, type LanguagePlan } from './plan-languages.ts';

// What the same 10-step plan costs in English, German and Japanese: the plan worked step by
// step through the planning tools in unicode mode (set up, each step started then finished
// with a note, read back), each call through callTool, counting with o200k (gpt-tokenizer)
// the call's name and arguments as JSON and the text the model reads back
// (formatToolContent), then the plan reminder. Counts, not timings.

const NOW = 1_700_000_000_000;

interface Worked {
  /** Tokens of the setup call's arguments: the plan as the model writes it. */
  readonly setup: number;
  /** Tokens of what `planning_read_plan` gives the model: the plan as it reads it. */
  readonly read: number;
  /** Tokens of the plan reminder after setup. */
  readonly reminder: number;
  /** Tokens of every call and its result over the whole loop. */
  readonly loop: number;
  readonly plan: Plan | undefined;
}

async function work(source: LanguagePlan): Promise<Worked> {
  const session = new Session({ sessionId: 'plan-languages', clock: () => NOW });
  const tools = new PlanningToolsSection({ session, text: 'unicode' }).tools();
  let loop = 0;
  const call = async (name: string, args: Record<string, unknown>): Promise<number> => {
    const { tool, result } = await callTool(
      tools,
      { name, arguments: JSON.stringify(args) },
      { session },
    );
    if (!result.success) throw new Error(`${source.language}: ${name} refused: ${result.message}`);
    const read = countTokens(formatToolContent(result, tool));
    loop += countTokens(name) + countTokens(JSON.stringify(args)) + read;
    return read;
  };
  const setupArguments = {
    objective: source.objective,
    initial_steps: source.titles.map((title) => ({ title })),
  };
  await call('planning_setup_plan', setupArguments);
  const reminder = renderPlanReminder(selectLatest(session, Plan)) ?? '';
  for (let i = 1; i <= source.titles.length; i++) {
    const step_id = formatStepId(i);
    await call('planning_mark_step', { step_id, status: 'in_progress' });
    await call('planning_mark_step', { step_id, status: 'done', note: source.note });
  }
  const read = await call('planning_read_plan', {});
  const plan = selectLatest(session, Plan);
  session.dispose();
  return {
    setup: countTokens(JSON.stringify(setupArguments)),
    read,
    reminder: countTokens(reminder),
    loop,
    plan,
  };
}

const english = await work(ENGLISH);
const worked = [
  { source: GERMAN, result: await work(GERMAN) },
  { source: JAPANESE, result: await work(JAPANESE) },
];

const counts: BenchCount[] = worked.flatMap(({ source, result }) => [
  {
    name: `10-step plan written (setup call), ${source.language} vs English`,
    what: `o200k tokens of planning_setup_plan's arguments (objective and ten titles, as JSON) in ${source.language} and in English`,
    plankit: result.setup,
    baseline: english.setup,
  },
  {
    name: `10-step plan read (planning_read_plan), ${source.language} vs English`,
    what: `o200k tokens of what planning_read_plan gives the model (formatToolContent: the plan in plankit's text form), every step done with a note, in ${source.language} and in English`,
    plankit: result.read,
    baseline: english.read,
  },
  {
    name: `plan reminder, 10 open steps, ${source.language} vs English`,
    what: `o200k tokens of renderPlanReminder after setup in ${source.language} and in English`,
    plankit: result.reminder,
    baseline: english.reminder,
  },
  {
    name: `10-step plan worked one step at a time, ${source.language} vs English`,
    what: `o200k tokens of the 22 calls' arguments and results (setup, start and finish each step, read) in ${source.language} and in English`,
    plankit: result.loop,
    baseline: english.loop,
  },
]);

/** English, German and Japanese take the same 10-step plan through the tools in unicode mode. */
export const suite: BenchSuite = {
  name: 'plan languages',
  cases: [],
  counts,
  check: () => {
    // Every language stores its plan word for word, and works all ten steps to done.
    for (const { source, result } of [{ source: ENGLISH, result: english }, ...worked]) {
      const plan = result.plan;
      if (plan?.objective !== source.objective) throw new Error(`${source.language}: objective`);
      plan.steps.forEach((step, i) => {
        if (step.title !== source.titles[i] || step.status !== 'done')
          throw new Error(`${source.language}: step ${i + 1}`);
      });
    }
  },
};
