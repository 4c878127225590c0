import { clipText } from '../../internal/refusal-text.ts';

/** The longest agent id (step owner) plankit accepts. @public */
export const MAX_AGENT_ID = 64;

// Letters, digits and a few separators, starting with a letter or digit: no spaces or
// control characters (which would forge lines in rendered plans), and nothing like
// `__proto__` that could collide with object keys in a host's code.
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/+-]*$/;

/** The rule an agent id must follow, as refusals state it. @internal */
export const AGENT_ID_RULE: string = `must be 1-${MAX_AGENT_ID} characters (letters, digits and . _ : @ / + -), starting with a letter or digit`;

/**
 * Why `value` is not a valid agent id (a step owner), or undefined when it is. Linear in at
 * most {@link MAX_AGENT_ID} characters, whatever the input's length. @internal
 */
export function agentIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0 || value.length > MAX_AGENT_ID || !AGENT_ID.test(value))
    return AGENT_ID_RULE;
  return undefined;
}

/** `value` quoted and clipped for a refusal message. @internal */
export function quotedAgentId(value: unknown): string {
  return JSON.stringify(clipText(String(value), 80));
}
