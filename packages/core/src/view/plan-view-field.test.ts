import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineDataType } from '../define-data-type.ts';
import { invokeTool } from '../invoke-tool.ts';
import { createPlanningTools } from '../planning/create-planning-tools.ts';
import type { PlanningExtension } from '../planning/planning-extension.ts';
import { registerPlanningExtensions } from '../planning/register-planning-extensions.ts';
import { replaceLatest } from '../replace-latest.ts';
import { Session } from '../session.ts';
import { parsePlanView } from './parse-plan-view.ts';
import { planView } from './plan-view.ts';
import { type PlanViewField, planViewFieldsOf } from './plan-view-field.ts';

// An app's extension: a mood slice of its own, shown in the plan view as `mood`.
const Mood = defineDataType('example.Mood', z.string().max(40));
const moodField: PlanViewField = {
  name: 'mood',
  read: (slices) => {
    const moods = slices['example.Mood'];
    const mood = moods?.[moods.length - 1];
    return typeof mood === 'string' ? Object.freeze({ mood, moods: moods?.length ?? 0 }) : null;
  },
};
const moods = (): PlanningExtension => ({
  name: 'moods',
  dataTypes: [{ dataType: Mood, reducer: replaceLatest }],
  viewFields: [moodField],
});

async function planned(extensions: readonly PlanningExtension[]): Promise<Session> {
  const session = new Session({ sessionId: 'fields' });
  const tools = createPlanningTools(session, { extensions });
  await invokeTool(
    tools.planning_setup_plan,
    { objective: 'Ship', initial_steps: [{ title: 'Build' }] },
    { session },
  );
  return session;
}

describe('plan-view fields an extension adds', () => {
  it('are read from the session into view.fields, only once they have a value', async () => {
    const session = await planned([moods()]);
    expect(planViewFieldsOf(session)).toEqual([moodField]);
    const before = planView(session);
    expect(before !== null && 'fields' in before).toBe(false);
    session.dispatch(Mood, 'calm');
    const view = planView(session);
    expect(view?.fields).toEqual({ mood: { mood: 'calm', moods: 1 } });
    expect(Object.isFrozen(view?.fields)).toBe(true);
    // JSON-safe, and read back by parsePlanView with the field kept.
    const read = parsePlanView(JSON.parse(JSON.stringify(view)));
    expect(read.ok && read.value).toEqual(view);
  });

  it('come with a session; a snapshot or a plan alone takes them in options.fields', async () => {
    const session = await planned([moods()]);
    session.dispatch(Mood, 'tired');
    expect(planView(session.snapshot())?.fields).toBeUndefined();
    expect(planView(session.snapshot(), { fields: [moodField] })?.fields).toEqual({
      mood: { mood: 'tired', moods: 1 },
    });
    expect(planView(session, { fields: [] })?.fields).toBeUndefined();
    expect(() => planView(session, { extra: 1 } as never)).toThrow(
      'planView: options.extra is not an option.',
    );
    expect(() => planView(session, { fields: {} } as never)).toThrow(
      'planView: options.fields must be an array of plan view fields.',
    );
    expect(() => planView(session, { fields: [moodField, moodField] })).toThrow(
      'planView: options.fields[1].name repeats mood.',
    );
    expect(() => planView(session, { fields: [{ name: '__proto__', read: () => 1 }] })).toThrow(
      'planView: options.fields[0].name must be 1-64 of a-z',
    );
    // A session without the extension has no fields.
    expect(planView(await planned([]))?.fields).toBeUndefined();
  });

  it('are registered once, and refused when badly named or named twice', () => {
    const session = new Session();
    registerPlanningExtensions(session, [moods()]);
    registerPlanningExtensions(session, [moods()]);
    expect(planViewFieldsOf(session)).toHaveLength(1);
    const other: PlanningExtension = {
      name: 'other',
      viewFields: [{ name: 'mood', read: () => null }],
    };
    expect(() => registerPlanningExtensions(session, [other])).toThrow(
      'registerPlanningExtensions: extensions[0].viewFields[0].name repeats mood, a field another extension adds.',
    );
    const badName: PlanningExtension = {
      name: 'bad',
      viewFields: [{ name: 'Mood!', read: () => null }],
    };
    expect(() => registerPlanningExtensions(new Session(), [badName])).toThrow(
      'registerPlanningExtensions: extensions[0].viewFields[0].name must be 1-64 of a-z, 0-9 and _, starting with a letter (such as goal).',
    );
    const notField = { name: 'x', viewFields: [{ name: 'x' }] } as never;
    expect(() => registerPlanningExtensions(new Session(), [notField])).toThrow(
      'registerPlanningExtensions: extensions[0].viewFields[0] must be a plan view field: { name, read }.',
    );
    // All or none: a bad field after a good one registers neither.
    const half = {
      name: 'half',
      viewFields: [{ name: 'fine', read: () => null }, { name: 'Bad' }],
    } as never;
    const fresh = new Session();
    expect(() => registerPlanningExtensions(fresh, [half])).toThrow();
    expect(planViewFieldsOf(fresh)).toEqual([]);
    const notList = { name: 'x', viewFields: 'mood' } as never;
    expect(() => registerPlanningExtensions(new Session(), [notList])).toThrow(
      'registerPlanningExtensions: extensions[0].viewFields must be an array.',
    );
  });
});
