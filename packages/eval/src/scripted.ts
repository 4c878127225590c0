/**
 * Scripted AI SDK models with known success rates, for testing an eval offline. Needs the `ai`
 * package (`ai/test`).
 *
 * @packageDocumentation
 * @module @plankit/eval/scripted
 */

export type { ScriptedModelOptions } from './scripted/scripted-model.ts';
export { scriptedModel } from './scripted/scripted-model.ts';
