import { createPlanningTools, defineTool, Plan, Session, selectLatest } from '@plankit/core';
import { renderPlanReminder } from '@plankit/prompt';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MemoryStore } from '../../persistence/stores/memory-store.ts';
import { createSessionPool } from '../../sessions/create-session-pool.ts';
import { SessionResolveError } from '../../sessions/session-resolve-error.ts';
import type { AISDKContext } from '../ai-sdk-context.ts';
import { AISDKToolError } from '../ai-sdk-tool-error.ts';
import { planFinished } from '../plan-finished.ts';
import { planReminderStep } from '../plan-reminder-step.ts';
import { toAISDKTools } from '../to-ai-sdk-tools.ts';
import type { AISDKMajor } from './ai-sdk-host-run.ts';
import {
  type Call,
  chatScript,
  type SeenStep,
  sleep,
  stepResult,
  stepStreamParts,
  toolCall,
} from './chat-script.ts';

// Each major types its own options, results and mock model; the cases only rely on the shapes
// both share, so they take them untyped.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type PerMajor = any;

/** What one AI SDK major provides for the session cases: ai 6 and ai 7 differ only in these. */
export interface SessionsMajor extends AISDKMajor {
  /** `ai 6` or `ai 7`, in the names of the tests. */
  readonly name: string;
  readonly streamText: (options: PerMajor) => PerMajor;
  /** From the major's `ai/test`. */
  readonly convertArrayToReadableStream: (parts: PerMajor[]) => PerMajor;
  /** The option that carries the system prompt: `system` (ai 6) or `instructions` (ai 7). */
  readonly system: 'system' | 'instructions';
  /**
   * The call options that name the conversation to the tools and the step helpers: ai 6 takes
   * `experimental_context`, ai 7 a `toolsContext` entry per tool and a `runtimeContext`.
   */
  readonly contexts: (tools: Record<string, unknown>, context: object) => object;
}

type Chat = { chatId?: string | undefined };
const TOOLS = createPlanningTools(new Session());

/** A mock model answering each step with the next calls, then with text; each step waits `delay` ms. */
function scripted(major: SessionsMajor, steps: Call[][], seen: SeenStep[] = [], delay = 0) {
  const reply = async (options: { prompt: unknown[]; tools?: { name: string }[] }) => {
    seen.push({ prompt: options.prompt, tools: (options.tools ?? []).map((tool) => tool.name) });
    await sleep(delay);
    return steps.shift();
  };
  return new major.MockModel({
    doGenerate: async (options: never) => stepResult(await reply(options), 'Done.'),
    doStream: async (options: never) => ({
      stream: major.convertArrayToReadableStream(stepStreamParts(await reply(options), 'Done.')),
    }),
  });
}

function chatPool() {
  const pool = createSessionPool({ store: new MemoryStore(), max: 10 });
  const session = pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId);
  return { pool, session, tools: toAISDKTools(TOOLS, { session }) };
}

/**
 * The cases of a session per conversation through the AI SDK (toAISDKTools with a pool,
 * planReminderStep, planFinished), each written once and run against one major: the
 * `ai-sdk-sessions.test.ts` (ai 6) and `ai-sdk-sessions-v7.test.ts` (ai 7) files call this with
 * their major.
 */
