import { describe, expect, it } from 'vitest';
import { packagesLoadedBy } from './testing/packages-loaded-by.ts';

const SDKS = [
  'openai',
  '@anthropic-ai/sdk',
  'ai',
  '@langchain/core',
  '@langchain/langgraph',
  'langchain',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  'pg',
  '@openai/agents',
  '@agentclientprotocol/sdk',
  '@dbos-inc/dbos-sdk',
];
const OWN: Record<string, string | undefined> = {
  '.': undefined,
  openai: 'openai',
  anthropic: '@anthropic-ai/sdk',
  'ai-sdk': 'ai',
  langchain: '@langchain/core',
  mcp: '@modelcontextprotocol/sdk',
  'mcp-v2': '@modelcontextprotocol/server',
  stores: undefined,
  workspace: undefined,
  postgres: 'pg',
  dbos: '@dbos-inc/dbos-sdk',
  sessions: undefined,
  // The in-process MCP server object is the caller's: the entry loads no host SDK itself.
  'claude-agent-sdk': undefined,
  // The ACP connection is the caller's: the entry uses the SDK's types only.
  acp: undefined,
};

const resolvedPackages = (subpath: string): Promise<string[]> =>
  packagesLoadedBy(subpath === '.' ? '@plankit/adapters' : `@plankit/adapters/${subpath}`);

const sdkOf = (specifier: string) =>
  SDKS.find((sdk) => specifier === sdk || specifier.startsWith(`${sdk}/`));

// Each test imports one subpath in a fresh process and only waits on it, so they run at once.
describe.concurrent('subpath isolation', () => {
  for (const [subpath, own] of Object.entries(OWN)) {
    it(`importing ${subpath === '.' ? 'the root' : subpath} loads no host SDK other than ${own ?? 'none'}`, async () => {
      const sdks = new Set(
        (await resolvedPackages(subpath)).map(sdkOf).filter((sdk) => sdk !== undefined),
      );
      for (const sdk of sdks) expect(sdk).toBe(own);
      // These call their SDK at run time (mcp for its subscription request schemas); the
      // others use it for types only and load nothing.
      if (['ai-sdk', 'langchain', 'postgres', 'mcp', 'dbos'].includes(subpath))
        expect(sdks.has(own as string)).toBe(true);
    }, 60_000);
  }

  // createAgent's middleware needs the LangChain family: langchain, @langchain/langgraph and
  // the @langchain/core they share. Nothing else may load.
  it('importing langgraph loads langchain, @langchain/langgraph and @langchain/core only', async () => {
    const family = ['@langchain/core', '@langchain/langgraph', 'langchain'];
    const sdks = new Set(
      (await resolvedPackages('langgraph')).map(sdkOf).filter((sdk) => sdk !== undefined),
    );
    for (const sdk of sdks) expect(family).toContain(sdk);
    expect(sdks.has('langchain')).toBe(true);
    expect(sdks.has('@langchain/langgraph')).toBe(true);
  }, 60_000);

  // @openai/agents is its own SDK together with its dependencies: @openai/agents-core, -openai
  // and -realtime, the openai client, and the MCP v2 client that agents-core declares as an
  // optional dependency (with the @modelcontextprotocol/core it loads). Nothing else may load.
  it('importing openai-agents loads @openai/agents and its own dependencies only', async () => {
    const loaded = await resolvedPackages('openai-agents');
    const family = (specifier: string) =>
      specifier === 'openai' ||
      specifier.startsWith('openai/') ||
      specifier.startsWith('@openai/agents') ||
      specifier.startsWith('@modelcontextprotocol/client') ||
      specifier.startsWith('@modelcontextprotocol/core');
    expect(loaded.some((specifier) => specifier.startsWith('@openai/agents'))).toBe(true);
    const sdks = new Set(
      loaded
        .filter((specifier) => !family(specifier))
        .map(sdkOf)
        .filter((sdk) => sdk !== undefined),
    );
    expect([...sdks]).toEqual([]);
  }, 60_000);
});
