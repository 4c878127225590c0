/**
 * What `npm run bench` leaves behind: `bench/results.json` (every median, ratio and verdict of
 * the run, with the date and machine), `bench/results.md` (the same as markdown tables) and
 * `docs/images/bench-growth.svg` (the growth curves as small line charts, the figure in
 * docs/performance.md). A run filtered by words writes `bench/last-run.*` instead, so a partial
 * run never replaces the full report.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One row of the comparison table. */
export interface CaseResult {
  readonly suite: string;
  readonly name: string;
  readonly what: string;
  /** Median milliseconds per operation. */
  readonly plankitMs: number;
  readonly baselineMs: number;
  readonly ratio: number;
  /** The target as printed, or `-` for none. */
  readonly target: string;
  readonly result: 'PASS' | 'WARN' | '-';
  readonly samples: { readonly plankit: number; readonly baseline: number };
}

/** One growth check: how much slower the larger input is. */
export interface GrowthResult {
  readonly name: string;
  readonly plankit: number;
  readonly baseline: number;
  readonly factor: number;
  readonly result: 'PASS' | 'WARN';
}

/** One counted row (calls, tokens): deterministic, not timed. */
export interface CountResult {
  readonly suite: string;
  readonly name: string;
  readonly what: string;
  readonly plankit: number;
  readonly baseline: number;
  readonly ratio: number;
  readonly target: string;
  readonly result: 'PASS' | 'WARN' | '-';
}

/** One curve: median time per input size, for the chart. */
export interface CurveResult {
  readonly name: string;
  /** What x counts, for the axis label. */
  readonly xLabel: string;
  readonly points: readonly { readonly x: number; readonly ms: number }[];
}

/** Everything one run measured. */
export interface BenchReport {
  readonly date: string;
  readonly machine: {
    readonly node: string;
    readonly platform: string;
    readonly cpu: string;
    readonly cores: number;
  };
  readonly method: string;
  /** The words the run was filtered by; empty for a full run. */
  readonly filter: readonly string[];
  readonly cases: readonly CaseResult[];
  readonly growth: readonly GrowthResult[];
  readonly counts: readonly CountResult[];
  readonly curves: readonly CurveResult[];
}

/** A ratio as the tables print it: `1.23x`. */
export const formatRatio = (value: number): string => `${value.toFixed(2)}x`;

/** Milliseconds in the unit that reads best: ns, µs or ms. */
export function formatTime(ms: number): string {
  const us = ms * 1000;
  if (us < 1) return `${(us * 1000).toFixed(0)} ns`;
  if (us < 1000) return `${us.toPrecision(3)} µs`;
  return `${ms.toPrecision(3)} ms`;
}

const cell = (text: string): string => text.replaceAll('|', '\\|');

