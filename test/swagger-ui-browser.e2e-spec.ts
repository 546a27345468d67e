/// <reference lib="dom" />
import { Browser } from 'playwright-core';
import { closeAfterAll, createTestApp, freePort, launchChromium } from '@app/testing';
import type { TestApp, TestUser } from '@app/testing';

/** What the page's Swagger UI (`window.ui`, set by @nestjs/swagger's init script) exposes. */
interface SwaggerWindow {
  ui: {
    authSelectors: { authorized(): { toJS(): Record<string, { value?: string }> } };
  };
}

describe('Swagger UI in Chromium', () => {
  let t: TestApp;
  let owner: TestUser;
  let browser: Browser;
  let base: string;
  const opened = closeAfterAll();

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = opened.add(await createTestApp({ env: { APP_URL: base } }));
    await t.app.listen(port, '127.0.0.1');
    owner = await t.createUser();
    browser = opened.add(await launchChromium());
  });

  it('keeps the API key entered in Authorize across a reload, and lists tag descriptions', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock-tag');
    // As a person does: Authorize, the key, Authorize, Close.
    await page.click('.auth-wrapper .btn.authorize');
    await page.fill('.modal-ux input', owner.apiKey);
    await page.click('.modal-ux .auth-btn-wrapper .btn.authorize');
    await page.click('.modal-ux .btn-done');

    await page.reload();
    await page.waitForSelector('.opblock-tag');
    const authorized = await page.evaluate(() =>
      (window as unknown as SwaggerWindow).ui.authSelectors.authorized().toJS(),
    );
    expect(authorized.bearer?.value).toBe(owner.apiKey);
    // Swagger UI shows a tag's description beside its name.
    const links = page.locator('#operations-tag-links');
    await expect(links.textContent()).resolves.toContain('Short links, WhatsApp chat links');
    await context.close();
  });
});
