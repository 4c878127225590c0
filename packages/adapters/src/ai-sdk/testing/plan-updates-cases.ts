import { goals, PauseGoal, SetGoal } from '@plankit/controller/goal';
import {
  createPlanningTools,
  InProcessEventBus,
  invokeTool,
  MarkStep,
  PlankitError,
  Session,
} from '@plankit/core';
import type { PlanView } from '@plankit/core/plan-view';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../persistence/stores/memory-store.ts';
import { createSessionPool } from '../../sessions/create-session-pool.ts';
import { UNICODE_OBJECTIVE, UNICODE_TITLES } from '../../testing/unicode-plan-case.ts';
import type { AISDKContext } from '../ai-sdk-context.ts';
import { toAISDKTools } from '../to-ai-sdk-tools.ts';
import { withPlanUpdates } from '../with-plan-updates.ts';
import { type Call, toolCall, usage } from './chat-script.ts';

// Each major types its own stream functions and mock model; the cases rely only on the shapes
// both share, so they take them untyped.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type PerMajor = any;

/** What one AI SDK major provides for the plan-update cases: ai 6 and ai 7 differ only in these. */

/** How many handlers hear a SessionCommitted on `bus`, counted by publishing one nobody owns. */
function commitListeners(bus: InProcessEventBus): number {
  return bus.publish({
    type: 'SessionCommitted',
    sessionId: 'other',
    revision: 1,
    changes: [],
    at: 0,
  }).delivered;
}

export interface UIStreamMajor {
  /** `ai` 6 or `ai` 7, for the test names. */
  readonly name: string;
  readonly createUIMessageStream: (options: PerMajor) => ReadableStream;
  readonly readUIMessageStream: (options: PerMajor) => AsyncIterable<PerMajor>;
  readonly streamText: (options: PerMajor) => PerMajor;
  readonly stepCountIs: (count: number) => unknown;
  readonly validateUIMessages: (options: PerMajor) => Promise<PerMajor[]>;
  /** `MockLanguageModelV3` (ai 6) or `MockLanguageModelV4` (ai 7). */
  readonly MockModel: new (
    options: PerMajor,
  ) => unknown;
  /** The `streamText` options that give the tools the app's context. */
  readonly contextOptions: (tools: Record<string, unknown>, context: unknown) => object;
}

type Chat = { chatId?: string | undefined };
type Chunk = { type: string; id?: string; data?: PlanView | null; toolCallId?: string };

const TOOLS = createPlanningTools(new Session());

