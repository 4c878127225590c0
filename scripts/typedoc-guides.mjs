// A TypeDoc plugin: each exported symbol gets the category of the chapter its source file lives
// in, and a link to the guide that teaches that chapter. The folders already are the chapters
// (house style), so mapping paths here keeps every source file free of repeated @category tags.
// A symbol that carries its own @category keeps it. The guides are project documents of the
// site (typedoc.json), so each link is relative and opens the guide's page in the same site.
// When the site is written, the plugin says where.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Comment,
  CommentTag,
  Converter,
  normalizePath,
  ReflectionKind,
  RendererEvent,
} from 'typedoc';

const GUIDES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs');

/** First match wins: [path pattern relative to packages/, category, guide file in docs/]. */
const CHAPTERS = [
  [/^core\/src\/planning\/dependencies\//, 'Plan model: dependencies', 'plan-model.md'],
  [/^core\/src\/planning\/batch\//, 'Plan model: batches', 'plan-model.md'],
  [
    /^core\/src\/planning\/(history|explanations?|owners?|claims?)\//,
    'Plan model: history and owners',
    'plan-model.md',
  ],
  [/^core\/src\/planning\//, 'Planning tools', 'getting-started.md'],
  [/^core\/src\/view\//, 'Plan view', 'plan-ui.md'],
  [/^core\/src\/diagnostics\//, 'Diagnostics channels', 'telemetry.md'],
  [/^core\/src\/interop\//, 'Interop', 'interop.md'],
  [/^core\/src\/(define-tool|invoke-tool|tool-|plankit-error)/, 'Tools', 'getting-started.md'],
  [/^core\/src\/.*(event|bus)/, 'Events', 'sessions.md'],
  [/^core\/src\//, 'Sessions', 'sessions.md'],
  [/^prompt\/src\/authenticated-plan-anchor/, 'Compaction', 'security.md'],
  [/^prompt\/src\/(planning-|render-plan|plan-anchor)/, 'Planning prompt', 'prompt-snapshots.md'],
  [/^prompt\/src\/.*compact/, 'Compaction', 'plan-model.md'],
  [/^prompt\/src\//, 'Prompt sections', 'prompt-snapshots.md'],
  [/^controller\/src\/workflows\/phases?\//, 'Workflows: phases', 'workflows.md'],
  [/^controller\/src\/workflows\/review\//, 'Workflows: review', 'workflows.md'],
  [/^controller\/src\/workflows\/workshop\//, 'Workflows: workshop', 'workflows.md'],
  [/^controller\/src\/(workflows|phases?|review|workshop)/, 'Workflows', 'workflows.md'],
  [/^controller\/src\/budget/, 'Budget', 'controller.md'],
  [/^controller\/src\/confidence/, 'Confidence', 'controller.md'],
  [/^controller\/src\/(stage-tools?|tools?|executor)/, 'Stage tools', 'controller.md'],
  [/^controller\/src\/(policy|patterns?)/, 'Policy and patterns', 'controller.md'],
  [/^controller\/src\/planning/, 'Planning controller', 'controller.md'],
  [/^controller\/src\/goal\//, 'Goals', 'goals.md'],
  [/^controller\/src\/(engine|machine)/, 'Machine engine', 'controller.md'],
  [/^controller\/src\//, 'Controller', 'controller.md'],
  [
    /^adapters\/src\/(sessions|claude)/,
    'Sessions per conversation',
    'sessions-per-conversation.md',
  ],
  [/^adapters\/src\/persistence\/(stores|postgres)\//, 'Stores', 'persistence.md'],
  [/^adapters\/src\/persistence\/workspace\//, 'Workspace files', 'workflows.md'],
  [/^adapters\/src\/dbos\//, 'Durable workflows', 'durable-agents.md'],
  [/^adapters\/src\/host\/strict-schema\//, 'Strict schemas', 'adapters.md'],
  [/^adapters\/src\/(openai-agents|openai)/, 'OpenAI', 'adapters.md'],
  [/^adapters\/src\/anthropic/, 'Anthropic', 'adapters.md'],
  [/^adapters\/src\/ai-sdk\/(with-plan-updates|plan-data-part)/, 'Plan view', 'plan-ui.md'],
  [/^adapters\/src\/ai-sdk/, 'Vercel AI SDK', 'adapters.md'],
  [/^adapters\/src\/(langchain|langgraph)/, 'LangChain and LangGraph', 'adapters.md'],
  [/^adapters\/src\/mcp/, 'MCP', 'adapters.md'],
  [/^adapters\/src\/acp\//, 'Agent Client Protocol', 'adapters.md'],
  [/^adapters\/src\//, 'Host calls', 'adapters.md'],
  [/^react\/src\//, 'Plan UI', 'plan-ui.md'],
  [/^otel\/src\//, 'Telemetry', 'telemetry.md'],
  [/^eval\/src\/scripted/, 'Scripted models', 'evaluating-planning.md'],
  [/^eval\/src\/report/, 'Reports', 'evaluating-planning.md'],
  [/^eval\/src\//, 'Evaluation', 'evaluating-planning.md'],
];

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const project = context.project;
    for (const reflection of Object.values(project.reflections)) {
      if (!reflection.isDeclaration() || !reflection.parent?.kindOf(ReflectionKind.SomeModule)) {
        continue;
      }
      const id = project.getSymbolIdFromReflection(reflection);
      if (id === undefined || !id.packageName.startsWith('@plankit/')) continue;
      const relative = `${id.packageName.slice('@plankit/'.length)}/${id.packagePath}`;
      const chapter = CHAPTERS.find(([pattern]) => pattern.test(relative));
      if (chapter === undefined) continue;
      const [, category, guide] = chapter;
      const target = hostOfComment(reflection);
      target.comment ??= new Comment();
      const tags = target.comment.blockTags;
      if (!tags.some((tag) => tag.tag === '@category')) {
        tags.push(tag('@category', category));
      }
      if (!tags.some((t) => t.tag === '@see')) {
        tags.push(guideTag(project, guide));
      }
    }
  });
  app.renderer.on(RendererEvent.END, (event) => {
    const index = path.relative(process.cwd(), path.join(event.outputDirectory, 'index.html'));
    // The log level is Warn (warnings fail the build), so an info line would not show.
    console.log(`API reference written to ${index}`);
  });
}

/** `Guide: [file](file)` as TypeDoc parses a relative link, so it resolves to the guide's page. */
function guideTag(project, guide) {
  const { target, anchor } = project.files.registerAbsolute(
    normalizePath(path.join(GUIDES, guide)),
  );
  return new CommentTag('@see', [
    { kind: 'text', text: `Guide: [${guide}](` },
    { kind: 'relative-link', text: guide, target, targetAnchor: anchor },
    { kind: 'text', text: ')' },
  ]);
}

/** Functions carry their comment on the signature; everything else on the declaration. */
function hostOfComment(reflection) {
  const signature = reflection.signatures?.[0];
  return signature !== undefined && reflection.comment === undefined ? signature : reflection;
}

function tag(name, text) {
  return new CommentTag(name, [{ kind: 'text', text }]);
}
