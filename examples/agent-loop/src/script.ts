/**
 * What the scripted model says, host-neutral: the model turns of a release-planning job, one
 * list of replies per stage that needs the model. Each reply is one model response: tool calls
 * or a final text. Hosts without a recorded transcript (AI SDK, LangChain, MCP) replay this;
 * the OpenAI and Anthropic transcripts in ../transcripts carry the same turns in each API's
 * wire format.
 */
export interface ScriptedCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export type ScriptedReply =
  | { readonly calls: readonly ScriptedCall[]; readonly usage: Usage }
  | { readonly text: string; readonly usage: Usage };

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export const OBJECTIVE = 'Release v2.0 of the acme CLI';

export const SCRIPT: Readonly<Record<string, readonly ScriptedReply[]>> = {
  COLLECT_CONTEXT: [
    {
      text: 'I have what I need: the CLI ships from main, releases are tagged vX.Y.Z and CI publishes tags to npm.',
      usage: { inputTokens: 1180, outputTokens: 38 },
    },
  ],
  DRAFT_OUTLINE: [
    {
      calls: [
        {
          name: 'planning_setup_plan',
          args: {
            objective: OBJECTIVE,
            initial_steps: [
              { title: 'Freeze the main branch', details: 'Announce the freeze in #release' },
              { title: 'Write the changelog', details: null },
              { title: 'Tag v2.0.0', details: null },
            ],
          },
        },
      ],
      usage: { inputTokens: 1320, outputTokens: 96 },
    },
    { text: 'The outline has three steps.', usage: { inputTokens: 1405, outputTokens: 12 } },
  ],
  DRAFT_ROADMAP: [
    {
      calls: [
        {
          name: 'planning_add_step',
          args: {
            steps: [
              { title: 'Publish to npm', details: 'CI publishes on tag' },
              { title: 'Announce the release', details: null },
            ],
          },
        },
        {
          name: 'planning_update_step',
          args: {
            step_id: 'S002',
            title: 'Write the changelog \u2013 user-facing changes only',
            details: null,
          },
        },
      ],
      usage: { inputTokens: 1650, outputTokens: 121 },
    },
    {
      calls: [
        {
          name: 'planning_update_step',
          args: {
            step_id: 'S002',
            title: 'Write the changelog - user-facing changes only',
            details: null,
          },
        },
      ],
      usage: { inputTokens: 1790, outputTokens: 44 },
    },
    { text: 'The roadmap has five steps.', usage: { inputTokens: 1902, outputTokens: 11 } },
  ],
  DRAFT_SCHEDULE: [
    {
      calls: [
        {
          name: 'planning_mark_step',
          args: { step_id: 'S001', status: 'done', note: 'Freeze announced at 09:00' },
        },
        {
          name: 'planning_mark_step',
          args: { step_id: 'S002', status: 'in_progress', note: null },
        },
      ],
      usage: { inputTokens: 2100, outputTokens: 70 },
    },
    {
      calls: [
        {
          name: 'planning_mark_step',
          args: { step_id: 'S002', status: 'done', note: 'Reviewed by the docs team' },
        },
        { name: 'planning_mark_step', args: { step_id: 'S003', status: 'done', note: null } },
        {
          name: 'planning_mark_step',
          args: {
            step_id: 'S004',
            status: 'done',
            note: 'npm view acme-cli@2.0.0 shows the release',
          },
        },
        { name: 'planning_mark_step', args: { step_id: 'S005', status: 'done', note: null } },
      ],
      usage: { inputTokens: 2290, outputTokens: 140 },
    },
    { text: 'All five steps are done.', usage: { inputTokens: 2410, outputTokens: 9 } },
  ],
};
