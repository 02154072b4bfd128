// CSV import and export on /admin/subscribers/ in Chromium against the e2e emulator (issue 6): the
// owner imports 1,000 rows with a few bad ones and watches the live progress reach 100 %, reads the
// skipped rows by line, filters, exports the filtered set and reads the downloaded file; a file
// without an `email` header is mapped by hand; an export runs without Realtime; viewers and editors
// get no import or export.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { createTeamUser, insertRows, signInWithPassword } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

/** A private single opt-in list of this test only. */
async function createList(tag: string): Promise<{ id: string; slug: string; name: string }> {
  const [list] = await insertRows<{ id: string; slug: string; name: string }>('lists', [
    { slug: `import-${tag}`, name: `Import ${tag}`, visibility: 'private', optin: 'single' },
  ]);
  return list!;
}

/** Data row i (1-based) is on physical line i + 1. */
const BAD_ROWS: Record<number, { row: (tag: string) => string; line: number; reason: string }> = {
  11: { row: () => 'not-an-address,Bad One,Oslo', line: 12, reason: 'invalid email address' },
  501: { row: () => ',No Address,Oslo', line: 502, reason: 'missing email address' },
  701: {
    row: (tag) => `p0001-${tag}@example.com,Again,Oslo`,
    line: 702,
    reason: 'duplicate address in the file',
  },
  901: { row: (tag) => `p0901-${tag}@example.com,Too,Many,Columns`, line: 902, reason: 'columns' },
};

function thousandRows(tag: string): string {
  const lines = ['email,name,city'];
  for (let i = 1; i <= 1000; i++) {
    const bad = BAD_ROWS[i];
    lines.push(
      bad
        ? bad.row(tag)
        : `p${String(i).padStart(4, '0')}-${tag}@example.com,Person ${i},City ${i % 7}`,
    );
  }
  return lines.join('\n') + '\n';
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Import subscribers from CSV' });
const summary = (page: Page) => page.getByRole('navigation', { name: 'Pages' });

test('the owner imports 1,000 rows live, reads the skipped lines, filters and exports', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const list = await createList(tag);
  const file = testInfo.outputPath('contacts.csv');
  writeFileSync(file, thousandRows(tag));

  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/subscribers/');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await expect(dialog(page)).toBeVisible();

  // Nothing chosen: the form says what is missing before anything is sent.
  await dialog(page).getByRole('button', { name: 'Start import' }).click();
  await expect(dialog(page).getByText('Choose a CSV file.')).toBeVisible();
  await expect(dialog(page).getByText('Choose at least one list.')).toBeVisible();

  await dialog(page).getByLabel('CSV file').setInputFiles(file);
  await expect(dialog(page).getByText(/1,000 rows · comma-separated · 3 columns/)).toBeVisible();
  await expect(dialog(page).getByLabel('Email column')).toHaveValue('0');
  await expect(dialog(page).getByLabel('Name column')).toHaveValue('1');
  const mapping = dialog(page).getByRole('region', { name: 'How each column is imported' });
  await expect(mapping.getByRole('row', { name: 'city Attribute “city”' })).toBeVisible();
  const head = dialog(page).getByRole('region', { name: 'First 5 rows of the file' });
  await expect(head).toContainText(`p0001-${tag}@example.com`);
  await dialog(page).getByLabel(`${list.name} (private)`).check();
  await dialog(page).getByLabel('Imported addresses are').selectOption('confirmed');
  await expectNoAxeViolations(page, 'import preview');
  await screenshotsAtBothWidths(page, 'import-preview');

  await dialog(page).getByRole('button', { name: 'Start import' }).click();
  const bar = dialog(page).getByRole('progressbar', { name: 'Import progress' });
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 });
  await expect(
    dialog(page).getByText('Import finished: 996 added, 0 updated, 4 skipped.'),
  ).toBeVisible();
  const skipped = dialog(page).getByRole('region', { name: 'Rows skipped' });
  for (const bad of Object.values(BAD_ROWS)) {
    await expect(skipped.getByRole('row').filter({ hasText: String(bad.line) })).toContainText(
      bad.reason,
    );
  }
  await expect(skipped.getByRole('row')).toHaveCount(5);
  await expectNoAxeViolations(page, 'import finished');
  await screenshotsAtBothWidths(page, 'import-finished');

  // "Show the list" filters the table by the import's list; a search narrows it to p0100–p0199.
  await dialog(page).getByRole('button', { name: 'Show the list' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByLabel('List')).toHaveValue(list.id);
  await expect(summary(page)).toContainText('1–50 of 996 matching subscribers');
  await page.getByLabel('Search').fill('p01');
  await expect(summary(page)).toContainText('1–50 of 100 matching subscribers');
  await expect(page).toHaveURL(new RegExp(`list=${list.slug}.*q=p01|q=p01.*list=${list.slug}`));

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const saved = testInfo.outputPath('export.csv');
  await (await download).saveAs(saved);
  await expect(page.getByText('Exported 100 matching subscribers.')).toBeVisible();
  const records = parse(readFileSync(saved, 'utf8'), { columns: true }) as Array<
    Record<string, string>
  >;
  expect(records).toHaveLength(100);
  for (const record of records) {
    expect(record.email).toMatch(new RegExp(`^p01\\d\\d-${tag}@example\\.com$`));
    expect(record.lists).toBe(`${list.slug}:confirmed`);
    expect(JSON.parse(record.attributes!)).toMatchObject({ city: expect.stringMatching(/^City /) });
  }
  await expectNoAxeViolations(page, 'exported');
  await screenshotsAtBothWidths(page, 'subscribers-exported');

  // A link with ?list=<slug>&status= (the dashboard's per-list counts) lands filtered.
  await page.goto(`/admin/subscribers/?list=${list.slug}&status=confirmed`);
  await expect(page.getByLabel('List')).toHaveValue(list.id);
  await expect(page.getByLabel('Subscription')).toHaveValue('confirmed');
  await expect(summary(page)).toContainText('1–50 of 996 matching subscribers');
});

