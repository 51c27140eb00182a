import { publicNewsPageSchema } from '@sf/contract/news';
import { EDITOR, signIn } from './support/auth.ts';
import { expect, preferEnglish, test } from './support/fixtures.ts';

test('an editor writes, schedules and publishes a post, and it appears in GET /api/public/news', async ({ page, request }) => {
  const title = `Weekend double points ${Date.now()}`;
  const publicNews = async () => {
    const response = await request.get('/api/public/news', { params: { pageSize: 50 } });
    expect(response.status()).toBe(200);
    // Parsed with the contract's schema: the customers' app relies on exactly this shape.
    return publicNewsPageSchema.parse(await response.json()).items;
  };

  await preferEnglish(page);
  await signIn(page, EDITOR, { language: 'en' });
  await expect(page).toHaveURL(/\/news$/);

  // Write.
  await page.getByRole('link', { name: 'New post', exact: true }).click();
  await expect(page).toHaveURL(/\/news\?post=new$/);
  const editor = page.getByRole('dialog', { name: 'New post' });
  await editor.getByRole('textbox', { name: /^Title/ }).fill(title);
  await editor.getByRole('textbox', { name: /^Summary/ }).fill('Every purchase counts twice this weekend.');
  const body = editor.getByRole('textbox', { name: 'Text' });
  await body.click();
  await body.pressSequentially('Show your card at the till. ');
  await editor.getByRole('button', { name: 'Bold' }).click();
  await body.pressSequentially('Double points');
  await editor.getByRole('button', { name: 'Bold' }).click();
  await body.pressSequentially(' on every purchase.');

  // Schedule: the editor proposes the next full hour in the user's time zone.
  await editor.getByText('Schedule for', { exact: true }).click();
  await expect(editor.getByRole('button', { name: /^Publish on/ })).toBeVisible();
  await editor.getByRole('button', { name: 'Schedule', exact: true }).click();
  const confirmSchedule = page.getByRole('dialog', { name: 'Schedule this post?' });
  await expect(confirmSchedule).toContainText(title);
  await confirmSchedule.getByRole('button', { name: 'Schedule', exact: true }).click();

  await expect(page).toHaveURL(/\/news\?post=\d+$/);
  const saved = page.getByRole('dialog', { name: 'Edit post' });
  await expect(saved.getByText('Scheduled', { exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: `“${title}” is scheduled.` })).toBeVisible();
  expect((await publicNews()).map((item) => item.title), 'a scheduled post is not public yet').not.toContain(title);

  // Publish now.
  await saved.getByText('Publish now', { exact: true }).click();
  await saved.getByRole('button', { name: 'Publish now', exact: true }).click();
  const confirmPublish = page.getByRole('dialog', { name: 'Publish this post?' });
  await confirmPublish.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(saved.getByText('Published', { exact: true })).toBeVisible();

  const published = (await publicNews()).find((item) => item.title === title);
  expect(published, 'the published post is in the public news').toBeDefined();
  expect(published?.summary).toBe('Every purchase counts twice this weekend.');
  expect(published?.body).toContain('<strong>Double points</strong>');

  // Back in the list, the post shows as published.
  await saved.getByRole('button', { name: 'Close the editor' }).click();
  await expect(page).toHaveURL(/\/news$/);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });
  await expect(row.getByText('Published', { exact: true })).toBeVisible();
});
