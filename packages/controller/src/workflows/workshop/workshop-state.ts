import { defineDataType } from '@plankit/core';
import * as z from 'zod';
import { ControllerSnapshot, TraceEntrySchema } from '../../engine/controller-snapshot.ts';
import type { MachineSnapshot } from '../../engine/machine-snapshot.ts';
import type { TraceEntry } from '../../engine/trace-entry.ts';
import { storedCount } from '../../internal/stored-numbers.ts';
import type { WorkshopOutcome, WorkshopStage } from './workshop-machine.ts';

/** One entry of the meeting transcript (`planning/meeting.jsonl`). @public */
export interface TranscriptEntry {
  /** The round it was said in. */
  readonly round: number;
  /** Who said it: `planner`, `user`, `critic`... */
  readonly actor: string;
  /** The state the round was held in. */
  readonly phase: WorkshopStage;
  /** What was said. */
  readonly content: string;
}

/** A planning output and its text. @public */
export interface WorkshopArtifact {
  /** Its file name, one of the configured artifacts. */
  readonly name: string;
  /** Its text. */
  readonly content: string;
}

/** What a redo kept of the attempt it ended. @public */
export interface RedoSnapshot {
  /** The attempt it ended, from 1. */
  readonly attempt: number;
  /** When, in epoch milliseconds. */
  readonly at: number;
  /** The round counter at the time. */
  readonly round: number;
  /** The state the attempt had reached. */
  readonly stage: WorkshopStage;
  /** Why, or null. */
  readonly reason: string | null;
  /** The artifacts it had written. */
  readonly artifacts: readonly WorkshopArtifact[];
  /** Its machine trace. */
  readonly trace: readonly TraceEntry<WorkshopStage, WorkshopOutcome>[];
}

/**
 * A planning workshop: deeply frozen plain JSON, safe to store and to resume in
 * another process with `workshopFromJSON`. Also a core data type (`plankit.controller.Workshop`).
 *
 * @public
 */
export interface WorkshopState {
  /** Always `plankit.workshop`. */
  readonly format: 'plankit.workshop';
  /** The format version, 1. */
  readonly version: 1;
  /** The workshop machine's snapshot, for the current attempt. */
  readonly machine: MachineSnapshot<WorkshopStage, WorkshopOutcome>;
  /** What is to be planned. */
  readonly brief: string;
  /** The configured artifacts, all required for `review_ready`. */
  readonly artifactNames: readonly string[];
  /** The artifacts written in this attempt, in configured order. */
  readonly artifacts: readonly WorkshopArtifact[];
  /** Rounds held so far, never reset. */
  readonly round: number;
  /** The attempt, from 1: one more per redo. */
  readonly attempt: number;
  /** The meeting transcript since the last archive, oldest first. */
  readonly transcript: readonly TranscriptEntry[];
  /** How many entries were explicitly archived. */
  readonly archivedEntries: number;
  /** What each redo kept, oldest first. */
  readonly redos: readonly RedoSnapshot[];
  /** What blocked the last formalizing round; empty otherwise. */
  readonly problems: readonly string[];
  /** When the workshop started, in epoch milliseconds. */
  readonly startedAt: number;
  /** When the last step happened, in epoch milliseconds. */
  readonly updatedAt: number;
}

/** The planning outputs: the JSON plan, its markdown projection, the file plan. @public */
export const DEFAULT_WORKSHOP_ARTIFACTS: readonly string[] = Object.freeze([
  'planning.ai.json',
  'plan.md',
  'plan.files.json',
]);

/** Limits of the workshop's inputs. */
export const WORKSHOP_LIMITS: {
  readonly brief: number;
  readonly content: number;
  readonly actor: number;
  readonly entries: number;
  readonly artifact: number;
} = Object.freeze({
  brief: 100_000,
  content: 100_000,
  actor: 64,
  entries: 100,
  artifact: 1_048_576,
});

const count = storedCount;
const time = z.number().finite();
const stage = z.enum(['draft', 'clarifying', 'workshop', 'formalizing', 'review_ready']);
const name = z.string().min(1).max(256);
const artifact = z.strictObject({ name, content: z.string().max(WORKSHOP_LIMITS.artifact) });

const schema = z.strictObject({
  format: z.literal('plankit.workshop'),
  version: z.literal(1),
  machine: ControllerSnapshot,
  brief: z.string().min(1).max(WORKSHOP_LIMITS.brief),
  artifactNames: z.array(name).min(1).max(20),
  artifacts: z.array(artifact).max(20),
  round: count,
  attempt: count.min(1),
  transcript: z.array(
    z.strictObject({
      round: count.min(1),
      actor: z.string().min(1).max(WORKSHOP_LIMITS.actor),
      phase: stage,
      content: z.string().min(1).max(WORKSHOP_LIMITS.content),
    }),
  ),
  archivedEntries: count,
  redos: z.array(
    z.strictObject({
      attempt: count.min(1),
      at: time,
      round: count,
      stage,
      reason: z.string().max(2000).nullable(),
      artifacts: z.array(artifact).max(20),
      trace: z.array(TraceEntrySchema),
    }),
  ),
  problems: z.array(z.string().max(2000)).max(1000),
  startedAt: time,
  updatedAt: time,
});

/**
 * Schema of {@link WorkshopState}, and the data type of a workshop kept in a session slice.
 * It checks the shape; `workshopFromJSON` also checks the machine snapshot and the invariants.
 *
 * @public
 */
export const WorkshopState: z.ZodType<WorkshopState> = defineDataType(
  'plankit.controller.Workshop',
  // The machine snapshot's states and outcomes are checked against the machine when read.
  schema as unknown as z.ZodType<WorkshopState>,
);