/** A streaming mock model answering each step with the next calls, then with text. */
function scripted(major: UIStreamMajor, steps: Call[][]) {
  return new major.MockModel({
    doStream: async () => {
      const calls = steps.shift();
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of [
              { type: 'stream-start', warnings: [] },
              ...(calls ?? [
                { type: 'text-start', id: 't' },
                { type: 'text-delta', id: 't', delta: 'Done.' },
                { type: 'text-end', id: 't' },
              ]),
              {
                type: 'finish',
                finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
                usage,
              },
            ])
              controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

const script = (prefix: string, objective: string): Call[][] => [
  [
    toolCall(`${prefix}-1`, 'planning_setup_plan', {
      objective,
      initial_steps: [{ title: 'Draft' }, { title: 'Ship' }],
    }),
  ],
  [toolCall(`${prefix}-2`, 'planning_mark_step', { step_id: 'S001', status: 'done' })],
  [toolCall(`${prefix}-3`, 'planning_mark_step', { step_id: 'S002', status: 'in_progress' })],
];

/** Streams one scripted turn through `createUIMessageStream` and `withPlanUpdates`. */
async function turn(
  major: UIStreamMajor,
  source: Session | ((context: AISDKContext<Chat>) => Session | Promise<Session>),
  context: Chat | undefined,
  steps: Call[][],
  id?: string,
) {
  const tools = toAISDKTools(TOOLS, { session: source });
  const chunks: Chunk[] = [];
  const stream = major.createUIMessageStream({
    execute: recording(
      chunks,
      withPlanUpdates(
        { session: source, context, ...(id === undefined ? {} : { id }) },
        ({ writer }) => {
          writer.merge(
            major
              .streamText({
                model: scripted(major, steps),
                prompt: 'Plan the release.',
                tools,
                ...major.contextOptions(tools, context),
                stopWhen: major.stepCountIs(6),
              })
              .toUIMessageStream(),
          );
        },
      ),
    ),
  });
  let message: { parts: { type: string; id?: string; data?: unknown }[] } | undefined;
  for await (const snapshot of major.readUIMessageStream({ stream })) message = snapshot;
  const plans = chunks.filter((chunk) => chunk.type === 'data-plan');
  return { chunks, plans, message };
}

/**
 * Streams `work` between a start and a finish chunk through `createUIMessageStream` and
 * `withPlanUpdates` on `session`: every chunk written, and the message read back.
 */
async function planUpdatesAround(
  major: UIStreamMajor,
  session: Session,
  work: () => Promise<void>,
): Promise<{
  chunks: Chunk[];
  message: { parts: { type: string; data?: unknown }[] } | undefined;
}> {
  const chunks: Chunk[] = [];
  const stream = major.createUIMessageStream({
    execute: recording(
      chunks,
      withPlanUpdates({ session }, async ({ writer }) => {
        writer.write({ type: 'start' });
        await work();
        writer.write({ type: 'finish' });
      }),
    ),
  });
  let message: { parts: { type: string; data?: unknown }[] } | undefined;
  for await (const snapshot of major.readUIMessageStream({ stream })) message = snapshot;
  return { chunks, message };
}

/** What a test hears of the merged streams as the writer takes them. */
interface MergedWatch {
  /** A chunk of a merged stream, just recorded. */
  readonly chunk?: (chunk: Chunk) => void;
  /** A merged stream has ended: its last chunk is recorded. */
  readonly end?: () => void;
}

/**
 * `execute` given a writer that copies every chunk into `chunks` as the stream takes it: the
 * stream's own message tracking later updates a data part in place, chunk objects included.
 */
function recording(
  chunks: Chunk[],
  execute: (options: { writer: PerMajor }) => Promise<void>,
  watch: MergedWatch = {},
): (options: { writer: PerMajor }) => Promise<void> {
  return ({ writer }) =>
    execute({
      writer: {
        ...writer,
        write: (chunk: Chunk) => {
          chunks.push(structuredClone(chunk));
          writer.write(chunk);
        },
        merge: (stream: ReadableStream) =>
          writer.merge(
            stream.pipeThrough(
              new TransformStream({
                transform(chunk, controller) {
                  chunks.push(structuredClone(chunk));
                  controller.enqueue(chunk);
                  watch.chunk?.(chunk);
                },
                flush() {
                  watch.end?.();
                },
              }),
            ),
          ),
      },
    });
}

/** A promise and the function that resolves it. */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * Every chunk the client reads, copied as it comes (the message tracking updates a data part's
 * chunk in place), and the message it builds from them.
 */
async function readAll(major: UIStreamMajor, stream: ReadableStream, read: Chunk[] = []) {
  const [raw, ui] = stream.tee();
  const reading = (async () => {
    for await (const chunk of raw as unknown as AsyncIterable<Chunk>)
      read.push(structuredClone(chunk));
  })();
  let message: { parts: { type: string; data?: unknown }[] } | undefined;
  for await (const snapshot of major.readUIMessageStream({ stream: ui })) message = snapshot;
  await reading;
  return { read, message };
}

/** Where execute returned, in the recorded chunks: a marker of the tests, never sent. */
const RETURNED: Chunk = { type: 'test-execute-returned' };

const statuses = (view: PlanView | null | undefined) => view?.steps.map((step) => step.status);

/** The model's one step: it sets up the plan with two pending steps, then answers. */
function setUpPlan(major: UIStreamMajor, tools: ReturnType<typeof toAISDKTools>) {
  return major.streamText({
    model: scripted(major, script('c', 'Ship').slice(0, 1)),
    prompt: 'Plan the release.',
    tools,
    ...major.contextOptions(tools, undefined),
    stopWhen: major.stepCountIs(6),
  });
}

/** A session whose plan has two pending steps, S001 and S002, and its planning tools. */
async function twoStepPlan() {
  const session = new Session();
  const planning = createPlanningTools(session);
  await invokeTool(
    planning.planning_setup_plan,
    { objective: 'Ship', initial_steps: [{ title: 'Draft' }, { title: 'Ship' }] },
    { session },
  );
  return { session, planning };
}

/** The plan-update cases, run against one AI SDK major. */
export function describePlanUpdates(major: UIStreamMajor): void {
  describe(`withPlanUpdates (${major.name}, the real createUIMessageStream)`, () => {
    it('writes a data-plan part for each committed change after the start chunk, one id, in order', async () => {
      const session = new Session();
      const tools = createPlanningTools(session);
      const { chunks, message } = await planUpdatesAround(major, session, async () => {
        await invokeTool(
          tools.planning_setup_plan,
          { objective: 'Ship', initial_steps: [{ title: 'Draft' }, { title: 'Ship' }] },
          { session },
        );
        const setUp = session.snapshot();
        await invokeTool(
          tools.planning_mark_step,
          { step_id: 'S001', status: 'done' },
          { session },
        );
        await invokeTool(tools.planning_read_plan, {}, { session });
        expect(session.rollback(setUp).ok).toBe(true);
      });
      // A read changes nothing and sends nothing; a rollback is a change.
      expect(chunks.map((chunk) => [chunk.type, chunk.id, statuses(chunk.data)])).toEqual([
        ['start', undefined, undefined],
        ['data-plan', 'plankit-plan', ['pending', 'pending']],
        ['data-plan', 'plankit-plan', ['done', 'pending']],
        ['data-plan', 'plankit-plan', ['pending', 'pending']],
        ['finish', undefined, undefined],
      ]);
      const parts = message?.parts.filter((part) => part.type === 'data-plan') ?? [];
      expect(parts).toHaveLength(1);
      expect(parts[0]?.data).toEqual(chunks[3]?.data);
    });

    it('writes a part when the goal the view carries changes, and none when nothing it shows did', async () => {
      const session = new Session();
      const tools = createPlanningTools(session, { extensions: [goals()] });
      const { chunks } = await planUpdatesAround(major, session, async () => {
        // No plan yet: a goal alone has no view to carry it.
        expect(session.dispatch(SetGoal, { objective: 'Ship it' }).ok).toBe(true);
        await invokeTool(
          tools.planning_setup_plan,
          { objective: 'Ship', initial_steps: [{ title: 'Draft' }] },
          { session },
        );
        // The plan is unchanged; the goal the view shows is not.
        expect(session.dispatch(PauseGoal, { reason: 'Review' }).ok).toBe(true);
        // A refused command changes nothing: no part.
        expect(session.dispatch(PauseGoal, {}).ok).toBe(false);
      });
      const goalOf = (chunk: Chunk | undefined) =>
        (chunk?.data?.fields?.['goal'] as { status?: string } | undefined)?.status;
      expect(chunks.map((chunk) => [chunk.type, goalOf(chunk)])).toEqual([
        ['start', undefined],
        ['data-plan', 'active'],
        ['data-plan', 'paused'],
        ['finish', undefined],
      ]);
    });

    it('sends a part that clears the plan after a rollback to before it was set up, once', async () => {
      const session = new Session();
      const tools = createPlanningTools(session);
      const empty = session.snapshot();
      const { chunks, message } = await planUpdatesAround(major, session, async () => {
        // No plan yet: a rollback to no plan sends nothing.
        expect(session.rollback(empty).ok).toBe(true);
        await invokeTool(
          tools.planning_setup_plan,
          { objective: 'Ship', initial_steps: [{ title: 'Draft' }] },
          { session },
        );
        expect(session.rollback(empty).ok).toBe(true);
        expect(session.rollback(empty).ok).toBe(true);
      });
      expect(chunks.map((chunk) => [chunk.type, statuses(chunk.data)])).toEqual([
        ['start', undefined],
        ['data-plan', ['pending']],
        ['data-plan', undefined],
        ['finish', undefined],
      ]);
      expect(chunks[2]?.data).toBeNull();
      // The client's one part now holds null, which validates: the page shows no plan.
      const parts = message?.parts.filter((part) => part.type === 'data-plan') ?? [];
      expect(parts.map((part) => part.data)).toEqual([null]);
      const { planDataPartSchemas } = await import('../plan-data-part.ts');
      expect(planDataPartSchemas.plan.safeParse(null)).toEqual({ success: true, data: null });
    });

    it('through streamText: the plans go after start, in order, the newest before the last tool output', async () => {
      const session = new Session();
      const { chunks, plans, message } = await turn(major, session, undefined, script('c', 'Ship'));
      const states = [
        ['pending', 'pending'],
        ['done', 'pending'],
        ['done', 'in_progress'],
      ];
      // The model runs its tools ahead of the reader: changes it outpaces come as one part.
      const sent = plans.map((chunk) => statuses(chunk.data));
      const order = sent.map((s) => states.findIndex((state) => state.join() === s?.join()));
      expect(order.every((n, i) => n >= 0 && (i === 0 || n > (order[i - 1] as number)))).toBe(true);
      expect(order.at(-1)).toBe(2);
      expect(plans.every((chunk) => chunk.id === 'plankit-plan')).toBe(true);
      expect(chunks.findIndex((chunk) => chunk.type === 'start')).toBeLessThan(
        chunks.indexOf(plans[0] as Chunk),
      );
      const lastOutput = chunks.findIndex(
        (chunk) => chunk.type === 'tool-output-available' && chunk.toolCallId === 'c-3',
      );
      expect(chunks.indexOf(plans.at(-1) as Chunk)).toBeLessThan(lastOutput);
      // The client keeps one part, updated in place, holding the newest plan.
      const parts = message?.parts.filter((part) => part.type === 'data-plan') ?? [];
      expect(parts).toHaveLength(1);
      expect(parts[0]?.data).toEqual(plans.at(-1)?.data);
      expect(parts[0]?.data).toMatchObject({ kind: 'plankit.plan', objective: 'Ship' });
    });

    it('writes the current plan once at the start, and nothing for a turn that changes nothing', async () => {
      const session = new Session();
      await turn(major, session, undefined, script('a', 'Ship'));
      const { plans, message } = await turn(major, session, undefined, [], 'chat-1-plan');
      expect(plans.map((chunk) => [chunk.id, statuses(chunk.data)])).toEqual([
        ['chat-1-plan', ['done', 'in_progress']],
      ]);
      expect(message?.parts.filter((part) => part.type === 'data-plan')).toHaveLength(1);
      const none = await turn(major, new Session(), undefined, []);
      expect(none.plans).toEqual([]);
    });

    it('follows each conversation of a pool, across an eviction and reload', async () => {
      const pool = createSessionPool({ store: new MemoryStore(), max: 10 });
      const source = pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId);
      const [a, b] = await Promise.all([
        turn(major, source, { chatId: 'chat-a' }, script('a', 'Ship A')),
        turn(major, source, { chatId: 'chat-b' }, script('b', 'Ship B')),
      ]);
      expect(a.plans.length).toBeGreaterThan(0);
      expect(a.plans.every((chunk) => chunk.data?.objective === 'Ship A')).toBe(true);
      expect(b.plans.every((chunk) => chunk.data?.objective === 'Ship B')).toBe(true);
      expect(statuses(b.plans.at(-1)?.data)).toEqual(['done', 'in_progress']);
      expect((await pool.evict('chat-a')).ok).toBe(true);
      expect(pool.has('chat-a')).toBe(false);
      const again = await turn(major, source, { chatId: 'chat-a' }, [
        [toolCall('a-4', 'planning_mark_step', { step_id: 'S002', status: 'done' })],
      ]);
      // Loaded from the store: the plan at the start (unless the change outpaced the reader), then the change.
      expect(again.plans.every((chunk) => chunk.data?.objective === 'Ship A')).toBe(true);
      expect(again.plans.at(-1)?.data?.status).toBe('completed');
      await pool.close();
    });

    it('through streamText: a change after the model has answered goes out at once, once, before execute returns', async () => {
      const bus = new InProcessEventBus();
      const session = new Session({ bus });
      const planning = createPlanningTools(session);
      const tools = toAISDKTools(TOOLS, { session });
      const chunks: Chunk[] = [];
      const ended = signal();
      const stream = major.createUIMessageStream({
        execute: recording(
          chunks,
          withPlanUpdates({ session }, async ({ writer }) => {
            const result = setUpPlan(major, tools);
            writer.merge(result.toUIMessageStream());
            // The host goes on after the model (its own tool call, a slow step) and changes the
            // plan: the model's stream has sent its last chunk and may not have closed yet.
            await result.text;
            await invokeTool(
              planning.planning_mark_step,
              { step_id: 'S001', status: 'done' },
              { session },
            );
            await ended.promise;
            chunks.push(RETURNED);
          }),
          { end: ended.resolve },
        ),
      });
      const { read, message } = await readAll(major, stream);
      const tail = chunks.slice(chunks.findIndex((chunk) => chunk.type === 'finish'));
      expect(tail.map((chunk) => [chunk.type, statuses(chunk.data)])).toEqual([
        ['finish', undefined],
        ['data-plan', ['done', 'pending']],
        [RETURNED.type, undefined],
      ]);
      // The client gets it once, last, and keeps it as the message's one plan part.
      const done = read.filter((chunk) => statuses(chunk.data)?.join() === 'done,pending');
      expect(done).toHaveLength(1);
      expect(read.at(-1)).toBe(done[0]);
      const parts = message?.parts.filter((part) => part.type === 'data-plan') ?? [];
      expect(parts.map((part) => statuses(part.data as PlanView))).toEqual([['done', 'pending']]);
      // After the stream has closed nothing listens and nothing is written.
      const written = chunks.length;
      expect(commitListeners(bus)).toBe(0);
      await invokeTool(
        planning.planning_mark_step,
        { step_id: 'S002', status: 'done' },
        { session },
      );
      expect(chunks).toHaveLength(written);
    });

    it("through streamText: a change in the host's onFinish, after the last chunk, reaches the client before onFinish returns", async () => {
      const session = new Session();
      const planning = createPlanningTools(session);
      const tools = toAISDKTools(TOOLS, { session });
      const read: Chunk[] = [];
      let seen: Chunk[] | undefined;
      const isDone = (chunk: Chunk) => statuses(chunk.data)?.join() === 'done,pending';
      const stream = major.createUIMessageStream({
        execute: withPlanUpdates({ session }, ({ writer }) => {
          const result = setUpPlan(major, tools);
          writer.merge(
            result.toUIMessageStream({
              // The stream stays open until this returns (a slow save, say).
              onFinish: async () => {
                await invokeTool(
                  planning.planning_mark_step,
                  { step_id: 'S001', status: 'done' },
                  { session },
                );
                // Every hop from the writer to the client is a promise job: one turn runs them.
                await new Promise((resolve) => setImmediate(resolve));
                seen = read.filter(isDone);
              },
            }),
          );
        }),
      });
      const { message } = await readAll(major, stream, read);
      expect(seen).toHaveLength(1);
      expect(read.filter(isDone)).toHaveLength(1);
      expect(read.at(-1)).toEqual(seen?.[0]);
      expect(read.findIndex(isDone)).toBeGreaterThan(read.findIndex((c) => c.type === 'finish'));
      const parts = message?.parts.filter((part) => part.type === 'data-plan') ?? [];
      expect(parts.map((part) => statuses(part.data as PlanView))).toEqual([['done', 'pending']]);
    });

    it('a change goes out at once after a stream has finished only while no other merged stream is mid-answer', async () => {
      const { session, planning } = await twoStepPlan();
      const mark = (status: string) =>
        invokeTool(planning.planning_mark_step, { step_id: 'S001', status }, { session });
      // Every hop from a merged stream to the writer is a promise job: one turn runs them.
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      const chunks: Chunk[] = [];
      const seen = () => chunks.map((chunk) => [chunk.type, statuses(chunk.data)]);
      const snapshots: ReturnType<typeof seen>[] = [];
      const stream = major.createUIMessageStream({
        execute: recording(
          chunks,
          withPlanUpdates({ session }, async ({ writer }) => {
            const open = (): ReadableStreamDefaultController => {
              let controller!: ReadableStreamDefaultController;
              writer.merge(new ReadableStream({ start: (c) => (controller = c) }));
              return controller;
            };
            const first = open();
            const second = open();
            first.enqueue({ type: 'start' });
            first.enqueue({ type: 'finish' });
            await turn();
            second.enqueue({ type: 'start-step' });
            await turn();
            await mark('in_progress');
            await turn();
            snapshots.push(seen());
            second.enqueue({ type: 'finish-step' });
            second.enqueue({ type: 'finish' });
            await turn();
            await mark('done');
            await turn();
            snapshots.push(seen());
            first.close();
            second.close();
          }),
        ),
      });
      for await (const _ of stream as unknown as AsyncIterable<Chunk>);
      const opening = [
        ['start', undefined],
        ['data-plan', ['pending', 'pending']],
        ['finish', undefined],
        ['start-step', undefined],
      ];
      // The second stream is mid-answer: the change waits for its next chunk.
      expect(snapshots[0]).toEqual(opening);
      // Both have finished: the next change goes at once, though both are still open.
      expect(snapshots[1]).toEqual([
        ...opening,
        ['data-plan', ['in_progress', 'pending']],
        ['finish-step', undefined],
        ['finish', undefined],
        ['data-plan', ['done', 'pending']],
      ]);
      expect(seen()).toEqual(snapshots[1]);
    });

    for (const ending of ['ends', 'errors'] as const) {
      it(`a change held for a merged stream's next chunk goes out when the stream ${ending}, before execute returns`, async () => {
        const { session, planning } = await twoStepPlan();
        let model!: ReadableStreamDefaultController;
        const chunks: Chunk[] = [];
        const stepSeen = signal();
        const ended = signal();
        const stream = major.createUIMessageStream({
          execute: recording(
            chunks,
            withPlanUpdates({ session }, async ({ writer }) => {
              writer.merge(
                new ReadableStream({
                  start(controller) {
                    model = controller;
                  },
                }),
              );
              model.enqueue({ type: 'start' });
              model.enqueue({ type: 'start-step' });
              await stepSeen.promise;
              // The stream is open, so the change waits for its next chunk, which never comes.
              await invokeTool(
                planning.planning_mark_step,
                { step_id: 'S001', status: 'done' },
                { session },
              );
              if (ending === 'ends') model.close();
              else model.error(new Error('model down'));
              await ended.promise;
              chunks.push(RETURNED);
            }),
            {
              chunk: (chunk) => chunk.type === 'start-step' && stepSeen.resolve(),
              end: ended.resolve,
            },
          ),
          // A stream that errors ends here, when the writer reports it.
          onError: (error: unknown) => {
            ended.resolve();
            return (error as Error).message;
          },
        });
        const read: Chunk[] = [];
        const reader = stream.getReader();
        for (;;) {
          const next = await reader.read();
          if (next.done) break;
          read.push(next.value);
        }
        expect(chunks.map((chunk) => [chunk.type, statuses(chunk.data)])).toEqual([
          ['start', undefined],
          ['data-plan', ['pending', 'pending']],
          ['start-step', undefined],
          ['data-plan', ['done', 'pending']],
          [RETURNED.type, undefined],
        ]);
        expect(read.map((chunk) => [chunk.type, statuses(chunk.data)])).toEqual([
          ['start', undefined],
          ['data-plan', ['pending', 'pending']],
          ['start-step', undefined],
          ['data-plan', ['done', 'pending']],
          ...(ending === 'errors' ? [['error', undefined]] : []),
        ]);
      });
    }

    it('stops listening once the stream has ended', async () => {
      const bus = new InProcessEventBus();
      const session = new Session({ bus });
      const listeners = () => commitListeners(bus);
      expect(listeners()).toBe(0);
      await turn(major, session, undefined, script('c', 'Ship'));
      expect(listeners()).toBe(0);
      expect(session.dispatch(MarkStep, { step_id: 'S002', status: 'done', note: null }).ok).toBe(
        true,
      );
    });

    it('stops listening when execute throws, and the stream reports the error', async () => {
      const bus = new InProcessEventBus();
      const session = new Session({ bus });
      const tools = createPlanningTools(session);
      const listeners = () => commitListeners(bus);
      let during = -1;
      const chunks: Chunk[] = [];
      const stream = major.createUIMessageStream({
        execute: withPlanUpdates<PerMajor>({ session }, async ({ writer }) => {
          writer.write({ type: 'start' });
          await invokeTool(tools.planning_setup_plan, { objective: 'Ship' }, { session });
          during = listeners();
          throw new Error('model down');
        }),
        onError: (error: unknown) => (error as Error).message,
      });
      for await (const chunk of stream as unknown as AsyncIterable<Chunk>) chunks.push(chunk);
      expect(during).toBe(1);
      expect(listeners()).toBe(0);
      expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'data-plan', 'error']);
    });

    it('reports a conversation it cannot resolve as the stream error, before execute runs', async () => {
      const pool = createSessionPool({ store: new MemoryStore(), max: 10 });
      const source = pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId);
      let ran = false;
      const errors: unknown[] = [];
      const stream = major.createUIMessageStream({
        execute: withPlanUpdates({ session: source, context: {} }, () => {
          ran = true;
        }),
        onError: (error: unknown) => {
          errors.push(error);
          return 'no conversation';
        },
      });
      const chunks: Chunk[] = [];
      for await (const chunk of stream as unknown as AsyncIterable<Chunk>) chunks.push(chunk);
      expect(ran).toBe(false);
      expect(chunks).toEqual([{ type: 'error', errorText: 'no conversation' }]);
      expect(errors[0]).toMatchObject({ code: 'session_unresolved' });
      await pool.close();
    });

    it('validates stored data-plan parts with planDataPartSchemas, naming the field of a bad one', async () => {
      const { planDataPartSchemas } = await import('../plan-data-part.ts');
      const session = new Session();
      const { message } = await turn(major, session, undefined, script('c', 'Ship'));
      const stored = [{ id: 'm1', role: 'assistant', ...message }];
      const valid = await major.validateUIMessages({
        messages: stored,
        dataSchemas: planDataPartSchemas,
      });
      expect(
        valid[0].parts.find((p: { type: string }) => p.type === 'data-plan').data.counts,
      ).toEqual({ total: 2, done: 1, in_progress: 1, pending: 0, blocked: 0 });
      const edited = structuredClone(stored);
      const part = edited[0]?.parts?.find((p) => p.type === 'data-plan') as {
        data: { counts: object };
      };
      part.data.counts = { total: 2, done: 2, in_progress: 0, pending: 0, blocked: 0 };
      await expect(
        major.validateUIMessages({ messages: edited, dataSchemas: planDataPartSchemas }),
      ).rejects.toThrow('Plan view field counts.done must be 1, the number the steps give, not 2.');
    });

    it('streams a plan in any language (tools in Unicode mode) as set, and its stored part validates', async () => {
      const { planDataPartSchemas } = await import('../plan-data-part.ts');
      const session = new Session();
      const tools = toAISDKTools(createPlanningTools(session, { text: 'unicode' }), { session });
      const setup = toolCall('u-1', 'planning_setup_plan', {
        objective: UNICODE_OBJECTIVE,
        initial_steps: UNICODE_TITLES.map((title) => ({ title })),
      });
      const stream = major.createUIMessageStream({
        execute: withPlanUpdates({ session }, ({ writer }) => {
          writer.merge(
            major
              .streamText({
                model: scripted(major, [[setup]]),
                prompt: '計画して',
                tools,
                ...major.contextOptions(tools, undefined),
                stopWhen: major.stepCountIs(6),
              })
              .toUIMessageStream(),
          );
        }),
      });
      let message: { parts: { type: string; data?: unknown }[] } | undefined;
      for await (const snapshot of major.readUIMessageStream({ stream })) message = snapshot;
      const titles = (part: { data?: unknown } | undefined) =>
        (part?.data as PlanView | undefined)?.steps.map((step) => step.title);
      const part = message?.parts.find((p) => p.type === 'data-plan');
      expect((part?.data as PlanView | undefined)?.objective).toBe(UNICODE_OBJECTIVE);
      expect(titles(part)).toEqual(UNICODE_TITLES);
      // As a chat store keeps it: JSON text, read back and validated.
      const stored = JSON.parse(JSON.stringify([{ id: 'm1', role: 'assistant', ...message }]));
      const valid = await major.validateUIMessages({
        messages: stored,
        dataSchemas: planDataPartSchemas,
      });
      expect(titles(valid[0].parts.find((p: { type: string }) => p.type === 'data-plan'))).toEqual(
        UNICODE_TITLES,
      );
    });

    it('refuses bad options when the stream is set up', () => {
      const session = new Session();
      const run = () => undefined;
      for (const [options, message] of [
        [{ session, extra: 1 }, 'withPlanUpdates: options.extra is not an option'],
        [
          { session: 'x' },
          'withPlanUpdates: options.session must be a Session or a resolver function',
        ],
        [{ session, id: '' }, 'withPlanUpdates: options.id must be a string of 1-256 characters'],
      ] as const) {
        expect(() => withPlanUpdates(options as never, run)).toThrow(PlankitError);
        expect(() => withPlanUpdates(options as never, run)).toThrow(message);
      }
    });
  });
}
