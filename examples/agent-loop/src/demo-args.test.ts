import { describe, expect, it } from 'vitest';
import { DEMO_USAGE, parseDemoArgs } from './demo-args.ts';

describe('parseDemoArgs', () => {
  it('runs the OpenAI host with the defaults when given nothing', () => {
    expect(parseDemoArgs([])).toEqual({
      kind: 'run',
      host: 'openai',
      record: undefined,
      store: '.plankit',
      approve: 'approve',
    });
  });

  it('reads every option', () => {
    expect(
      parseDemoArgs([
        '--host',
        'mcp',
        '--store',
        'tmp/store',
        '--approve',
        'propose changes: two waves',
        '--record',
        'out.json',
      ]),
    ).toEqual({
      kind: 'run',
      host: 'mcp',
      record: 'out.json',
      store: 'tmp/store',
      approve: 'propose changes: two waves',
    });
  });

  it.each([['--help'], ['-h']])('%s asks for the usage, which names every option', (flag) => {
    const command = parseDemoArgs([flag]);
    expect(command).toEqual({ kind: 'help', text: DEMO_USAGE });
    for (const option of ['--host', '--approve', '--store', '--record', '--help'])
      expect(DEMO_USAGE).toContain(option);
  });

  it('refuses an unknown option by name instead of throwing', () => {
    const command = parseDemoArgs(['--verbose']);
    expect(command.kind).toBe('error');
    if (command.kind === 'error') expect(command.message).toContain("'--verbose'");
  });

  it('refuses an unknown host and lists the known ones', () => {
    expect(parseDemoArgs(['--host', 'gemini'])).toEqual({
      kind: 'error',
      message: '--host must be one of openai, anthropic, ai-sdk, langchain, mcp',
    });
  });
});