test('an export of several pages shows the rows written while it runs', async ({ page }) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  for (let chunk = 0; chunk < 4; chunk++) {
    await insertRows(
      'subscribers',
      Array.from({ length: 5000 }, (_, i) => ({
        email: `big${chunk * 5000 + i}-${tag}@example.com`,
        name: `Reader ${chunk * 5000 + i}`,
      })),
    );
  }
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, `/admin/subscribers/?q=${tag}`);
  await expect(summary(page)).toContainText('1–50 of 20,000 matching subscribers');
  // Every value the export's progress bar showed, however briefly it was on screen.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { exportProgress: string[] }).exportProgress = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Export progress"]');
      const text = bar?.getAttribute('aria-valuetext');
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await download;
  await expect(page.getByText('Exported 20,000 matching subscribers.')).toBeVisible();
  const seen = await page.evaluate(
    () => (window as unknown as { exportProgress: string[] }).exportProgress,
  );
  // An empty bar until the function reports its first page of 5,000, which it does at once, long
  // before the last one is written.
  expect(seen[0]).toBe('0 %, Preparing 20,000 rows…');
  expect(seen[1]).toBe('25 %, 5,000 of 20,000 rows');
  for (const text of seen.slice(1)) expect(text).toMatch(/^\d+ %, [\d,]+ of 20,000 rows$/);
});

test('an export runs without Realtime: a progress channel that never joins only delays it', async ({
  page,
}, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  await insertRows(
    'subscribers',
    [1, 2, 3].map((i) => ({ email: `quiet${i}-${tag}@example.com`, name: `Quiet ${i}` })),
  );
  // Every Realtime socket of the page opens and then hears nothing: no join reply, no broadcast.
  let sockets = 0;
  await page.routeWebSocket(/\/realtime\/v1\/websocket/, () => {
    sockets += 1;
  });
  await page.clock.install();
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, `/admin/subscribers/?q=${tag}`);
  await expect(summary(page)).toContainText('1–3 of 3 matching subscribers');
  // The page's timers stand still from here: Realtime's own join timeout (10 s) never fires, so
  // only the export's 2 s wait for its channel can let it start.
  await page.clock.pauseAt(Date.now() + 1_000);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute(
    'aria-valuetext',
    '0 %, Preparing 3 rows…',
  );
  // The running state holds still here: it fits both widths (axe needs the page's timers).
  await screenshotsAtBothWidths(page, 'subscribers-export-running');
  await page.clock.runFor(2_000);
  const saved = testInfo.outputPath('quiet.csv');
  await (await download).saveAs(saved);
  await expect(page.getByText('Exported 3 matching subscribers.')).toBeVisible();
  const records = parse(readFileSync(saved, 'utf8'), { columns: true }) as Array<
    Record<string, string>
  >;
  expect(records.map((r) => r.email).sort()).toEqual(
    [1, 2, 3].map((i) => `quiet${i}-${tag}@example.com`),
  );
  expect(sockets).toBeGreaterThan(0);
});

