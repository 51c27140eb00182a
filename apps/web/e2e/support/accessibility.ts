import { expect, type Frame, type Page } from '@playwright/test';
import axe, { type AxeResults, type RunOptions } from 'axe-core';

const BLOCKING_IMPACTS = { serious: new Set(['serious', 'critical']), moderate: new Set(['moderate', 'serious', 'critical']) } as const;
const OPTIONS: RunOptions = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } };

/**
 * Runs axe on what is on screen now and fails on serious or critical violations (and moderate ones with
 * `from: 'moderate'`: the accessibility journey's screens have none left), naming each rule and the
 * elements it found, so the report says what to fix.
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string, { from = 'serious' }: { from?: keyof typeof BLOCKING_IMPACTS } = {}): Promise<void> {
  await untilStill(page);
  const results = await runAxe(page);
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS[from].has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      elements: violation.nodes.slice(0, 5).map((node) => `${node.html.slice(0, 160)} — ${(node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`),
    }));
  expect(blocking, `${from === 'moderate' ? 'moderate, ' : ''}serious or critical accessibility violations on ${screen}`).toEqual([]);
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

/**
 * What `new AxeBuilder({ page }).withTags(…).setLegacyMode(true).analyze()` (@axe-core/playwright) does
 * — axe-core in every frame, configured as it configures it, then `axe.run` in the page with the same
 * context and options — without evaluating axe-core's 1.5 MB again in a document that has it already.
 * AxeBuilder evaluated it twice in the main frame at every check (~0.6 s of each ~1.2 s check, 58 checks
 * in the journeys); a journey moves inside the app, so one document keeps it from check to check.
 * Legacy mode: in one pass in the page. The default opens a blank page for every check to combine the
 * results of cross-origin frames, which our screens do not have, and took twice as long (a customers
 * list at 1366 px: 4.9–5.5 s against 2.2–3.3 s, interleaved on a loaded machine).
 */
async function runAxe(page: Page): Promise<AxeResults> {
  for (const frame of page.frames()) await injectAxe(frame, frame === page.mainFrame());
  const answer = await page.evaluate(
    async ({ options }) => {
      try {
        return { results: await window.axe.run({ exclude: [], include: [] }, options), error: null };
      } catch (error) {
        return { results: null, error: (error as Error).message };
      }
    },
    { options: OPTIONS },
  );
  if (answer.error !== null) throw new Error(answer.error);
  return answer.results!;
}

/**
 * As AxeBuilder: the page's own document must take it; a frame that does not within a second (a
 * sandboxed preview runs no script) is left out.
 */
async function injectAxe(frame: Frame, isRequired: boolean): Promise<void> {
  const injecting = (async () => {
    if (await frame.evaluate(() => typeof window.axe?.run === 'function')) return;
    await frame.evaluate(axe.source);
    await frame.evaluate(() => window.axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } }));
  })();
  if (isRequired) return injecting;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('axe-core was not injected within 1 s')), 1_000)));
  await Promise.race([injecting, timeout])
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}
