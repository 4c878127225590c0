import {
  APPROVAL_CTA,
  ControllerSnapshot,
  createPlanningController,
  initialSnapshot,
  type MachineSnapshot,
  type PlanningOutcome,
  type PlanningStage,
  parseApprovalReply,
  planningResult,
  registerControllerReducers,
  transition,
} from '@plankit/controller';
import {
  type Budget,
  BudgetState,
  createBudget,
  type PriceTable,
  registerBudgetReducers,
  reserveBudget,
  settleBudget,
  usageCost,
} from '@plankit/controller/budget';
import {
  isPlanFinished,
  Plan,
  type PlanningTools,
  renderPlan,
  type Session,
  selectLatest,
} from '@plankit/core';
import {
  MarkdownSection,
  PlanningStrategy,
  PlanningToolsSection,
  Prompt,
  renderPlanReminder,
} from '@plankit/prompt';

const planningMachine = createPlanningController();

/** One tool call a model made during a turn, as the job reports it. */
export interface CallReport {
  readonly tool: string;
  readonly success: boolean;
  readonly message: string;
}

/** What one stage's model turn did: every call, the final text, and the tokens of each response. */
export interface TurnReport {
  readonly calls: readonly CallReport[];
  readonly text: string;
  readonly usage: readonly { readonly inputTokens: number; readonly outputTokens: number }[];
}

/** A host's model, driven one stage at a time; it keeps its own message history. */
export interface ModelDriver {
  /** `openai`, `anthropic`, ... */
  readonly host: string;
  /** The model id, for the price table. */
  readonly model: string;
  /** Whether a real API answers, or a scripted model replays a transcript. */
  readonly live: boolean;
  /** Sends the stage instruction and runs tool calls until the model answers in text. */
  turn(instruction: string): Promise<TurnReport>;
  /** Releases what the driver holds (servers, connections). */
  close(): Promise<void>;
}

/** What a driver is built from. */
export interface DriverContext {
  readonly session: Session;
  readonly tools: PlanningTools;
  readonly system: string;
  /** Moves the job's clock on after each model response (a fixed step when replaying). */
  readonly tick: () => void;
}

/** Example prices, for the demo only: plankit bakes no vendor prices into code (see docs/controller.md). */
export const EXAMPLE_PRICES: PriceTable = {
  'gpt-4.1': { usdPerMillionInput: 2, usdPerMillionOutput: 8 },
  'claude-sonnet-5-5': { usdPerMillionInput: 3, usdPerMillionOutput: 15 },
  scripted: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
};

const INSTRUCTIONS: Partial<Record<PlanningStage, string>> = {
  COLLECT_CONTEXT:
    'Stage COLLECT_CONTEXT: in one or two sentences, say what you know about the release. Ask a question only if something essential is missing. Do not call tools yet.',
  DRAFT_OUTLINE:
    'Stage DRAFT_OUTLINE: set up the plan with planning_setup_plan: the objective and three initial steps.',
  DRAFT_ROADMAP:
    'Stage DRAFT_ROADMAP: add the remaining steps with planning_add_step and make titles precise with planning_update_step. Then say in one sentence that the roadmap is complete.',
  DRAFT_SCHEDULE:
    'Stage DRAFT_SCHEDULE: carry the steps out in order, marking each with planning_mark_step (in_progress, then done, with a short note where useful) until every step is done. Then say so in one sentence.',
};

/** Builds the system prompt and the tools a driver hands its model. */
export function planningPrompt(
  session: Session,
  objective: string,
): { system: string; planning: PlanningToolsSection } {
  const role = new MarkdownSection<{ objective: string }>({
    title: 'Role',
    key: 'role',
    template: `
      You are a release-planning agent. The objective: \${objective}.
      A controller moves you through stages; each user message names the stage and what to do in it.`,
  });
  const planning = new PlanningToolsSection({
    session,
    strategy: PlanningStrategy.PLAN_ACT_REFLECT,
    inProgress: 'single',
  });
  const prompt = new Prompt({
    ns: 'examples',
    key: 'release-planner',
    name: 'release-planner',
    sections: [role, planning],
  });
  return { system: prompt.render({ role: { objective } }).markdown, planning };
}