export function describeAISDKSessions(major: SessionsMajor): void {
  const { generateText, streamText, stepCountIs, contexts } = major;

  describe(`toAISDKTools with a session per conversation (${major.name})`, () => {
    it('keeps the plans of two concurrent generateText conversations through one pool apart', async () => {
      const { pool, session, tools } = chatPool();
      const run = (chatId: string, objective: string, delay: number) =>
        generateText({
          model: scripted(major, chatScript(objective, chatId), [], delay),
          prompt: `Plan ${objective}.`,
          tools,
          ...contexts(tools, { chatId }),
          stopWhen: stepCountIs(5),
        });
      const [a, b] = await Promise.all([run('chat-a', 'Ship A', 7), run('chat-b', 'Ship B', 3)]);
      expect([a.text, b.text]).toEqual(['Done.', 'Done.']);
      for (const [id, objective] of [
        ['chat-a', 'Ship A'],
        ['chat-b', 'Ship B'],
      ] as const) {
        const live = await pool.get(id);
        if (!live.ok) throw live.error;
        const plan = selectLatest(live.value, Plan);
        expect(plan?.objective).toBe(objective);
        expect(plan?.status).toBe('completed');
        expect(plan?.steps.map((step) => step.title)).toEqual([
          `${objective}: draft`,
          `${objective}: ship`,
        ]);
      }
      expect(await session({ context: { chatId: 'chat-a' } })).not.toBe(
        await session({ context: { chatId: 'chat-b' } }),
      );
      await pool.close();
    });

    it('keeps two concurrent streamText conversations apart too', async () => {
      const { pool, tools } = chatPool();
      const run = async (chatId: string, objective: string) => {
        const result = streamText({
          model: scripted(major, chatScript(objective, chatId)),
          prompt: 'Plan.',
          tools,
          ...contexts(tools, { chatId }),
          stopWhen: stepCountIs(5),
        });
        return result.text;
      };
      await Promise.all([run('s-1', 'One'), run('s-2', 'Two')]);
      const one = await pool.get('s-1');
      const two = await pool.get('s-2');
      if (!one.ok || !two.ok) throw new Error('not live');
      expect(selectLatest(one.value, Plan)?.objective).toBe('One');
      expect(selectLatest(two.value, Plan)?.objective).toBe('Two');
      await pool.close();
    });

    it('refuses a call with no conversation as session_unresolved, which the model reads, and loads nothing', async () => {
      const { pool, tools } = chatPool();
      const seen: SeenStep[] = [];
      const result = await generateText({
        model: scripted(major, chatScript('Orphan', 'o'), seen),
        prompt: 'Plan.',
        tools,
        stopWhen: stepCountIs(2),
      });
      const part = result.steps[0]?.content.find((p: { type: string }) => p.type === 'tool-error');
      const error = part?.type === 'tool-error' ? part.error : undefined;
      expect(AISDKToolError.isInstance(error)).toBe(true);
      expect((error as AISDKToolError).code).toBe('session_unresolved');
      expect(SessionResolveError.isInstance((error as AISDKToolError).cause)).toBe(true);
      expect(JSON.stringify(seen[1]?.prompt)).toContain(
        '"type":"error-text","value":"Tool validation failed: The call\'s context names no conversation',
      );
      expect(pool.size).toBe(0);
      await pool.close();
    });

    it('refuses a hostile conversation id before any store sees it (conversation_id_invalid)', async () => {
      const { pool, tools } = chatPool();
      const result = await generateText({
        model: scripted(major, chatScript('Escape', 'x')),
        prompt: 'Plan.',
        tools,
        ...contexts(tools, { chatId: '../../etc/passwd' }),
        stopWhen: stepCountIs(1),
      });
      const part = result.steps[0]?.content.find((p: { type: string }) => p.type === 'tool-error');
      expect(part?.type === 'tool-error' && (part.error as AISDKToolError).code).toBe(
        'conversation_id_invalid',
      );
      expect(pool.size).toBe(0);
      await pool.close();
    });

    it('throws at build time for a session option that is neither a Session nor a resolver', () => {
      expect(() => toAISDKTools(TOOLS, { session: {} as never })).toThrow(/options\.session/);
    });
  });

  describe(`planReminderStep and planFinished with generateText (${major.name})`, () => {
    it('puts the reminder last each step, narrows the tools by the plan, and stops once the plan is finished', async () => {
      const { pool, session, tools } = chatPool();
      const search = defineTool({
        name: 'search_web',
        description: 'Searches the web.',
        parameters: z.strictObject({ query: z.string() }),
        handler: ({ query }) => ({ message: `No results for ${query}.`, value: null }),
      });
      const all = { ...tools, ...toAISDKTools([search], { session }) };
      const seen: SeenStep[] = [];
      const result = await generateText({
        model: scripted(major, chatScript('Ship C', 'c'), seen),
        [major.system]: 'You plan.',
        prompt: 'Plan C.',
        tools: all,
        ...contexts(all, { chatId: 'chat-c' }),
        prepareStep: planReminderStep({
          session,
          render: renderPlanReminder,
          activeTools: all,
        }),
        stopWhen: [planFinished({ session }), stepCountIs(10)],
      });
      // Setup, then the two marks that finish the plan: the loop stops there, with no third call.
      expect(result.steps).toHaveLength(2);
      expect(seen).toHaveLength(2);
      // No plan yet: no reminder, and setup is the only planning tool offered.
      expect(seen[0]?.tools.sort()).toEqual(['planning_setup_plan', 'search_web']);
      expect(JSON.stringify(seen[0]?.prompt)).not.toContain('plan-reminder');
      // A plan: every tool, and the reminder is the last message, once.
      expect(seen[1]?.tools).toHaveLength(TOOLS.length + 1);
      const second = seen[1]?.prompt as { role: string; content: { text?: string }[] }[];
      const last = second.at(-1);
      expect(last?.role).toBe('user');
      expect(last?.content[0]?.text).toContain('Objective: Ship C');
      expect(JSON.stringify(second).split('<plan-reminder>')).toHaveLength(2);
      // The cached prefix is untouched: system prompt and user prompt first, as given.
      expect(JSON.stringify(second.slice(0, 2))).toContain('You plan.');
      const live = await pool.get('chat-c');
      expect(live.ok && selectLatest(live.value, Plan)?.status).toBe('completed');
      await pool.close();
    });

    // ai 7 carries the messages prepareStep returned into the next step; a reminder carried
    // forward would show up twice by the third step.
    it('keeps one reminder, last, over three steps; narrows tools; stops when finished', async () => {
      const { pool, session, tools } = chatPool();
      const seen: SeenStep[] = [];
      const steps = chatScript('Ship C', 'c');
      // A third step before the finishing one, so a carried reminder would show up twice.
      steps.splice(1, 0, [toolCall('c-r', 'planning_read_plan', {})]);
      const result = await generateText({
        model: scripted(major, steps, seen),
        [major.system]: 'You plan.',
        prompt: 'Plan C.',
        tools,
        ...contexts(tools, { chatId: 'chat-c' }),
        prepareStep: planReminderStep({
          session,
          render: renderPlanReminder,
          activeTools: tools,
        }),
        stopWhen: [planFinished({ session }), stepCountIs(10)],
      });
      expect(result.steps).toHaveLength(3);
      expect(seen[0]?.tools).toEqual(['planning_setup_plan']);
      for (const step of seen.slice(1)) {
        const prompt = step.prompt as { role: string; content: { text?: string }[] }[];
        expect(JSON.stringify(prompt).split('<plan-reminder>')).toHaveLength(2);
        expect(prompt.at(-1)?.content[0]?.text).toContain('Objective: Ship C');
        expect(step.tools).toHaveLength(TOOLS.length);
      }
      const live = await pool.get('chat-c');
      expect(live.ok && selectLatest(live.value, Plan)?.status).toBe('completed');
      await pool.close();
    });

    it('offers no mark or update once the plan is finished, and keeps the app tools', async () => {
      const session = new Session();
      const tools = toAISDKTools(TOOLS, { session });
      const seen: SeenStep[] = [];
      const steps = chatScript('Ship D', 'd');
      steps.push([toolCall('d-4', 'planning_read_plan', {})]);
      await generateText({
        model: scripted(major, steps, seen),
        prompt: 'Plan D.',
        tools,
        prepareStep: planReminderStep({
          session,
          render: renderPlanReminder,
          activeTools: { ...tools, search_web: {} },
        }),
        stopWhen: stepCountIs(3),
      });
      expect(seen[2]?.tools).not.toContain('planning_mark_step');
      expect(seen[2]?.tools).not.toContain('planning_update_step');
      expect(seen[2]?.tools).toContain('planning_read_plan');
      // renderPlanReminder shows nothing once no step is open.
      expect(JSON.stringify(seen[2]?.prompt)).not.toContain('plan-reminder');
    });

    it("narrows by each tool's plan trait, not by its name, and refuses a list of names", async () => {
      const session = new Session();
      const lookalike = defineTool({
        name: 'planning_notes',
        description: 'Keeps notes.',
        parameters: z.object({}),
        handler: () => ({ message: 'ok', value: null }),
      });
      const tools = toAISDKTools([...TOOLS, lookalike], { session });
      const step = planReminderStep({ session, render: () => undefined, activeTools: tools });
      // No plan: the tools that start one, and the tool without a plan trait, whatever its name.
      expect((await step({ messages: [] })).activeTools?.sort()).toEqual([
        'planning_notes',
        'planning_setup_plan',
      ]);
      expect(() =>
        planReminderStep({
          session,
          render: () => undefined,
          activeTools: Object.keys(tools) as never,
        }),
      ).toThrow(/planReminderStep: options\.activeTools must be the record of tools/);
      expect(() =>
        planReminderStep({ session, render: () => undefined, activTools: tools } as never),
      ).toThrow('planReminderStep: options.activTools is not an option.');
    });

    it('refuses an option planFinished does not take, in the same words', () => {
      expect(() => planFinished({ session: new Session(), onErorr: () => {} } as never)).toThrow(
        'planFinished: options.onErorr is not an option.',
      );
    });

    it('gives an unresolved step no reminder and no stop, and says why', async () => {
      const { pool, session, tools } = chatPool();
      const errors: string[] = [];
      const seen: SeenStep[] = [];
      const result = await generateText({
        model: scripted(major, chatScript('Nobody', 'n'), seen),
        prompt: 'Plan.',
        tools,
        prepareStep: planReminderStep({
          session,
          render: renderPlanReminder,
          onError: (error) => errors.push(error.code),
        }),
        stopWhen: [
          planFinished({ session, onError: (error) => errors.push(error.code) }),
          stepCountIs(3),
        ],
      });
      expect(result.steps).toHaveLength(3);
      expect(errors).toContain('session_unresolved');
      expect(seen.map((step) => step.tools.length)).toEqual([
        TOOLS.length,
        TOOLS.length,
        TOOLS.length,
      ]);
      await pool.close();
    });
  });
}
