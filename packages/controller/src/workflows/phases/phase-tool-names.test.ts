import { defineTool } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { phaseToolNames, selectPhaseTools } from './phase-tool-names.ts';

const CONFIG = {
  workspace: ['read_file', 'write_file', 'list_files', 'search_files'],
  strategic: ['todo_write', 'job_complete'],
  tactical: ['todo_complete'],
  domain: ['extract_document_text', 'web_search'],
};

describe('phaseToolNames', () => {
  it("resolves the seed's categories: strategic = workspace + strategic + todo_complete", () => {
    expect(phaseToolNames(CONFIG, 'strategic')).toEqual([
      'read_file',
      'write_file',
      'list_files',
      'search_files',
      'todo_write',
      'job_complete',
      'todo_complete',
    ]);
  });

  it('tactical = workspace + tactical + domain: no todo_write, no job_complete', () => {
    expect(phaseToolNames(CONFIG, 'tactical')).toEqual([
      'read_file',
      'write_file',
      'list_files',
      'search_files',
      'todo_complete',
      'extract_document_text',
      'web_search',
    ]);
  });

  it('fills in the default strategic and tactical categories, each name once', () => {
    expect(phaseToolNames({}, 'strategic')).toEqual([
      'todo_write',
      'job_complete',
      'todo_complete',
    ]);
    expect(phaseToolNames({ workspace: ['todo_complete'] }, 'tactical')).toEqual(['todo_complete']);
  });

  it('refuses strategic-only tools outside the strategic category, and bad names', () => {
    expect(() =>
      phaseToolNames({ tactical: ['todo_complete', 'job_complete'] }, 'tactical'),
    ).toThrow(
      'phaseToolNames: tools.tactical[1] names job_complete, which only a strategic phase may have.',
    );
    expect(() => phaseToolNames({ domain: ['todo_write'] }, 'strategic')).toThrow(
      /tools.domain\[0\]/,
    );
    expect(() => phaseToolNames({ workspace: ['Read File'] }, 'strategic')).toThrow(
      /tools.workspace\[0\]/,
    );
    expect(() => phaseToolNames({ misc: [] } as never, 'strategic')).toThrow(
      /tools.misc is not a category/,
    );
    expect(() => phaseToolNames({ domain: 'web_search' } as never, 'tactical')).toThrow(
      /tools.domain/,
    );
    expect(() => phaseToolNames({}, 'planning' as never)).toThrow(/phase/);
  });
});

describe('selectPhaseTools', () => {
  const tool = (name: string) =>
    defineTool({
      name,
      description: name,
      parameters: z.strictObject({}),
      handler: () => ({ message: '', value: null }),
    });
  const tools = ['todo_complete', 'web_search', 'todo_write', 'job_complete', 'read_file'].map(
    tool,
  );

  it('picks the tools of a phase, in the resolved order', () => {
    const config = { workspace: ['read_file'], domain: ['web_search'] };
    expect(selectPhaseTools(tools, config, 'tactical').map((t) => t.name)).toEqual([
      'read_file',
      'todo_complete',
      'web_search',
    ]);
    expect(selectPhaseTools(tools, config, 'strategic').map((t) => t.name)).toEqual([
      'read_file',
      'todo_write',
      'job_complete',
      'todo_complete',
    ]);
  });

  it('refuses a configured name with no tool', () => {
    expect(() => selectPhaseTools(tools, { domain: ['cypher'] }, 'tactical')).toThrow(
      'selectPhaseTools: tools has no tool named cypher.',
    );
  });
});