test('a file without an "email" header is mapped by hand; other files are refused first', async ({
  page,
}, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  const list = await createList(tag);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/subscribers/');
  await page.getByRole('button', { name: 'Import CSV' }).click();

  const notCsv = testInfo.outputPath('contacts.txt');
  writeFileSync(notCsv, 'email\na@example.com\n');
  await dialog(page).getByLabel('CSV file').setInputFiles(notCsv);
  await expect(dialog(page).getByText('Choose a .csv file.')).toBeVisible();

  const file = testInfo.outputPath('mapped.csv');
  writeFileSync(
    file,
    `E-mail;Who;email\nm1-${tag}@example.com;Mapped One;old\nm2-${tag}@example.com;Mapped Two;\n`,
  );
  await dialog(page).getByLabel('CSV file').setInputFiles(file);
  await expect(dialog(page).getByText(/2 rows · semicolon-separated · 3 columns/)).toBeVisible();
  // The file has a column literally named email (the third): by default that one is used.
  await expect(dialog(page).getByLabel('Email column')).toHaveValue('2');
  await dialog(page).getByLabel('Email column').selectOption({ label: 'E-mail' });
  await dialog(page).getByLabel('Name column').selectOption({ label: 'Who' });
  await expect(
    dialog(page).getByRole('region', { name: 'How each column is imported' }),
  ).toContainText('Attribute “email (column 3)”');
  await dialog(page).getByLabel(`${list.name} (private)`).check();
  await dialog(page).getByLabel('Imported addresses are').selectOption('pending');
  // The same dialog in the dark scheme: the CSS variables switch, contrast still holds.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, 'mapped preview (dark)');
  await page.screenshot({ path: 'test-results/admin-import-mapped-dark-1280.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await dialog(page).getByRole('button', { name: 'Start import' }).click();
  await expect(
    dialog(page).getByText('Import finished: 2 added, 0 updated, 0 skipped.'),
  ).toBeVisible({
    timeout: 30_000,
  });
  await dialog(page).getByRole('button', { name: 'Import another file' }).click();
  await expect(dialog(page).getByLabel('CSV file')).toHaveValue('');
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`/admin/subscribers/?list=${list.id}&status=pending&q=m1-${tag}`);
  const row = page
    .getByRole('region', { name: /^Subscribers, page/ })
    .getByRole('row')
    .nth(1);
  await expect(row).toContainText(`m1-${tag}@example.com`);
  await expect(row).toContainText('Mapped One');
  await expect(summary(page)).toContainText('1–1 of 1 matching subscribers');
});

test('a file of several batches shows each committed batch live, then 100 %', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const tag = randomUUID().slice(0, 8);
  const list = await createList(tag);
  const file = testInfo.outputPath('batches.csv');
  // 12,001 rows: three batches of 5,000 (SPEC §9) and one of a single row.
  const rows = Array.from({ length: 12_001 }, (_, i) => `b${i}-${tag}@example.com,B ${i}`);
  writeFileSync(file, ['email,name', ...rows].join('\n') + '\n');
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/subscribers/');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await dialog(page).getByLabel('CSV file').setInputFiles(file);
  await expect(dialog(page).getByText(/12,001 rows/)).toBeVisible();
  await dialog(page).getByLabel(`${list.name} (private)`).check();
  // Every value either bar takes is recorded as the page renders it.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('[role=progressbar]')) {
        seen.push(`${bar.getAttribute('aria-label')}:${bar.getAttribute('aria-valuenow')}`);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await dialog(page).getByRole('button', { name: 'Start import' }).click();
  const bar = dialog(page).getByRole('progressbar', { name: 'Import progress' });
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 150_000 });
  await expect(
    dialog(page).getByText('Import finished: 12,001 added, 0 updated, 0 skipped.'),
  ).toBeVisible();
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  const values = (label: string) => [
    ...new Set(seen.filter((s) => s.startsWith(`${label}:`)).map((s) => Number(s.split(':')[1]))),
  ];
  // Batches arrive one by one: 41 % (5,000 rows) and 83 % (10,000) show before 100 %.
  expect(values('Import progress')).toEqual(expect.arrayContaining([41, 83, 100]));
  // The upload bar showed first (on a local link it may go from 0 to done between two frames).
  expect(values('Upload').length).toBeGreaterThan(0);
});

for (const role of ['viewer', 'editor'] as const) {
  test(`a ${role} is offered no import or export`, async ({ page }) => {
    const member = await createTeamUser(role);
    await signInWithPassword(page, member, '/admin/subscribers/?status=confirmed');
    await expect(page.getByLabel('Subscription')).toHaveValue('confirmed');
    await expect(
      page.getByText('Importing and exporting subscribers is for admins and owners.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import CSV' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);
    await expectNoAxeViolations(page, `${role} subscribers`);
  });
}
