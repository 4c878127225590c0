import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvalReport } from './build-report.ts';
import { renderHtml } from './render-html.ts';
import { renderMarkdown } from './render-markdown.ts';

/** The paths {@link writeReports} wrote. @public */
export interface ReportFiles {
  /** `report.json`. */
  readonly json: string;
  /** `report.md`. */
  readonly markdown: string;
  /** `report.html`. */
  readonly html: string;
}

/**
 * Writes `report.json`, `report.md` and `report.html` into `directory` (created if missing).
 *
 * @public
 */
export async function writeReports(report: EvalReport, directory: string): Promise<ReportFiles> {
  await mkdir(directory, { recursive: true });
  const files = {
    json: join(directory, 'report.json'),
    markdown: join(directory, 'report.md'),
    html: join(directory, 'report.html'),
  };
  await writeFile(files.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files.markdown, renderMarkdown(report));
  await writeFile(files.html, renderHtml(report));
  return files;
}
