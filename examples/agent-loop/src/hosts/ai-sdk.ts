import { AISDKToolError, type AISDKToolOutput, toAISDKTools } from '@plankit/adapters/ai-sdk';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { CallReport, DriverContext, ModelDriver, TurnReport } from '../planning-job.ts';
import { ScriptedModel } from '../scripted-model.ts';

/**
 * A Vercel AI SDK loop: `generateText` runs the tool calls of each stage in its own
 * multi-step loop, in the model's order; refusals come back as tool errors. The model is the AI SDK's mock language model replaying the script (a live
 * model needs a provider package, which this example does not install).
 */
export function createAISDKDriver(context: DriverContext): ModelDriver {
  const script = new ScriptedModel();
  let call = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const reply = script.reply();
      const usage = {
        inputTokens: {
          total: reply.usage.inputTokens,
          noCache: reply.usage.inputTokens,
          cacheRead: 0,
          cacheWrite: 0,
        },
        outputTokens: {
          total: reply.usage.outputTokens,
          text: reply.usage.outputTokens,
          reasoning: 0,
        },
      };
      if ('text' in reply)
        return {
          content: [{ type: 'text', text: reply.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      const content = reply.calls.map((scripted) => ({
        type: 'tool-call' as const,
        toolCallId: `call_${++call}`,
        toolName: scripted.name,
        input: JSON.stringify(scripted.args),
      }));
      return {
        content,
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  const tools = toAISDKTools(context.tools, { session: context.session });
  const history: ModelMessage[] = [];

  return {
    host: 'ai-sdk',
    model: 'scripted',
    live: false,
    async turn(instruction): Promise<TurnReport> {
      script.begin(instruction);
      history.push({ role: 'user', content: instruction });
      const result = await generateText({
        model,
        system: context.system,
        messages: history,
        tools,
        stopWhen: stepCountIs(8),
      });
      history.push(...result.response.messages);
      const calls: CallReport[] = [];
      for (const step of result.steps) {
        context.tick();
        // A refusal is a tool-error part (an AISDKToolError), a success a tool-result part;
        // the step's content keeps them in the model's order.
        for (const part of step.content) {
          if (part.type === 'tool-result') {
            const output = part.output as AISDKToolOutput;
            calls.push({ tool: part.toolName, success: true, message: output.result.message });
          } else if (part.type === 'tool-error') {
            calls.push({
              tool: part.toolName,
              success: false,
              message: AISDKToolError.isInstance(part.error)
                ? part.error.message
                : String(part.error),
            });
          }
        }
      }
      const usage = result.steps.map((step) => ({
        inputTokens: step.usage.inputTokens ?? 0,
        outputTokens: step.usage.outputTokens ?? 0,
      }));
      return { calls, text: result.text, usage };
    },
    async close() {
      if (script.remaining() > 0)
        throw new Error(
          `The script still has ${script.remaining()} replies: the loop ended early.`,
        );
    },
  };
}
