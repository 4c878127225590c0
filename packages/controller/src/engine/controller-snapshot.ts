import { defineDataType } from '@plankit/core';
import * as z from 'zod';
import { storedCount, storedTime, storedUsd } from '../internal/stored-numbers.ts';
import type { INTRODUCED_BY } from './adaptation-log-entry.ts';
import type { CAP_NAMES } from './default-caps.ts';
import { EVENT_LIMITS } from './internal/normalize-event.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import type { TraceEntry } from './trace-entry.ts';

const name = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/);
const count = storedCount;
const time = storedTime;
const usd = storedUsd;
const unit = z.number().min(0).max(1);
const text = z.string().max(EVENT_LIMITS.text);
const capName = z.enum([
  'wallTimeMs',
  'costUsd',
  'tokens',
  'turns',
  'stall',
  'retries',
]) satisfies z.ZodType<(typeof CAP_NAMES)[number]>;
const violations = z
  .array(z.string().min(1).max(EVENT_LIMITS.violation))
  .max(EVENT_LIMITS.violations);

const caps = z.strictObject({
  turns: count.nullable(),
  retries: count.nullable(),
  wallTimeMs: count.nullable(),
  costUsd: usd.nullable(),
  tokens: count.nullable(),
  stall: count.min(2).nullable(),
});
const soft = z.strictObject({ turns: count.min(1).nullable(), costUsd: usd.nullable() });

const signal = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('wrap_up'),
    limit: z.enum(['turns', 'costUsd']),
    value: z.number().min(0),
    threshold: z.number().min(0),
  }),
  z.strictObject({
    type: z.literal('cap_reached'),
    cap: capName,
    action: z.enum(['goto', 'freeze']),
    target: name.nullable(),
  }),
  z.strictObject({ type: z.literal('stalled'), tool: z.string().min(1).max(128), repeats: count }),
]);

const pending = z.strictObject({
  outcome: name,
  confidence: unit.nullable(),
  violations,
  reason: text.nullable(),
});

/** The schema of one trace entry, for replay. */
export const TraceEntrySchema: z.ZodType<TraceEntry> = z.strictObject({
  kind: z.enum(['outcome', 'cap', 'resume']),
  at: time,
  run: count.min(1),
  stage: name,
  outcome: name.nullable(),
  from: name,
  to: name,
  status: z.enum(['running', 'waiting', 'frozen', 'done']),
  tool: z.string().min(1).max(EVENT_LIMITS.toolName).nullable(),
  tool_signature: z
    .string()
    .regex(/^[0-9a-f]{14}$/)
    .nullable(),
  duration_ms: z.number().finite().min(0),
  confidence: unit.nullable(),
  cost_delta: usd,
  tokens: count,
  violations,
  adaptations: z
    .array(
      z.strictObject({
        at: time,
        stage: name,
        kind: z.string().min(1).max(EVENT_LIMITS.adaptationKind),
        summary: z.string().min(1).max(EVENT_LIMITS.text),
        introduced_by: z.enum(['system', 'user_feedback', 'ai_adaptation']) satisfies z.ZodType<
          (typeof INTRODUCED_BY)[number]
        >,
      }),
    )
    .max(EVENT_LIMITS.adaptations),
  reason: text.nullable(),
  cap: z
    .strictObject({
      name: capName,
      action: z.enum(['route', 'goto', 'freeze']),
      limit: z.number().min(0).nullable(),
      value: z.number().min(0).nullable(),
      message: z.string().max(4 * EVENT_LIMITS.text),
    })
    .nullable(),
  caps: caps.nullable(),
  soft: soft.nullable(),
  signals: z.array(signal).max(8),
});

const schema = z.strictObject({
  format: z.literal('plankit.machine-snapshot'),
  version: z.literal(1),
  machine: z.string().regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,127}$/),
  state: name,
  status: z.enum(['running', 'waiting', 'frozen', 'done']),
  caps,
  soft,
  counters: z.strictObject({
    run: count.min(1),
    turns: count,
    retries: z.record(name, count),
    elapsedMs: z.number().finite().min(0),
    totalTurns: count,
    costUsd: usd,
    tokens: count,
  }),
  stall: z.strictObject({
    tool: z.string().min(1).max(EVENT_LIMITS.toolName).nullable(),
    signature: z
      .string()
      .regex(/^[0-9a-f]{14}$/)
      .nullable(),
    count,
  }),
  frozen: z
    .strictObject({
      cap: capName,
      message: z.string().max(4 * EVENT_LIMITS.text),
      at: time,
      pending: pending.nullable(),
    })
    .nullable(),
  startedAt: time,
  updatedAt: time,
  signals: z.array(signal).max(8),
  trace: z.array(TraceEntrySchema),
});

/**
 * The data type of machine snapshots (`plankit.controller.MachineSnapshot`), for keeping a
 * controller in a core `Session` slice: `snapshotFromJSON` then checks the snapshot's shape
 * when it reads the session back. The checks that need the machine itself happen when the
 * snapshot is next used, or in {@link machineSnapshotFromJSON}.
 *
 * @public
 */
export const ControllerSnapshot: z.ZodType<MachineSnapshot> = defineDataType(
  'plankit.controller.MachineSnapshot',
  schema,
);
