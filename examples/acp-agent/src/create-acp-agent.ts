import { randomUUID } from 'node:crypto';
import { type AgentApp, agent, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
import { formatToolContent } from '@plankit/adapters';
import { createACPPlanBridge, toACPError } from '@plankit/adapters/acp';
import type { SessionPool } from '@plankit/adapters/sessions';
import { type AnyTool, Plan, selectLatest } from '@plankit/core';
import type { ModelToolOutcome, PlanningModel } from './planning-model.ts';

/** The SDK's error for a refusal of the bridge: `-32002` for a session this agent lacks. */
function requestError(error: Parameters<typeof toACPError>[0]): RequestError {
  const { code, message, data } = toACPError(error);
  return new RequestError(code, message, data);
}

/** Options of {@link createACPAgent}. */
export interface ACPAgentOptions {
  /** One plan per ACP session, keyed by the session id. */
  readonly pool: SessionPool;
  /** The planning tools the model may call. */
  readonly tools: readonly AnyTool[];
  readonly model: PlanningModel;
  /** The most model steps in one prompt turn; 20 by default. */
  readonly maxSteps?: number;
}

/** The agent, and what its tests wait on. */
export interface ACPAgent {
  /** The ACP agent app: `app.connect(ndJsonStream(...))` serves one connection. */
  readonly app: AgentApp;
  /** Prompt turns running now. */
  running(): number;
  /** Resolves once no prompt turn is running. */
  idle(): Promise<void>;
}

/**
 * An ACP agent whose plan is plankit's: `session/new` and `session/load` follow the session's
 * plan through the bridge (load also replays the whole plan), and `session/prompt` runs the
 * model, each planning call shown as a tool call. A `session/cancel`, or the client going away,
 * aborts the turn: no model step or tool call starts after it. A `session/prompt` naming a
 * session this agent never created or loaded, and a `session/load` of one the store holds
 * nothing under, are refused with `-32002` (Resource not found), changing nothing.
 */
export function createACPAgent(options: ACPAgentOptions): ACPAgent {
  const { pool, tools, model, maxSteps = 20 } = options;
  const bridge = createACPPlanBridge({ pool, tools });
  const cancels = new Map<string, AbortController>();
  let turns = 0;
  const wakeIdle: (() => void)[] = [];

  const app = agent({ name: 'plankit-acp-agent' })
    .onRequest('initialize', () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: { loadSession: true },
      agentInfo: { name: 'plankit-acp-agent', title: 'plankit planning agent', version: '0.3.0' },
    }))
    .onRequest('session/new', ({ client }) => {
      const sessionId = randomUUID();
      const followed = bridge.follow(client, sessionId);
      if (!followed.ok) throw requestError(followed.error);
      return { sessionId };
    })
    .onRequest('session/load', async ({ client, params }) => {
      // Replayed first: it refuses an id the store holds nothing under, before it is followed.
      const sent = await bridge.sendPlan(client, params.sessionId);
      if (!sent.ok) throw requestError(sent.error);
      const followed = bridge.follow(client, params.sessionId);
      if (!followed.ok) throw requestError(followed.error);
      return {};
    })
    .onNotification('session/cancel', ({ params }) => {
      cancels.get(params.sessionId)?.abort();
    })
    .onRequest('session/prompt', async ({ client, params, signal }) => {
      const { sessionId } = params;
      const open = bridge.checkSession(sessionId);
      if (!open.ok) throw requestError(open.error);
      cancels.get(sessionId)?.abort();
      const cancel = new AbortController();
      cancels.set(sessionId, cancel);
      // The request's signal aborts when the connection closes: a client gone mid-turn.
      const turn = AbortSignal.any([signal, cancel.signal]);
      const prompt = params.prompt.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      turns++;
      try {
        let outcomes: ModelToolOutcome[] = [];
        for (let step = 0; step < maxSteps; step++) {
          if (turn.aborted) return { stopReason: 'cancelled' as const };
          const got = await pool.get(sessionId);
          const plan = got.ok ? selectLatest(got.value, Plan) : undefined;
          const reply = await model.reply({ sessionId, prompt, plan, step, outcomes }, turn);
          if (turn.aborted) return { stopReason: 'cancelled' as const };
          if (reply.text !== '')
            await client.notify('session/update', {
              sessionId,
              update: {
                sessionUpdate: 'agent_message_chunk',
                content: { type: 'text', text: reply.text },
              },
            });
          if (reply.calls.length === 0) return { stopReason: 'end_turn' as const };
          outcomes = [];
          for (const call of reply.calls) {
            const result = await bridge.callTool(
              client,
              sessionId,
              { toolCallId: call.id, name: call.name, arguments: call.arguments },
              { signal: turn },
            );
            if (result === undefined) return { stopReason: 'cancelled' as const };
            const tool = tools.find((t) => t.name === call.name);
            outcomes.push({
              id: call.id,
              success: result.success,
              text: formatToolContent(result, tool),
            });
          }
        }
        return { stopReason: 'max_turn_requests' as const };
      } finally {
        if (cancels.get(sessionId) === cancel) cancels.delete(sessionId);
        turns--;
        if (turns === 0) for (const wake of wakeIdle.splice(0)) wake();
      }
    });

  return {
    app,
    running: () => turns,
    idle: () =>
      turns === 0 ? Promise.resolve() : new Promise<void>((wake) => void wakeIdle.push(wake)),
  };
}
