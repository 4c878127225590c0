import { clipText, escapeRefusedText } from '@plankit/core/internal-unstable';
import type { EvalReport } from './build-report.ts';
import { dollars, percent, type ReportBlock, reportDocument } from './report-document.ts';

/**
 * Text as HTML text or an attribute value: `& < > " '` escaped, and what the Unicode text mode
 * refuses (control and bidirectional characters, invisible ones) written as a visible `\uXXXX`,
 * so text in any language shows as written and cannot reorder or hide the text around it.
 * Runs of whitespace become one space, as HTML shows them anyway.
 */
export function escapeHtml(text: string): string {
  return escapeRefusedText(text.replace(/\s+/g, ' '))
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2'];

/** A coordinate to one decimal: enough for a screen, and short. */
function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A label clipped to fit the charts' left margin. */
function short(label: string): string {
  return clipText(label.replace(/\s+/g, ' ').trim(), 24);
}

const WIDTH = 760;
const LEFT = 180;
const RIGHT = 170;
const ROW = 34;
const TOP = 34;
const BOTTOM = 40;

function frame(id: string, title: string, rows: number): { height: number; parts: string[] } {
  const height = TOP + rows * ROW + BOTTOM;
  return {
    height,
    parts: [
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${id}">`,
      `<title id="${id}">${escapeHtml(title)}</title>`,
      `<text x="${LEFT}" y="18" font-size="13" font-weight="600">${escapeHtml(title)}</text>`,
    ],
  };
}

/** Success rate per arm: a dot at the rate and a bar over its 95% Wilson interval. */
export function renderRateChart(report: EvalReport): string {
  const { height, parts } = frame(
    'rate-chart-title',
    'Success rate per arm (95% Wilson CI)',
    report.arms.length,
  );
  const x = (rate: number): number => round(LEFT + rate * (WIDTH - LEFT - RIGHT));
  const axis = height - BOTTOM;
  for (let tick = 0; tick <= 10; tick += 2) {
    const tx = x(tick / 10);
    parts.push(
      `<line x1="${tx}" y1="${TOP}" x2="${tx}" y2="${axis}" stroke="#e5e7eb"/>`,
      `<text x="${tx}" y="${axis + 16}" text-anchor="middle" font-size="11">${tick * 10}%</text>`,
    );
  }
  parts.push(`<line x1="${LEFT}" y1="${axis}" x2="${WIDTH - RIGHT}" y2="${axis}" stroke="#111"/>`);
  report.arms.forEach((arm, index) => {
    const color = COLORS[index % COLORS.length] as string;
    const cy = TOP + index * ROW + ROW / 2;
    const rate = arm.successRate;
    parts.push(
      `<g class="arm" data-arm="${escapeHtml(arm.id)}">`,
      `<text x="${LEFT - 10}" y="${cy + 4}" text-anchor="end" font-size="12">${escapeHtml(short(arm.label))}</text>`,
      `<line x1="${x(rate.low)}" y1="${cy}" x2="${x(rate.high)}" y2="${cy}" stroke="${color}" stroke-width="2"/>`,
      `<line x1="${x(rate.low)}" y1="${cy - 6}" x2="${x(rate.low)}" y2="${cy + 6}" stroke="${color}" stroke-width="2"/>`,
      `<line x1="${x(rate.high)}" y1="${cy - 6}" x2="${x(rate.high)}" y2="${cy + 6}" stroke="${color}" stroke-width="2"/>`,
      `<circle cx="${x(rate.estimate)}" cy="${cy}" r="5" fill="${color}"/>`,
      `<text x="${WIDTH - RIGHT + 8}" y="${cy + 4}" font-size="12">${percent(rate.estimate)} (${percent(rate.low)} to ${percent(rate.high)})</text>`,
      '</g>',
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

/** USD per success per arm, as bars; an arm without a success says so. */
export function renderCostChart(report: EvalReport): string {
  const { height, parts } = frame('cost-chart-title', 'USD per success', report.arms.length);
  const max = Math.max(0, ...report.arms.map((arm) => arm.costPerSuccess ?? 0)) || 1;
  const x = (usd: number): number => round(LEFT + (usd / max) * (WIDTH - LEFT - RIGHT));
  const axis = height - BOTTOM;
  parts.push(`<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${axis}" stroke="#111"/>`);
  report.arms.forEach((arm, index) => {
    const color = COLORS[index % COLORS.length] as string;
    const y = TOP + index * ROW + 6;
    const cost = arm.costPerSuccess;
    parts.push(
      `<g class="cost" data-arm="${escapeHtml(arm.id)}">`,
      `<text x="${LEFT - 10}" y="${y + 15}" text-anchor="end" font-size="12">${escapeHtml(short(arm.label))}</text>`,
    );
    if (cost === null)
      parts.push(`<text x="${LEFT + 8}" y="${y + 15}" font-size="12">no success</text>`);
    else
      parts.push(
        `<rect x="${LEFT}" y="${y}" width="${Math.max(1, x(cost) - LEFT)}" height="${ROW - 12}" fill="${color}"/>`,
        `<text x="${x(cost) + 8}" y="${y + 15}" font-size="12">${escapeHtml(dollars(cost))}</text>`,
      );
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('');
}

function table(item: Extract<ReportBlock, { kind: 'table' }>): string {
  const cell = (tag: 'th' | 'td', text: string, index: number): string =>
    `<${tag}${item.numeric[index] === true ? ' class="num"' : ''}>${escapeHtml(text)}</${tag}>`;
  const head = item.head.map((text, index) => cell('th', text, index)).join('');
  const body = item.rows
    .map((row) => `<tr>${row.map((text, index) => cell('td', text, index)).join('')}</tr>`)
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function block(item: ReportBlock, report: EvalReport): string {
  switch (item.kind) {
    case 'title':
      return `<h1>${escapeHtml(item.text)}</h1>`;
    case 'heading':
      return `<h2>${escapeHtml(item.text)}</h2>`;
    case 'verdict':
      return `<p class="verdict">${escapeHtml(item.text)}</p>`;
    case 'paragraph':
      return `<p>${escapeHtml(item.text)}</p>`;
    case 'table':
      return table(item);
    case 'charts':
      return `<figure>${renderRateChart(report)}</figure><figure>${renderCostChart(report)}</figure>`;
    default: {
      const unknown: never = item;
      throw new Error(`renderHtml: unknown block ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The report as one self-contained HTML page: inline CSS, two inline SVG charts (success rate
 * per arm with its 95% interval, and USD per success), the verdict, the tables and the method.
 * Config text lands only in escaped text nodes and attributes. No script and no external asset,
 * so it opens anywhere and can be attached to a pull request.
 *
 * @public
 */
export function renderHtml(report: EvalReport): string {
  const body = reportDocument(report).map((item) => block(item, report));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Eval report: ${report.name}`)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#111}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
th,td{border:1px solid #d1d5db;padding:.3rem .5rem;text-align:left}
th{background:#f3f4f6}
.num{text-align:right}
.verdict{font-weight:600;border-left:4px solid #2563eb;padding-left:.6rem}
figure{margin:1rem 0}
</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}
