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
      trace: false,
    });
  });

  it('reads every option', () => {
    expect(
      parseDemoArgs(
        [
          '--host',
          'anthropic',
          '--store',
          'tmp/store',
          '--approve',
          'propose changes: two waves',
          '--record',
          'out.json',
        ],
        { ANTHROPIC_API_KEY: 'sk-ant-x' },
      ),
    ).toEqual({
      kind: 'run',
      host: 'anthropic',
      record: 'out.json',
      store: 'tmp/store',
      approve: 'propose changes: two waves',
      trace: false,
    });
  });

  it.each([['--help'], ['-h']])('%s asks for the usage, which names every option', (flag) => {
    const command = parseDemoArgs([flag]);
    expect(command).toEqual({ kind: 'help', text: DEMO_USAGE });
    for (const option of [
      '--host',
      '--approve',
      '--store',
      '--record',
      '--trace',
      '--ui',
      '--acp',
      '--port',
      '--help',
    ])
      expect(DEMO_USAGE).toContain(option);
  });

  it('refuses an unknown option by name instead of throwing', () => {
    const command = parseDemoArgs(['--verbose']);
    expect(command.kind).toBe('error');
    if (command.kind === 'error') expect(command.message).toContain("'--verbose'");
  });

  it('refuses a reply other than an approval offline, where the replay has no turns after it', () => {
    const rejection = ['--approve', 'propose changes: two waves'];
    const offline = parseDemoArgs(rejection);
    expect(offline.kind).toBe('error');
    if (offline.kind === 'error') expect(offline.message).toContain('set OPENAI_API_KEY');
    const scripted = parseDemoArgs(['--host', 'mcp', ...rejection], { OPENAI_API_KEY: 'sk-x' });
    expect(scripted.kind).toBe('error');
    if (scripted.kind === 'error')
      expect(scripted.message).toContain('mcp host is always scripted');
    // With the host's key the live model answers, so a rejection is the person's to make.
    expect(parseDemoArgs(rejection, { OPENAI_API_KEY: 'sk-x' })).toMatchObject({
      kind: 'run',
      approve: 'propose changes: two waves',
      trace: false,
    });
    expect(parseDemoArgs(['--approve', 'Approve.'])).toMatchObject({ kind: 'run' });
  });

  it('refuses --record offline, where there are no live responses to save', () => {
    const offline = parseDemoArgs(['--record', 'out.json']);
    expect(offline).toEqual({
      kind: 'error',
      message:
        "--record saves the live API's responses; set OPENAI_API_KEY for the live API, or leave --record out.",
    });
    const scripted = parseDemoArgs(['--host', 'ai-sdk', '--record', 'out.json'], {
      OPENAI_API_KEY: 'sk-x',
    });
    expect(scripted.kind).toBe('error');
    if (scripted.kind === 'error')
      expect(scripted.message).toContain('ai-sdk host is always scripted');
    expect(parseDemoArgs(['--record', 'out.json'], { OPENAI_API_KEY: 'sk-x' })).toMatchObject({
      kind: 'run',
      record: 'out.json',
    });
  });

  it('serves the plan UI with --ui, on --port, and refuses the loop options with it', () => {
    expect(parseDemoArgs(['--ui'])).toEqual({ kind: 'ui', store: '.plankit', port: 5178 });
    expect(parseDemoArgs(['--ui', '--port', '0', '--store', 'tmp/ui'])).toEqual({
      kind: 'ui',
      store: 'tmp/ui',
      port: 0,
    });
    expect(parseDemoArgs(['--ui', '--host', 'mcp'])).toMatchObject({ kind: 'error' });
    expect(parseDemoArgs(['--ui', '--port', '70000'])).toEqual({
      kind: 'error',
      message: '--port must be a port number, 0-65535',
    });
    expect(parseDemoArgs(['--ui', '--port', '-1']).kind).toBe('error');
    expect(parseDemoArgs(['--port', '8080'])).toEqual({
      kind: 'error',
      message: '--port goes with --ui',
    });
  });

  it('runs the ACP agent with --acp, on --store, and refuses the other options with it', () => {
    expect(parseDemoArgs(['--acp'])).toEqual({ kind: 'acp', store: '.plankit' });
    expect(parseDemoArgs(['--acp', '--store', 'tmp/acp'])).toEqual({
      kind: 'acp',
      store: 'tmp/acp',
    });
    for (const extra of [['--host', 'mcp'], ['--ui'], ['--port', '0'], ['--approve', 'ok']])
      expect(parseDemoArgs(['--acp', ...extra])).toEqual({
        kind: 'error',
        message: '--acp runs the ACP agent with its own scripted editor; it takes --store only',
      });
  });

  it('refuses an unknown host and lists the known ones', () => {
    expect(parseDemoArgs(['--host', 'gemini'])).toEqual({
      kind: 'error',
      message: '--host must be one of openai, anthropic, ai-sdk, langchain, mcp',
    });
  });
});
