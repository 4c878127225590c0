import type { Plan, Result } from '@plankit/core';
import { fnv1a } from './fnv1a.ts';
import {
  ANCHOR_TAG,
  AUTHENTICATED_PLAN_ANCHOR_VERSION,
  anchorBody,
  fail,
  planOfBody,
  readAnchorBlock,
} from './plan-anchor.ts';
import type { PlanAnchorError } from './plan-anchor-error.ts';
import { PromptRenderError } from './prompt-render-error.ts';

/**
 * A WebCrypto `CryptoKey` for HMAC with SHA-256 (from `crypto.subtle.importKey` or
 * `generateKey`), named by the fields plankit checks so the types need no DOM or Node lib.
 * It must be a real `CryptoKey` of at least 256 bits that allows `sign` and `verify`.
 *
 * @public
 */
export interface HmacCryptoKey {
  /** `secret` for an HMAC key. */
  readonly type: string;
  /** `{ name: 'HMAC', hash: { name: 'SHA-256' }, length }`. */
  readonly algorithm: { readonly name: string };
  /** Must hold `sign` and `verify` (reading alone needs only `verify`). */
  readonly usages: readonly string[];
}

/**
 * The secret that authenticates plan anchors: a string (its UTF-8 bytes), raw bytes, or a
 * WebCrypto HMAC SHA-256 `CryptoKey`; at least {@link MIN_ANCHOR_KEY_BYTES} bytes. Keep it
 * out of the conversation, like any other credential.
 *
 * @public
 */
export type PlanAnchorKey = string | Uint8Array | HmacCryptoKey;

/** The shortest anchor key accepted, in bytes (HMAC-SHA-256's output size). @public */
export const MIN_ANCHOR_KEY_BYTES = 32;

/** A key ready for `crypto.subtle`. @internal */
export type SubtleKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const encoder = new TextEncoder();
const TAG = ANCHOR_TAG;

// The version is part of what is authenticated, so no block can be relabelled.
const macInput = (body: string): Uint8Array<ArrayBuffer> =>
  encoder.encode(`${TAG} version ${AUTHENTICATED_PLAN_ANCHOR_VERSION}\n${body}`);

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

