// `npm run build`'s last step: inlines each exported page's critical CSS (lib/build/critical-css.ts).
import { inlineCriticalCss } from '../lib/build/critical-css.js';

const outDir = process.argv[2] ?? 'out';
inlineCriticalCss(outDir).then(
  (changed) => console.log(`critical CSS inlined in ${changed} pages of ${outDir}/`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
