import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe on what is on screen now and fails on serious or critical violations, naming each rule and
 * the elements it found, so the report says what to fix.
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  await untilStill(page);
  // Legacy mode runs axe in the page in one pass. The default opens a blank page for every check to
  // combine the results of cross-origin frames, which our screens do not have, and took twice as long
  // (a customers list at 1366 px: 4.9–5.5 s against 2.2–3.3 s, interleaved on a loaded machine).
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .setLegacyMode(true)
    .analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      elements: violation.nodes.slice(0, 5).map((node) => `${node.html.slice(0, 160)} — ${(node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`),
    }));
  expect(blocking, `serious or critical accessibility violations on ${screen}`).toEqual([]);
}

/**
 * Waits until nothing on screen is moving: three animation frames in a row without a running finite
 * animation or CSS transition (a spinner's endless one does not count), at most 5 s. Axe reads colours
 * as they are drawn, and a dialog still fading in blends its button with the page behind: the invite
 * dialog's button once measured 4.21:1 mid-transition (4.5:1 and more once shown).
 */
async function untilStill(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const startedAt = performance.now();
        let stillFrames = 0;
        const frame = () => {
          const moving = document
            .getAnimations()
            .some((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().iterations !== Infinity);
          stillFrames = moving ? 0 : stillFrames + 1;
          if (stillFrames >= 3 || performance.now() - startedAt > 5_000) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}