/** Options of {@link runPlanningJob}. */
export interface PlanningJobOptions {
  readonly driver: ModelDriver;
  readonly session: Session;
  readonly print: (line: string) => void;
  readonly clock: () => number;
  /** What the person answers at SEEK_APPROVAL. */
  readonly approvalReply: string;
  readonly prices?: PriceTable | undefined;
}

/** What {@link runPlanningJob} leaves behind. */
export interface PlanningJobResult {
  readonly snapshot: MachineSnapshot<PlanningStage, PlanningOutcome>;
  readonly budget: Budget;
  readonly plan: Plan | undefined;
}

/** `add_step ok, update_step refused, mark_step ok x4`: consecutive identical calls counted once. */
function summarise(calls: readonly CallReport[]): string {
  const parts: { label: string; count: number }[] = [];
  for (const call of calls) {
    const label = `${call.tool.replace('planning_', '')} ${call.success ? 'ok' : 'refused'}`;
    const last = parts.at(-1);
    if (last?.label === label) last.count++;
    else parts.push({ label, count: 1 });
  }
  return (
    parts.map(({ label, count }) => (count === 1 ? label : `${label} x${count}`)).join(', ') || '-'
  );
}

const money = (usd: number) => `$${usd.toFixed(4)}`;
const pad = (text: string, width: number) =>
  text.length >= width ? `${text} ` : text.padEnd(width);

/** The host's own checks of the validation stages: the controller only routes their outcomes. */
function validate(
  stage: PlanningStage,
  plan: Plan | undefined,
): { outcome: PlanningOutcome; note: string } {
  const steps = plan?.steps ?? [];
  switch (stage) {
    case 'VALIDATE_OUTLINE':
      return steps.length >= 3
        ? { outcome: 'valid', note: `host check: ${steps.length} steps` }
        : { outcome: 'invalid_retryable', note: `host check: ${steps.length} steps, need 3` };
    case 'VALIDATE_ROADMAP': {
      const unique = new Set(steps.map((step) => step.title)).size === steps.length;
      return steps.length >= 5 && unique
        ? { outcome: 'valid', note: `host check: ${steps.length} distinct steps` }
        : { outcome: 'invalid_retryable', note: 'host check: need 5 distinct steps' };
    }
    case 'VALIDATE_SCHEDULE':
      return isPlanFinished(plan) && plan?.status === 'completed'
        ? { outcome: 'valid', note: 'host check: every step done' }
        : { outcome: 'invalid_retryable', note: 'host check: open steps remain' };
    default:
      throw new Error(`${stage} is not a validation stage`);
  }
}

/**
 * Runs the planning controller to a final state: model stages go to the driver, validation
 * stages to the host's checks, approval to a person; every model stage reserves budget first
 * and settles the real cost after.
 */
