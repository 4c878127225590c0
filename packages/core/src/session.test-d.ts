import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { append } from './append.ts';
import { defineDataType } from './define-data-type.ts';
import { Plan } from './planning/plan.ts';
import type { Reducer } from './reducer.ts';
import type { Result } from './result.ts';
import { selectAll } from './select-all.ts';
import { selectLatest } from './select-latest.ts';
import { selectWhere } from './select-where.ts';
import { Session } from './session.ts';
import type { SessionError } from './session-error.ts';
import type { SessionSnapshot } from './session-snapshot.ts';
import { upsertBy } from './upsert-by.ts';

const Note = defineDataType('typetest.Note', z.strictObject({ id: z.number(), text: z.string() }));
type Note = z.infer<typeof Note>;
const Count = defineDataType('typetest.Count', z.number());

describe('Session types', () => {
  it('types selectors by the data type', () => {
    const session = new Session();
    expectTypeOf(selectLatest(session, Plan)).toEqualTypeOf<Plan | undefined>();
    expectTypeOf(selectAll(session, Note)).toEqualTypeOf<readonly Note[]>();
    expectTypeOf(selectWhere(session.snapshot(), Count, (n) => n > 1)).toEqualTypeOf<
      readonly number[]
    >();
  });

  it('checks reducers against the data type and the target slice', () => {
    const session = new Session();
    session.register(Note, append);
    session.register(Note, upsertBy<Note>('id'));
    const count: Reducer<number, Note> = (slice) => [slice.length];
    session.register(Note, count, { slice: Count });
    // @ts-expect-error a Count reducer cannot reduce Notes into their own slice
    session.register(Note, (slice: readonly number[]) => slice);
    // @ts-expect-error the reducer writes numbers, the slice holds notes
    session.register(Note, count, { slice: Note });
  });

  it('types dispatch values and results', () => {
    const session = new Session();
    expectTypeOf(session.dispatch(Note, { id: 1, text: 'a' })).toEqualTypeOf<
      Result<SessionSnapshot, SessionError>
    >();
    // @ts-expect-error text must be a string
    session.dispatch(Note, { id: 1, text: 2 });
  });
});