/** The report as markdown: a header with date and machine, then the two tables. */
export function reportMarkdown(report: BenchReport): string {
  const lines = [
    '# plankit benchmark results',
    '',
    `- date: ${report.date}`,
    `- machine: ${report.machine.cpu}, ${report.machine.cores} cores; Node ${report.machine.node} (${report.machine.platform})`,
    `- method: ${report.method}`,
    `- run: ${report.filter.length === 0 ? 'full' : `filtered by ${report.filter.join(', ')}`}`,
    '',
    '| suite | operation | plankit p50 | baseline p50 | ratio | target | result |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |',
    ...report.cases.map(
      (row) =>
        `| ${cell(row.suite)} | ${cell(row.name)} | ${formatTime(row.plankitMs)} | ${formatTime(row.baselineMs)} | ${formatRatio(row.ratio)} | ${cell(row.target)} | ${row.result} |`,
    ),
  ];
  if (report.growth.length > 0) {
    lines.push(
      '',
      '| growth | plankit | baseline | target | result |',
      '| --- | ---: | ---: | --- | --- |',
      ...report.growth.map(
        (row) =>
          `| ${cell(row.name)} | ${formatRatio(row.plankit)} | ${formatRatio(row.baseline)} | <= ${row.factor}x | ${row.result} |`,
      ),
    );
  }
  if (report.counts.length > 0) {
    lines.push(
      '',
      '| count | plankit | baseline | ratio | target | result |',
      '| --- | ---: | ---: | ---: | --- | --- |',
      ...report.counts.map(
        (row) =>
          `| ${cell(row.name)} | ${row.plankit} | ${row.baseline} | ${formatRatio(row.ratio)} | ${cell(row.target)} | ${row.result} |`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

const xml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function compact(x: number): string {
  if (x >= 1024 * 1024 && x % (1024 * 1024) === 0) return `${x / (1024 * 1024)} MiB`;
  if (x >= 1024 && x % 1024 === 0) return `${x / 1024} KiB`;
  if (x >= 1000) return `${x / 1000}k`;
  return String(x);
}

/**
 * The curves as an SVG of small multiples, one panel per curve: x is the input size on a log
 * scale, y the median time relative to the smallest input (1x is flat, the dashed line is
 * linear growth), so curves of different units share one scale.
 */
export function growthSvg(report: BenchReport): string {
  const curves = report.curves.filter((curve) => curve.points.length >= 2);
  const columns = 3;
  const width = 300;
  const height = 200;
  const rows = Math.max(1, Math.ceil(curves.length / columns));
  const total = { w: columns * width, h: rows * height + 40 };
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total.w} ${total.h}" width="${total.w}" height="${total.h}" font-family="sans-serif" font-size="11">`,
    '<title>plankit growth curves: median time relative to the smallest input</title>',
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="13" font-weight="bold">Growth: median time relative to the smallest input (log-log; dashed = linear)</text>`,
    `<text x="10" y="34" fill="#555">${xml(`${report.date.slice(0, 10)}, ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}`)}</text>`,
  ];
  curves.forEach((curve, index) => {
    const ox = (index % columns) * width;
    const oy = 40 + Math.floor(index / columns) * height;
    const plot = { x: ox + 45, y: oy + 25, w: width - 65, h: height - 65 };
    const first = curve.points[0] as { x: number; ms: number };
    const xs = curve.points.map((point) => Math.log10(point.x / first.x));
    const ys = curve.points.map((point) => point.ms / first.ms);
    const xMax = Math.max(...xs, 1e-9);
    const linearMax = 10 ** xMax;
    const yMax = Math.log10(Math.max(...ys, linearMax, 2));
    const px = (lx: number): number => plot.x + (lx / xMax) * plot.w;
    const py = (ratioValue: number): number =>
      plot.y + plot.h - (Math.log10(Math.max(ratioValue, 1e-3)) / yMax) * plot.h;
    parts.push(
      `<text x="${ox + 10}" y="${oy + 15}" font-weight="bold">${xml(curve.name)}</text>`,
      `<rect x="${plot.x}" y="${plot.y}" width="${plot.w}" height="${plot.h}" fill="none" stroke="#ccc"/>`,
      `<line x1="${px(0)}" y1="${py(1)}" x2="${px(xMax)}" y2="${py(linearMax)}" stroke="#999" stroke-dasharray="4 3"/>`,
      `<text x="${plot.x - 4}" y="${py(1) + 4}" text-anchor="end">1x</text>`,
      `<text x="${plot.x - 4}" y="${plot.y + 8}" text-anchor="end">${formatRatio(10 ** yMax).replace('.00', '')}</text>`,
      `<text x="${plot.x + plot.w / 2}" y="${plot.y + plot.h + 28}" text-anchor="middle" fill="#555">${xml(curve.xLabel)}</text>`,
    );
    const path = curve.points
      .map(
        (_, i) => `${i === 0 ? 'M' : 'L'}${px(xs[i] ?? 0).toFixed(1)},${py(ys[i] ?? 1).toFixed(1)}`,
      )
      .join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="#1f6feb" stroke-width="2"/>`);
    curve.points.forEach((point, i) => {
      const x = px(xs[i] ?? 0);
      const y = py(ys[i] ?? 1);
      parts.push(
        `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3" fill="#1f6feb"/>`,
        `<text x="${x.toFixed(1)}" y="${(plot.y + plot.h + 14).toFixed(1)}" text-anchor="middle">${xml(compact(point.x))}</text>`,
        `<text x="${x.toFixed(1)}" y="${(y - 6).toFixed(1)}" text-anchor="middle" fill="#1f6feb">${formatRatio(ys[i] ?? 1)}</text>`,
      );
    });
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** Writes the report's files under `root`; returns the paths written. */
export async function writeBenchReport(root: string, report: BenchReport): Promise<string[]> {
  const full = report.filter.length === 0;
  const base = path.join(root, 'bench', full ? 'results' : 'last-run');
  await mkdir(path.dirname(base), { recursive: true });
  const written = [`${base}.json`, `${base}.md`];
  await writeFile(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(`${base}.md`, reportMarkdown(report));
  if (report.curves.some((curve) => curve.points.length >= 2)) {
    const svg = full
      ? path.join(root, 'docs', 'images', 'bench-growth.svg')
      : path.join(root, 'bench', 'last-run-growth.svg');
    await mkdir(path.dirname(svg), { recursive: true });
    await writeFile(svg, growthSvg(report));
    written.push(svg);
  }
  return written;
}