export async function runPlanningJob(options: PlanningJobOptions): Promise<PlanningJobResult> {
  const { driver, session, print, clock, approvalReply } = options;
  const prices = options.prices ?? EXAMPLE_PRICES;
  const live = driver.live;
  let snapshot = initialSnapshot(planningMachine, {
    now: clock(),
    caps: live ? { wallTimeMs: 600_000 } : undefined,
  });
  let budget = createBudget({ now: clock(), timeZone: 'UTC' });
  // The controller and the budget ride in the session, so one saved session holds the whole job.
  registerControllerReducers(session);
  registerBudgetReducers(session);
  const keep = () => {
    for (const stored of [
      session.dispatch(ControllerSnapshot, snapshot),
      session.dispatch(BudgetState, budget),
    ]) {
      if (!stored.ok) throw stored.error;
    }
  };
  keep();
  print(`${pad('stage', 18)}${pad('calls', 62)}${pad('outcome', 20)}cost`);

  for (let guard = 0; snapshot.status === 'running' || snapshot.status === 'waiting'; guard++) {
    if (guard > 40) throw new Error('the job did not settle');
    const stage = snapshot.state;
    const instruction = INSTRUCTIONS[stage];
    let outcome: PlanningOutcome;
    let calls = '';
    let costUsd = 0;
    let tokens = 0;
    let tool: string | null = null;
    let reason: string | null = null;
    // Printed under the stage's row once the row is out, so each line sits with its stage.
    const details: string[] = [];
    if (instruction !== undefined) {
      const reservation = `turn-${guard}`;
      const reserved = reserveBudget(budget, {
        id: reservation,
        usd: 0.05,
        turn: stage,
        now: clock(),
      });
      if (!reserved.ok) {
        print(`budget refused the turn: ${reserved.error.message}`);
        break;
      }
      budget = reserved.value;
      const reminder = renderPlanReminder(selectLatest(session, Plan));
      const report = await driver.turn(
        reminder === undefined ? instruction : `${instruction}\n\n${reminder}`,
      );
      for (const usage of report.usage) {
        const cost = usageCost(prices, { model: driver.model, ...usage });
        if (!cost.ok) throw cost.error;
        costUsd += cost.value;
        tokens += usage.inputTokens + usage.outputTokens;
      }
      const settled = settleBudget(budget, { id: reservation, usd: costUsd, tokens, now: clock() });
      if (!settled.ok) throw settled.error;
      budget = settled.value;
      calls = summarise(report.calls);
      for (const call of report.calls)
        if (!call.success) details.push(`  ! ${call.tool}: ${call.message}`);
      tool = report.calls.at(-1)?.tool ?? null;
      const succeeded = report.calls.some((call) => call.success);
      if (stage === 'COLLECT_CONTEXT')
        outcome = report.text.trim().endsWith('?') ? 'needs_clarification' : 'sufficient_context';
      else outcome = succeeded ? 'success' : 'low_confidence';
      if (outcome === 'needs_clarification') reason = report.text.trim();
    } else if (stage === 'SEEK_APPROVAL') {
      const plan = selectLatest(session, Plan);
      details.push(
        `  ? ${APPROVAL_CTA}\n${plan === undefined ? '' : renderPlan(plan).replace(/^(?=.)/gm, '    ')}`,
      );
      const reply = parseApprovalReply(approvalReply);
      calls = `(scripted person replied: ${approvalReply})`;
      outcome = reply.outcome;
      if (reply.outcome === 'rejected') reason = reply.changes;
    } else {
      const checked = validate(stage, selectLatest(session, Plan));
      outcome = checked.outcome;
      calls = `(${checked.note})`;
    }
    const next = transition(planningMachine, snapshot, {
      outcome,
      now: clock(),
      costUsd,
      tokens,
      tool,
      reason,
    });
    if (!next.ok) throw next.error;
    snapshot = next.value;
    keep();
    print(`${pad(stage, 18)}${pad(calls, 62)}${pad(outcome, 20)}${money(costUsd)}`);
    for (const line of details) print(line);
  }

  const result = planningResult(snapshot);
  print(
    `\nController: ${snapshot.state} after ${snapshot.counters.totalTurns} turns, ${money(budget.session.spentUsd)} ${live ? 'spent' : 'at example prices (nothing billed)'} of ${money(budget.caps.costUsd ?? 0)}.`,
  );
  if (result !== null) print(`planning_status: ${result.planning_status}; ${result.response_text}`);
  const plan = selectLatest(session, Plan);
  if (plan !== undefined) print(`\nFinal plan:\n${renderPlan(plan)}`);
  return { snapshot, budget, plan };
}
