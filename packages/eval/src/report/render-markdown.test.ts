import { escapeRefusedText } from '@plankit/core/internal-unstable';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryString } from '../../../core/src/testing/binary-string.ts';
import type { EvalConfig } from '../config/define-eval.ts';
import type { TrialRecord } from '../runner/trial-record.ts';
import { finishedTrial } from '../testing/finished-trial.ts';
import { buildReport } from './build-report.ts';
import { renderHtml } from './render-html.ts';
import { renderMarkdown } from './render-markdown.ts';

const trial = (armId: string, repetition: number, pass: boolean): TrialRecord =>
  finishedTrial(armId, repetition, pass, {
    toolCalls: 1,
    inputTokens: 10,
    outputTokens: 5,
    tokens: 15,
    usd: 0.001,
  });

/** A markdown table row split on unescaped pipes, each cell unescaped and trimmed. */
function cells(line: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 1; i < line.length - 1; i++) {
    const char = line[i] as string;
    if (char === '\\') {
      current += line[i + 1] ?? '';
      i++;
    } else if (char === '|') {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  out.push(current.trim());
  return out;
}

function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  const rows: string[][] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('|')) rows.push(cells(line));
    else if (rows.length > 0) break;
  }
  return rows;
}

// Text a config may hold: pipes, backslashes, line breaks, markdown and HTML syntax.
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '|',
      '\\',
      '\n',
      '\r',
      '\t',
      '-',
      '#',
      '*',
      '_',
      '`',
      '<',
      '>',
      '&',
      '[',
      ']',
      '~',
      ' ',
    ),
    fc.constantFrom('<script>', '</td>', '- verdict', '\n- forged verdict', '| x |'),
    binaryString({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

// One line, and what the Unicode text mode refuses written as a visible `\uXXXX`.
const shown = (value: string): string => escapeRefusedText(value.replace(/\s+/g, ' ').trim());

describe('config text in the reports', () => {
  it('random labels, names and model ids parse back out of the markdown tables, and forge nothing', () => {
    fc.assert(
      fc.property(text, text, text, text, (name, labelA, labelB, model) => {
        const host = {
          kind: 'test',
          modelId: model,
          runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
        };
        const config: EvalConfig = {
          name,
          arms: [
            { id: 'none', label: labelA, host, planning: false },
            { id: 'react', label: labelB, host, planning: {} },
          ],
          tasks: [{ id: 't', prompt: 'p', check: () => true }],
          repetitions: 4,
          seed: 1,
        };
        const trials = [1, 2, 3, 4].flatMap((r) => [
          trial('none', r, r < 2),
          trial('react', r, r < 4),
        ]);
        const report = buildReport(config, trials, 'completed');
        const markdown = renderMarkdown(report);

        const arms = tableAfter(markdown, '## Arms');
        expect(arms).toHaveLength(4);
        for (const row of arms) expect(row).toHaveLength(10);
        expect(arms[2]?.[0]).toBe(shown(labelA));
        expect(arms[3]?.[0]).toBe(shown(labelB));
        expect(arms[2]?.[1]).toBe(shown(`${model} (test)`));
        const plan = tableAfter(markdown, '## Plan behaviour');
        expect(plan.map((row) => row.length)).toEqual([6, 6, 6, 6]);
        expect(plan[3]?.[0]).toBe(shown(labelB));

        // Exactly one title and one verdict line per report verdict, whatever the text.
        const lines = markdown.split('\n');
        expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);
        expect(lines.filter((line) => line.startsWith('- '))).toHaveLength(report.verdict.length);
        expect(cells(`|${lines[0]?.slice(2)}|`)[0]).toBe(shown(`Eval report: ${name}`));

        const html = renderHtml(report);
        expect(html).not.toMatch(/<script/i);
        expect(html.match(/class="verdict"/g)).toHaveLength(report.verdict.length);
        // Head and rows: arms 1 + 2, pairs 1 + 1, plan behaviour 1 + 2.
        expect(html.match(/<tr>/g)).toHaveLength(8);
      }),
      { numRuns: 300 },
    );
  });

  it('a name ending in # keeps it in the title: markdown would drop it as a closing sequence', () => {
    const host = {
      kind: 'test',
      modelId: 'm',
      runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
    };
    for (const [name, title] of [
      ['release #', '# Eval report: release \\#'],
      ['a ## b ##', '# Eval report: a ## b \\##'],
      ['issue#12', '# Eval report: issue#12'],
    ]) {
      const config: EvalConfig = {
        name,
        arms: [{ id: 'none', label: 'none', host, planning: false }],
        tasks: [{ id: 't', prompt: 'p', check: () => true }],
        repetitions: 1,
        seed: 1,
      };
      const report = buildReport(config, [trial('none', 1, true)], 'completed');
      expect(renderMarkdown(report).split('\n')[0]).toBe(title);
    }
  });

  it('shows text in any language as written, and bidi, control and invisible characters as escapes', () => {
    const host = {
      kind: 'test',
      modelId: 'モデル\u202e1v',
      runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
    };
    // An override would show the rest of its line right to left: `1v` as `v1`, a row's
    // cells in the other order.
    const config: EvalConfig = {
      name: 'リリース 🚀 Grüße\u2066',
      arms: [
        { id: 'none', label: '計画なし\u200b', host, planning: false },
        { id: 'react', label: 'plan\u202e (react) ❤️', host, planning: { text: 'unicode' } },
      ],
      tasks: [{ id: 't', prompt: 'p', check: () => true }],
      repetitions: 1,
      seed: 1,
    };
    const report = buildReport(
      config,
      [trial('none', 1, true), trial('react', 1, true)],
      'completed',
    );
    const markdown = renderMarkdown(report);
    const html = renderHtml(report);
    for (const output of [markdown, html]) {
      expect(output).not.toMatch(/[\u202e\u2066\u200b]/);
      expect(output).toContain('リリース 🚀 Grüße');
      expect(output).toContain('❤️');
    }
    expect(markdown.split('\n')[0]).toBe('# Eval report: リリース 🚀 Grüße\\\\u2066');
    const arms = tableAfter(markdown, '## Arms');
    expect(arms[2]?.slice(0, 2)).toEqual(['計画なし\\u200b', 'モデル\\u202e1v (test)']);
    expect(arms[3]?.[0]).toBe('plan\\u202e (react) ❤️');
    expect(arms[3]?.[2]).toBe('react, reminder on_change, inProgress single, text unicode');
    expect(html).toContain('<h1>Eval report: リリース 🚀 Grüße\\u2066</h1>');
  });

  it('clips long chart labels without splitting a character outside the BMP', () => {
    const host = {
      kind: 'test',
      modelId: 'm',
      runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
    };
    const config: EvalConfig = {
      arms: [{ id: 'a', label: 'x'.repeat(20) + '😀'.repeat(10), host, planning: false }],
      tasks: [{ id: 't', prompt: 'p', check: () => true }],
      repetitions: 1,
      seed: 1,
    };
    const html = renderHtml(buildReport(config, [trial('a', 1, true)], 'completed'));
    // Cut at 21 code units, the label would end in half of an emoji.
    expect(html).toContain(`>${'x'.repeat(20)}...</text>`);
    expect(html).not.toMatch(/\\ud83d/);
  });
});
