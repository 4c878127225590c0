import {
  createPlanningController,
  initialSnapshot,
  type MachineSnapshot,
  machineSnapshotFromJSON,
  type PlanningOutcome,
  type PlanningStage,
  parseApprovalReply,
  planningResult,
  renderMachineMermaid,
  transition,
} from '@plankit/controller';
import {
  type Budget,
  budgetFromJSON,
  createBudget,
  type PriceTable,
  reserveBudget,
  settleBudget,
  usageCost,
} from '@plankit/controller/budget';
import { classifyConfidence, compositeConfidence } from '@plankit/controller/policy';
import type { Result } from '@plankit/core';

const planningMachine = createPlanningController();

type Snapshot = MachineSnapshot<PlanningStage, PlanningOutcome>;

// An example price table, made up for this script: plankit ships no vendor prices.
const PRICES: PriceTable = {
  'example-model': { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
};
const MODEL = 'example-model';
const START = Date.UTC(2026, 0, 15, 9, 0);

/** What the scripted agent reports after working in a stage. */
interface AgentStep {
  readonly tool: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Drafts report scores that the controller turns into an outcome. */
  readonly scores?: { readonly llm: number; readonly rules: number; readonly heuristics: number };
  /** Validators report their verdict directly. */
  readonly verdict?: PlanningOutcome;
  readonly violations?: readonly string[];
  readonly reason?: string;
}

// The agent's answers, stage by stage, in order. The first outline fails validation once.
const SCRIPT: Partial<Record<PlanningStage, AgentStep[]>> = {
  COLLECT_CONTEXT: [
    {
      tool: 'context_elicitor',
      inputTokens: 900,
      outputTokens: 250,
      verdict: 'sufficient_context',
    },
  ],
  DRAFT_OUTLINE: [
    {
      tool: 'node_generator',
      inputTokens: 2400,
      outputTokens: 1100,
      scores: { llm: 0.86, rules: 0.8, heuristics: 0.7 },
    },
    {
      tool: 'node_generator',
      inputTokens: 2900,
      outputTokens: 1200,
      scores: { llm: 0.9, rules: 0.85, heuristics: 0.75 },
    },
    {
      tool: 'node_generator',
      inputTokens: 3100,
      outputTokens: 1250,
      scores: { llm: 0.88, rules: 0.9, heuristics: 0.8 },
      reason: 'Launch moved to May, as asked',
    },
  ],
  VALIDATE_OUTLINE: [
    {
      tool: 'grammar_validator',
      inputTokens: 1500,
      outputTokens: 200,
      verdict: 'invalid_retryable',
      violations: ['L1: milestone "Public beta" has no owner'],
    },
    { tool: 'grammar_validator', inputTokens: 1500, outputTokens: 150, verdict: 'valid' },
    { tool: 'grammar_validator', inputTokens: 1600, outputTokens: 150, verdict: 'valid' },
  ],
  DRAFT_ROADMAP: [
    {
      tool: 'roadmap_builder',
      inputTokens: 3000,
      outputTokens: 1400,
      scores: { llm: 0.82, rules: 0.9, heuristics: 0.6 },
    },
    {
      tool: 'roadmap_builder',
      inputTokens: 3200,
      outputTokens: 1400,
      scores: { llm: 0.84, rules: 0.9, heuristics: 0.65 },
    },
  ],
  VALIDATE_ROADMAP: [
    { tool: 'grammar_validator', inputTokens: 1800, outputTokens: 150, verdict: 'valid' },
    { tool: 'grammar_validator', inputTokens: 1800, outputTokens: 150, verdict: 'valid' },
  ],
  DRAFT_SCHEDULE: [
    {
      tool: 'schedule_generator',
      inputTokens: 3500,
      outputTokens: 1800,
      scores: { llm: 0.8, rules: 0.85, heuristics: 0.7 },
    },
    {
      tool: 'schedule_generator',
      inputTokens: 3600,
      outputTokens: 1800,
      scores: { llm: 0.81, rules: 0.85, heuristics: 0.7 },
    },
  ],
  VALIDATE_SCHEDULE: [
    { tool: 'portfolio_probe', inputTokens: 1200, outputTokens: 120, verdict: 'valid' },
    { tool: 'portfolio_probe', inputTokens: 1200, outputTokens: 120, verdict: 'valid' },
  ],
};

// What the person types when the plan is put in front of them.
const REPLIES = ['propose changes: move the public launch to May', 'Approve.'];

function ok<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function usd(amount: number): string {
  return `$${amount.toFixed(4)}`;
}

/** A draft's outcome from its confidence band, as the controller maps them. */
function draftOutcome(confidence: number): PlanningOutcome {
  const band = classifyConfidence(confidence);
  return band === 'continue'
    ? 'success'
    : band === 'retry'
      ? 'low_confidence'
      : 'needs_clarification';
}

/** Options of {@link runExample}. */
export interface ExampleOptions {
  /** Also print the full trace table and the controller's Mermaid diagram. */
  readonly verbose?: boolean | undefined;
}

/**
 * Drives `planningMachine` with a scripted agent, as a host would from its own loop: a
 * validation failure and retry, a rejected plan that is redrafted in a new run, then approval.
 * Every line of output goes to `print`: each transition and a summary, plus the trace and the
 * diagram with `verbose`.
 */
export function runExample(print: (line: string) => void, options: ExampleOptions = {}): Snapshot {
  let now = START;
  let snapshot: Snapshot = initialSnapshot(planningMachine, { now });
  let budget: Budget = createBudget({ now, timeZone: 'Europe/Berlin' });
  const attempts = new Map<PlanningStage, number>();
  const replies = [...REPLIES];
  print('Planning "Launch the v2 website" with the planning controller.');
  print('');

  while (snapshot.status !== 'done') {
    const stage = snapshot.state;
    if (snapshot.status === 'waiting') {
      const result = planningResult(snapshot);
      print(`-- ${stage}: planning_status=${result?.planning_status}`);
      print(`   response_text: ${result?.response_text}`);
      // The host stores both values as JSON and ends the request; the reply comes later, and
      // is handled by another process that reads them back.
      const stored = { controller: JSON.stringify(snapshot), budget: JSON.stringify(budget) };
      snapshot = ok(machineSnapshotFromJSON(planningMachine, stored.controller));
      budget = ok(budgetFromJSON(stored.budget));
      print(
        `   stored ${stored.controller.length + stored.budget.length} bytes of JSON; a later process reads them back`,
      );
      const text = replies.shift() ?? '';
      const reply = parseApprovalReply(text);
      print(`   reply ${JSON.stringify(text)} -> ${reply.outcome}`);
      now += 6 * 3600 * 1000;
      snapshot = ok(
        transition(planningMachine, snapshot, {
          outcome: reply.outcome,
          now,
          reason: reply.outcome === 'rejected' ? reply.changes : null,
        }),
      );
      continue;
    }

    const attempt = attempts.get(stage) ?? 0;
    attempts.set(stage, attempt + 1);
    const step = SCRIPT[stage]?.[attempt];
    if (step === undefined)
      throw new Error(`the script has no answer for ${stage} #${attempt + 1}`);

    // Estimate before the call (the most it can cost), settle the actual cost after.
    const callId = `call-${snapshot.counters.totalTurns + 1}`;
    const estimate = ok(
      usageCost(PRICES, { model: MODEL, inputTokens: step.inputTokens, outputTokens: 2000 }),
    );
    budget = ok(reserveBudget(budget, { id: callId, usd: estimate, now }));
    now += 2500;
    const cost = ok(
      usageCost(PRICES, {
        model: MODEL,
        inputTokens: step.inputTokens,
        outputTokens: step.outputTokens,
      }),
    );
    budget = ok(
      settleBudget(budget, {
        id: callId,
        usd: cost,
        tokens: step.inputTokens + step.outputTokens,
        now,
      }),
    );

    const confidence = step.scores === undefined ? null : compositeConfidence(step.scores);
    const outcome = step.verdict ?? draftOutcome(confidence ?? 0);
    snapshot = ok(
      transition(planningMachine, snapshot, {
        outcome,
        now,
        confidence,
        costUsd: cost,
        tokens: step.inputTokens + step.outputTokens,
        tool: { name: step.tool, args: { stage, attempt }, result: outcome },
        violations: step.violations,
        reason: step.reason ?? null,
      }),
    );
    const band =
      confidence === null
        ? ''
        : ` confidence ${confidence.toFixed(2)} (${classifyConfidence(confidence)})`;
    const signals = snapshot.signals.map((signal) => ` [${signal.type}]`).join('');
    print(`${stage} --${outcome}--> ${snapshot.state}${band} cost ${usd(cost)}${signals}`);
  }

  const result = planningResult(snapshot);
  print('');
  print(`planning_status=${result?.planning_status}: ${result?.response_text}`);
  print(
    `turns ${snapshot.counters.totalTurns} in ${snapshot.counters.run} runs, spent ${usd(budget.session.spentUsd)} of ${usd(budget.caps.costUsd ?? 0)}`,
  );
  if (options.verbose !== true) return snapshot;
  print('');
  print('Trace:');
  print(' # run stage              outcome             to                  conf  cost     note');
  for (const [index, entry] of snapshot.trace.entries()) {
    const note = entry.cap?.message ?? entry.reason ?? entry.violations.join('; ');
    print(
      [
        String(index + 1).padStart(2),
        String(entry.run).padStart(3),
        entry.from.padEnd(18),
        (entry.outcome ?? '-').padEnd(19),
        entry.to.padEnd(19),
        entry.confidence === null ? '  -  ' : entry.confidence.toFixed(2).padStart(5),
        usd(entry.cost_delta),
        note,
      ]
        .join(' ')
        .trimEnd(),
    );
  }
  print('');
  print('```mermaid');
  print(renderMachineMermaid(planningMachine).trimEnd());
  print('```');
  return snapshot;
}
