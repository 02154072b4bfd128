// `npx tsx scripts/first-load-js.ts [out]`: first-load JS (gzip) of every exported page, and exit 1
// when a public page is over its budget (lib/build/first-load-js.ts).
import { budgetKb, firstLoadJs, isPublicRoute, overBudget } from '../lib/build/first-load-js.js';

const pages = firstLoadJs(process.argv[2] ?? 'out');
for (const page of pages) {
  const limit = isPublicRoute(page.route) ? `/ ${budgetKb(page.route)} KB` : '';
  console.log(
    `${(page.gzipBytes / 1000).toFixed(1).padStart(7)} KB ${limit.padEnd(9)} ${page.route}`,
  );
}
const over = overBudget(pages);
for (const page of over) {
  console.error(
    `over budget: ${page.route} ${(page.gzipBytes / 1000).toFixed(1)} KB > ${page.budgetKb} KB`,
  );
}
process.exit(over.length ? 1 : 0);
