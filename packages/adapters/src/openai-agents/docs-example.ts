import {
  Agent,
  type AgentOutputItem,
  type Model,
  type RunContext,
  Runner,
  RunState,
  Usage,
} from '@openai/agents';
import { planningApprovalCheckpoint, toOpenAIAgentsTools } from '@plankit/adapters/openai-agents';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { approvalRequired, InteractionPolicy } from '@plankit/controller/policy';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';

interface Chat {
  readonly conversationId: string;
}

// One session per conversation, loaded from and saved to a store (FileStore or PostgresStore
// in production).
const pool = createSessionPool({ store: new MemoryStore() });
const policy = InteractionPolicy.parse({ approval_policy: 'milestone_approvals' });
const tools = toOpenAIAgentsTools<Chat>(createPlanningTools(new Session()), {
  session: pool.resolver((run: RunContext<Chat>) => run.context.conversationId),
  // Under milestone_approvals, clearing the plan waits for a person: the tool's plan trait
  // places it at the milestone checkpoint.
  needsApproval: ({ tool }) => {
    const checkpoint = planningApprovalCheckpoint(tool);
    return checkpoint !== undefined && approvalRequired(policy, checkpoint);
  },
});

// Stands in for your model: two calls in one response, then a clear, then an answer.
const call = (callId: string, name: string, args: object): AgentOutputItem => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(args),
});
const replies = [
  [
    call('c1', 'planning_setup_plan', { objective: 'Ship v2', initial_steps: [{ title: 'Tag' }] }),
    call('c2', 'planning_mark_step', { step_id: 'S001', status: 'done', note: null }),
  ],
  [call('c3', 'planning_clear_plan', {})],
];
const model: Model = {
  getResponse: async () => {
    const calls = replies.shift();
    const text: AgentOutputItem = {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Done.' }],
    };
    return { usage: new Usage(), output: calls ?? [text] };
  },
  getStreamedResponse: () => {
    throw new Error('not streamed');
  },
};

const agent = new Agent<Chat>({ name: 'planner', model, tools });
const first = await new Runner().run(agent, 'Plan the release.', {
  context: { conversationId: 'chat-1' },
});
console.log(`waiting for: ${first.interruptions.map((item) => item.name).join(', ')}`);

// Later, maybe in another process: restore the run and approve.
const state = await RunState.fromString(agent, first.state.toString());
for (const item of state.getInterruptions()) state.approve(item);
const resumed = await new Runner().run(agent, state);
console.log(resumed.finalOutput);
const plan = await pool.get('chat-1');
if (plan.ok) console.log(`plan: ${selectLatest(plan.value, Plan)?.status}`);
await pool.close();
