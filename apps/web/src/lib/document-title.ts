import { useEffect } from 'react';

/**
 * The tab's title names the page (WCAG 2.4.2 "Page Titled"): "Clienti · Social Fidelity", and on a
 * record's page its name first ("Anna Rossi · Clienti · Social Fidelity"), so that tabs, the history and
 * a screen reader's page announcement tell the pages apart. The app's name is index.html's `<title>`.
 * Two parts, each written by the component that knows it: the screen (the signed-in layout from the
 * route, an auth form, an error page) and the record (its page, while it is shown).
 */
let appName: string | null = null;
let screen = '';
let record = '';

function write(): void {
  // The title the page was served with, kept at the first change.
  appName ??= document.title;
  document.title = [record, screen, appName].filter(Boolean).join(' · ');
}

/** The page's name in the tab, while the calling component is shown. */
export function useScreenTitle(name: string): void {
  useEffect(() => {
    screen = name;
    write();
  }, [name]);
}

/** A record's name before the screen's, while its page is shown (nothing while it loads). */
export function useRecordTitle(name: string | undefined): void {
  useEffect(() => {
    record = name ?? '';
    write();
    return () => {
      record = '';
      write();
    };
  }, [name]);
}
