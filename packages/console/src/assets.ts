import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '@spam-check/service-kit';
import type { RequestHandler } from 'express';

/** Static files: the console's scripts (the chart, the Review page's keys) and style, and uPlot from node_modules (no CDN). */
const ASSET_FILES: Record<string, { file: string; type: string }> = {
  'console.js': { file: join(__dirname, '../public/console.js'), type: 'text/javascript' },
  'review.js': { file: join(__dirname, '../public/review.js'), type: 'text/javascript' },
  'console.css': { file: join(__dirname, '../public/console.css'), type: 'text/css' },
  'uPlot.iife.min.js': { file: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript' },
  'uPlot.min.css': { file: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css' },
};

/** `GET /console/assets/:file` (never under a language prefix). Read once: a missing file fails the start. */
export function assetRoute(): RequestHandler {
  const assets = new Map(
    Object.entries(ASSET_FILES).map(([name, { file, type }]) => [name, { type, bytes: readFileSync(file) }]),
  );
  return (req, res, next) => {
    const asset = assets.get((req.params as { file?: string }).file ?? '');
    if (!asset || (req.params as { lang?: string }).lang !== undefined)
      return next(new AppError('NOT_FOUND'));
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' }).send(asset.bytes);
  };
}
