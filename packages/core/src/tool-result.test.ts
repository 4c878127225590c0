import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineDataType } from './define-data-type.ts';
import { defineTool } from './define-tool.ts';
import { invokeTool } from './invoke-tool.ts';
import { selectAll } from './select-all.ts';
import { Session } from './session.ts';
import { ToolCall } from './tool-call.ts';

const Note = defineDataType('test.Note', z.strictObject({ text: z.string() }));
const addNote = defineTool({
  name: 'add_note',
  description: 'Add a note.',
  parameters: z.strictObject({ text: z.string().min(1) }),
  resultType: Note,
  handler: ({ text }) => ({ message: `Added ${text}.`, value: { text } }),
});

describe('ToolResult', () => {
  it('carries ok equal to success on both outcomes', async () => {
    const session = new Session();
    const done = await invokeTool(addNote, { text: 'a' }, { session, now: 1 });
    const refused = await invokeTool(addNote, { text: '' }, { session, now: 2 });
    expect(done.ok).toBe(true);
    expect(done.success).toBe(true);
    expect(refused.ok).toBe(false);
    expect(refused.success).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('schema');
  });

  it('serialises and stores exactly the reference fields', async () => {
    const session = new Session();
    const done = await invokeTool(addNote, { text: 'a' }, { session, now: 1 });
    expect(Object.keys(done)).toEqual(['success', 'message', 'value']);
    expect(JSON.stringify(done)).toBe('{"success":true,"message":"Added a.","value":{"text":"a"}}');
    expect(selectAll(session, ToolCall)[0]?.result).toEqual({
      success: true,
      message: 'Added a.',
      value: { text: 'a' },
    });
  });
});
