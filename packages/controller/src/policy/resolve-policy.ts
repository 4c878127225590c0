import type { Result } from '@plankit/core';
import { formatPath, isRecord } from '@plankit/core/internal-unstable';
import * as z from 'zod';
import { ControllerError } from '../controller-error.ts';
import { keyText, unknownKey } from '../internal/checks.ts';
import { issueRule } from '../internal/read-document.ts';
import {
  DEFAULT_INTERACTION_POLICY,
  type InteractionPolicy,
  POLICY_FIELDS,
} from './interaction-policy.ts';

/** The two stored layers of a policy, over the library's defaults. @public */
export interface PolicyLayers {
  /** The user's long-term defaults (kept in the user's memory). */
  readonly defaults?: Partial<InteractionPolicy> | null | undefined;
  /** This session's override, such as "be brief today" (`GraphState.interaction_policy`). */
  readonly override?: Partial<InteractionPolicy> | null | undefined;
}

const partial = z.strictObject(POLICY_FIELDS).partial();
const LAYERS: ReadonlySet<string> = new Set(['defaults', 'override']);

function invalid(field: string, rule: string): { ok: false; error: ControllerError } {
  return {
    ok: false,
    error: new ControllerError('policy_invalid', `resolvePolicy: ${field} ${rule}.`, { field }),
  };
}

/**
 * The policy in force: the library defaults, then the user's long-term defaults, then the
 * session override. Each layer is a partial policy; `null` or absent layers are skipped.
 *
 * @returns the frozen policy, or a {@link ControllerError} `policy_invalid` naming the layer
 *   and field (`override.talkativeness`) for an unknown key or a bad value
 * @example
 * ```ts
 * const policy = resolvePolicy({ defaults: user.policy, override: { conversation_style: 'concise' } });
 * ```
 * @public
 */
export function resolvePolicy(
  layers: PolicyLayers = {},
): Result<InteractionPolicy, ControllerError> {
  if (!isRecord(layers)) return invalid('layers', 'must be an object');
  const extra = unknownKey(layers, LAYERS);
  if (extra !== undefined) return invalid(extra, 'is not a policy layer (defaults or override)');
  let policy: InteractionPolicy = DEFAULT_INTERACTION_POLICY;
  for (const layer of ['defaults', 'override'] as const) {
    const value = layers[layer];
    if (value === undefined || value === null) continue;
    const parsed = partial.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue === undefined ? '' : formatPath(issue.path, keyText);
      const key = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const field =
        key !== undefined ? `${layer}.${keyText(key)}` : path === '' ? layer : `${layer}.${path}`;
      const rule = key !== undefined ? 'is not a policy slider' : issueRule(issue);
      return invalid(field, rule);
    }
    const next: Record<string, unknown> = { ...policy };
    for (const [key, slider] of Object.entries(parsed.data))
      if (slider !== undefined) next[key] = slider;
    policy = next as unknown as InteractionPolicy;
  }
  return { ok: true, value: Object.freeze({ ...policy }) };
}

const complete = z.strictObject(POLICY_FIELDS);

/** Checks a complete policy for a gating helper; throws `argument_invalid` naming the field. */
export function checkPolicy(where: string, policy: unknown): InteractionPolicy {
  const parsed = complete.safeParse(policy);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue === undefined ? '' : formatPath(issue.path, keyText);
    const field = path === '' ? 'policy' : `policy.${path}`;
    throw new ControllerError(
      'argument_invalid',
      `${where}: ${field} ${issueRule(issue)}; pass a policy from resolvePolicy.`,
      { field },
    );
  }
  return parsed.data;
}
