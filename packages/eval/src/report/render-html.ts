import type { EvalReport } from './build-report.ts';
import { dollars, percent, renderMarkdown } from './render-markdown.ts';

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2'];

/** The chart: success rate (with its Wilson interval) against mean USD per trial, per arm. */
export function renderChart(report: EvalReport): string {
  const width = 640;
  const height = 360;
  const left = 70;
  const right = 20;
  const top = 20;
  const bottom = 50;
  const maxUsd = Math.max(...report.arms.map((arm) => arm.usd.mean), 0) || 1;
  const x = (usd: number): number => left + (usd / (maxUsd * 1.15)) * (width - left - right);
  const y = (rate: number): number => top + (1 - rate) * (height - top - bottom);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Success rate against mean cost per trial, with 95% intervals">`,
  );
  for (let tick = 0; tick <= 10; tick += 2) {
    const ty = y(tick / 10);
    parts.push(
      `<line x1="${left}" y1="${ty}" x2="${width - right}" y2="${ty}" stroke="#e5e7eb"/>`,
      `<text x="${left - 8}" y="${ty + 4}" text-anchor="end" font-size="11">${tick * 10}%</text>`,
    );
  }
  for (let tick = 0; tick <= 4; tick++) {
    const usd = (maxUsd * 1.15 * tick) / 4;
    const tx = x(usd);
    parts.push(
      `<text x="${tx}" y="${height - bottom + 18}" text-anchor="middle" font-size="11">${escapeHtml(dollars(usd))}</text>`,
    );
  }
  parts.push(
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#111"/>`,
    `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#111"/>`,
    `<text x="${(left + width - right) / 2}" y="${height - 10}" text-anchor="middle" font-size="12">Mean USD per trial</text>`,
    `<text x="16" y="${(top + height - bottom) / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 16 ${(top + height - bottom) / 2})">Success rate (95% Wilson CI)</text>`,
  );
  report.arms.forEach((arm, index) => {
    const color = COLORS[index % COLORS.length] as string;
    const cx = x(arm.usd.mean);
    const rate = arm.successRate;
    parts.push(
      `<g class="arm" data-arm="${escapeHtml(arm.id)}">`,
      `<line x1="${cx}" y1="${y(rate.low)}" x2="${cx}" y2="${y(rate.high)}" stroke="${color}" stroke-width="2"/>`,
      `<line x1="${cx - 6}" y1="${y(rate.low)}" x2="${cx + 6}" y2="${y(rate.low)}" stroke="${color}" stroke-width="2"/>`,
      `<line x1="${cx - 6}" y1="${y(rate.high)}" x2="${cx + 6}" y2="${y(rate.high)}" stroke="${color}" stroke-width="2"/>`,
      `<circle cx="${cx}" cy="${y(rate.estimate)}" r="5" fill="${color}"/>`,
      `<text x="${cx + 10}" y="${y(rate.estimate) + 4}" font-size="12" fill="${color}">${escapeHtml(arm.label)} ${percent(rate.estimate)}</text>`,
      '</g>',
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

function table(markdownTable: string[]): string {
  const rows = markdownTable.map((line) =>
    line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim()),
  );
  const [head, , ...body] = rows;
  const th = (head ?? []).map((cell) => `<th>${escapeHtml(cell)}</th>`).join('');
  const tr = body
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

/**
 * The report as one self-contained HTML page: inline CSS and an inline SVG chart of success
 * rate (with its 95% interval bar) against mean cost per arm, the verdict and the tables. No
 * script and no external asset, so it opens anywhere and can be attached to a pull request.
 *
 * @public
 */
export function renderHtml(report: EvalReport): string {
  // The tables are the markdown's, so the two outputs never disagree.
  const markdown = renderMarkdown(report).split('\n');
  const body: string[] = [];
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0) body.push(table(pending));
    pending = [];
  };
  for (const line of markdown) {
    if (line.startsWith('|')) {
      pending.push(line);
      continue;
    }
    flush();
    if (line.startsWith('# ')) {
      body.push(`<h1>${escapeHtml(line.slice(2))}</h1>`);
    } else if (line.startsWith('## ')) {
      const title = line.slice(3);
      body.push(`<h2>${escapeHtml(title)}</h2>`);
      if (title === 'Arms') body.push(`<figure>${renderChart(report)}</figure>`);
    } else if (line.startsWith('- ')) {
      body.push(`<p class="verdict">${escapeHtml(line.slice(2))}</p>`);
    } else if (line.length > 0) {
      body.push(`<p>${escapeHtml(line)}</p>`);
    }
  }
  flush();
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
