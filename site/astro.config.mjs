import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

/**
 * The public site: report, subject, browse, methodology and export pages,
 * built statically from the data the site-build job hands over (see build.ts),
 * plus one on-demand route (/live) that renders the same page components from
 * data passed in `locals`: @astrojs/node in middleware mode, loaded by the API
 * and by incremental builds (core/site/renderer.ts).
 *
 * No client JavaScript at all, and every stylesheet is a file (never inline),
 * so the pages run under `script-src 'none'; style-src 'self'`.
 */
export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never', assets: '_astro' },
  compressHTML: true,
  prefetch: false,
  devToolbar: { enabled: false },
});