function fromHex(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * Why `key` cannot authenticate anchors, or undefined when it can.
 *
 * @param usages - what the key will be used for
 * @internal
 */
export function anchorKeyProblem(
  key: unknown,
  usages: readonly ('sign' | 'verify')[],
): string | undefined {
  if (typeof key === 'string' || key instanceof Uint8Array) {
    const length = typeof key === 'string' ? encoder.encode(key).length : key.length;
    return length >= MIN_ANCHOR_KEY_BYTES
      ? undefined
      : `must be at least ${MIN_ANCHOR_KEY_BYTES} bytes long (it has ${length})`;
  }
  const CryptoKeyClass = (globalThis as { CryptoKey?: abstract new () => unknown }).CryptoKey;
  if (typeof CryptoKeyClass === 'function' && key instanceof CryptoKeyClass) {
    const { algorithm, usages: allowed } = key as HmacCryptoKey;
    const hmac = algorithm as { name?: unknown; hash?: { name?: unknown }; length?: unknown };
    if (hmac.name !== 'HMAC' || hmac.hash?.name !== 'SHA-256')
      return 'must be an HMAC key with SHA-256';
    if (typeof hmac.length !== 'number' || hmac.length < MIN_ANCHOR_KEY_BYTES * 8)
      return `must be at least ${MIN_ANCHOR_KEY_BYTES * 8} bits long`;
    for (const usage of usages)
      if (!allowed.includes(usage)) return `must allow "${usage}" in its usages`;
    return undefined;
  }
  return 'must be a secret string, a Uint8Array or a WebCrypto HMAC SHA-256 CryptoKey';
}

function checkKey(name: string, key: unknown, usages: readonly ('sign' | 'verify')[]): void {
  const problem = anchorKeyProblem(key, usages);
  if (problem !== undefined)
    throw new PromptRenderError('options_invalid', `${name}: key ${problem}.`, { field: 'key' });
}

/**
 * The key as `crypto.subtle` takes it; bytes are copied, so changing them later changes
 * nothing. Call {@link anchorKeyProblem} first.
 *
 * @internal
 */
export async function importAnchorKey(key: PlanAnchorKey): Promise<SubtleKey> {
  if (typeof key !== 'string' && !(key instanceof Uint8Array)) return key as unknown as SubtleKey;
  const raw = typeof key === 'string' ? encoder.encode(key) : new Uint8Array(key);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/** The version 2 anchor of `plan`, with an imported key. @internal */
export async function signedAnchor(plan: Plan, key: SubtleKey): Promise<string> {
  const body = anchorBody(plan);
  const mac = await crypto.subtle.sign('HMAC', key, macInput(body));
  return `<${TAG} version="${AUTHENTICATED_PLAN_ANCHOR_VERSION}" checksum="${fnv1a(body)}" mac="${hex(mac)}">\n${body}\n</${TAG}>`;
}

/** The plan of the last anchor in `text` when `key` authenticates it, with an imported key. @internal */
export async function verifiedPlan(
  text: string,
  key: SubtleKey,
): Promise<Result<Plan, PlanAnchorError>> {
  const block = readAnchorBlock(text);
  if (!block.ok) return block;
  const { version, attributes, body } = block.value;
  const mac = attributes.get('mac');
  if (version !== AUTHENTICATED_PLAN_ANCHOR_VERSION || mac === undefined) {
    return fail(
      'anchor_unauthenticated',
      `The plan anchor carries no MAC: it was written without a key (or before anchor version ${AUTHENTICATED_PLAN_ANCHOR_VERSION}), so anyone could have written it.`,
      'mac',
    );
  }
  const verified =
    /^[0-9a-f]{64}$/.test(mac) &&
    (await crypto.subtle.verify('HMAC', key, fromHex(mac), macInput(body)));
  if (!verified) {
    return fail(
      'anchor_mac_mismatch',
      'The plan anchor MAC does not match the key: it was altered, forged, or made with another key.',
      'mac',
    );
  }
  return planOfBody(body);
}

/**
 * Writes a plan as an authenticated anchor (version 2): the lines and checksum of
 * {@link toPlanAnchor}, plus `mac`, an HMAC-SHA-256 over the version and the lines made with
 * `key` through WebCrypto (`globalThis.crypto.subtle`, on Node 20 and the edge). Only a holder
 * of the key can write one that {@link fromAuthenticatedPlanAnchor} accepts. Async because
 * WebCrypto is; the same plan and key always give the same bytes.
 *
 * @example
 * ```ts
 * const anchor = await toAuthenticatedPlanAnchor(plan, process.env.PLANKIT_ANCHOR_KEY ?? '');
 * ```
 * @throws PromptRenderError `options_invalid` (field `key`) for a key shorter than
 *   {@link MIN_ANCHOR_KEY_BYTES} bytes, or a `CryptoKey` that is not HMAC SHA-256 or does not allow `sign`
 * @public
 */
export async function toAuthenticatedPlanAnchor(plan: Plan, key: PlanAnchorKey): Promise<string> {
  checkKey('toAuthenticatedPlanAnchor', key, ['sign']);
  return signedAnchor(plan, await importAnchorKey(key));
}

/**
 * Reads back the last plan anchor in `text` only when `key` authenticates it: a version 2
 * anchor whose MAC the key verifies. Anything else is refused, however readable: a version 1
 * anchor (`toPlanAnchor`, or one written before version 2) is `anchor_unauthenticated`, a
 * wrong or altered MAC is `anchor_mac_mismatch`. The MAC is compared by WebCrypto's `verify`.
 *
 * @returns the deeply frozen plan, or a {@link PlanAnchorError}: the codes of
 *   {@link fromPlanAnchor}, `anchor_unauthenticated` or `anchor_mac_mismatch`
 * @throws PromptRenderError `options_invalid` (field `key`) for a key that cannot verify (see
 *   {@link toAuthenticatedPlanAnchor})
 * @public
 */
export async function fromAuthenticatedPlanAnchor(
  text: string,
  key: PlanAnchorKey,
): Promise<Result<Plan, PlanAnchorError>> {
  checkKey('fromAuthenticatedPlanAnchor', key, ['verify']);
  return verifiedPlan(text, await importAnchorKey(key));
}
