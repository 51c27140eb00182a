/**
 * A chunk that could not be downloaded (the server was down) loads on a later import, not only after a
 * reload. The build's chunks are classic scripts loaded by SystemJS (scripts/classic-scripts-plugin.ts),
 * which keeps a failed load in its registry and answers every later import of it with the same failure:
 * a failed import here forgets the loads it left unfinished (the failed one and those waiting on it, never
 * one that has run). And Chromium answers a script element with the failed preload of its address, even
 * once the preload's element is gone: a script that failed is asked for again under another address.
 * Installed by the app (app.tsx), not by the start script, which the sign-in page's byte ceiling cannot
 * afford (decision 010); the dev server and the tests load ES modules and have no SystemJS.
 */
type SystemJsLoad = { e?: unknown; C?: unknown; n?: unknown; E?: unknown };
type SystemJsLoader = {
  import(...args: unknown[]): Promise<unknown>;
  createScript(url: string): HTMLScriptElement;
};

let isInstalled = false;

export function retryFailedChunks(): void {
  const loader = (window as { System?: SystemJsLoader }).System;
  if (!loader || isInstalled) return;
  isInstalled = true;
  const registry = Object.getOwnPropertySymbols(loader)
    .map((symbol) => (loader as unknown as Record<symbol, unknown>)[symbol])
    .find((value): value is Record<string, SystemJsLoad> => typeof value === 'object' && value !== null);
  const prototype = Object.getPrototypeOf(loader) as SystemJsLoader;
  const importModule = prototype.import;
  prototype.import = function (this: SystemJsLoader, ...args: unknown[]) {
    return importModule.apply(this, args).catch((error: unknown) => {
      for (const [id, load] of Object.entries(registry ?? {})) {
        const isUnfinished = load.e === null && load.C !== load.n && !load.E;
        if (isUnfinished) delete registry?.[id];
      }
      throw error;
    });
  };
  const failedScripts = new Set<string>();
  document.addEventListener(
    'error',
    (event) => {
      const element = event.target;
      if (element instanceof HTMLScriptElement) failedScripts.add(element.src.replace(/\?retry=\d+$/, ''));
      if (element instanceof HTMLLinkElement && element.as === 'script') failedScripts.add(element.href);
    },
    true,
  );
  const createScript = prototype.createScript;
  prototype.createScript = (url: string) => createScript(failedScripts.has(url) ? `${url}?retry=${Date.now()}` : url);
}
