// `npx tsx scripts/first-load-js.ts [out]`: first-load JS (gzip) of every exported page, and exit 1
// when a public page is over its budget, or a known gap grew or closed (lib/build/first-load-js.ts).
import {
  budgetKb,
  budgetProblems,
  firstLoadJs,
  isPublicRoute,
  overBudget,
} from '../lib/build/first-load-js.js';

const pages = firstLoadJs(process.argv[2] ?? 'out');
for (const page of pages) {
  const limit = isPublicRoute(page.route) ? `/ ${budgetKb(page.route)} KB` : '';
  console.log(
    `${(page.gzipBytes / 1000).toFixed(1).padStart(7)} KB ${limit.padEnd(9)} ${page.route}`,
  );
}
for (const page of overBudget(pages)) {
  console.error(
    `over budget: ${page.route} ${(page.gzipBytes / 1000).toFixed(1)} KB > ${page.budgetKb} KB`,
  );
}
const problems = budgetProblems(pages);
for (const p of problems) {
  console.error(
    `FAIL ${p.route} ${(p.gzipBytes / 1000).toFixed(1)} KB: ${p.problem} (${p.limitKb} KB)`,
  );
}
process.exit(problems.length ? 1 : 0);
