import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, type Location } from 'react-router';
import { useConfirm } from '../../hooks/use-confirm.tsx';

type Report = (source: string, isDirty: boolean) => void;

const ReportContext = createContext<Report | null>(null);

/**
 * A form inside a guarded drawer (`UnsavedChangesScope`) says whether it holds unsaved edits. Every
 * form of the drawer reports on its own (a program's rules and its service e-mails), so one saved form
 * does not hide the other's edits; a form that goes away takes its report with it.
 */
export function useReportUnsavedChanges(isDirty: boolean): void {
  const report = useContext(ReportContext);
  const source = useId();
  useEffect(() => {
    report?.(source, isDirty);
  }, [report, source, isDirty]);
  useEffect(() => () => report?.(source, false), [report, source]);
}

/** "Scartare le modifiche?": the one question before edits are thrown away, true to discard them. */
export function useAskDiscard(): () => Promise<boolean> {
  const { t } = useTranslation('records');
  const confirm = useConfirm();
  return useCallback(
    () => confirm({ title: t('discard.title'), message: t('discard.message'), confirmLabel: t('discard.confirm'), isDanger: true }),
    [confirm, t],
  );
}

export type UnsavedChangesGuard = {
  /** For the drawer's `onClose` (Esc, ✕, overlay): closes at once without edits, asks first with some. */
  requestClose: () => Promise<void>;
  /** Closes without asking: after a save or a delete there is nothing to lose. */
  closeSaved: () => void;
  /** Forgets the edits (just saved) before the drawer moves on by itself, e.g. from `new` to the created id. */
  forgetEdits: () => void;
  /** @internal for `UnsavedChangesScope` */
  scope: { report: Report; hasEdits: () => boolean; forgetEdits: () => void; askDiscard: () => Promise<boolean>; param: string };
};

/**
 * The unsaved-changes check of a drawer addressed by a search parameter (`?merchant=<id>`): the
 * drawer's close (Esc, ✕, overlay) goes through `requestClose`, and `UnsavedChangesScope` inside the
 * drawer asks the same question when Back or a link would leave it.
 */
export function useUnsavedChangesGuard({ param, close }: { param: string; close: () => void }): UnsavedChangesGuard {
  const askDiscard = useAskDiscard();
  const editsRef = useRef(new Set<string>());

  const report = useCallback<Report>((source, isDirty) => {
    if (isDirty) editsRef.current.add(source);
    else editsRef.current.delete(source);
  }, []);
  const hasEdits = useCallback(() => editsRef.current.size > 0, []);
  const forgetEdits = useCallback(() => editsRef.current.clear(), []);
  const closeSaved = useCallback(() => {
    forgetEdits();
    close();
  }, [close, forgetEdits]);
  const requestClose = useCallback(async () => {
    if (hasEdits() && !(await askDiscard())) return;
    closeSaved();
  }, [askDiscard, closeSaved, hasEdits]);

  const scope = useMemo(() => ({ report, hasEdits, forgetEdits, askDiscard, param }), [report, hasEdits, forgetEdits, askDiscard, param]);
  return useMemo(() => ({ requestClose, closeSaved, forgetEdits, scope }), [requestClose, closeSaved, forgetEdits, scope]);
}

/**
 * Put inside the drawer (mounted only while it is open, so that one blocker at a time is registered
 * with the router): the forms below report their edits to the guard, and Back, a link or a reload
 * that would leave them asks first.
 */
export function UnsavedChangesScope({ guard, children }: { guard: UnsavedChangesGuard; children: ReactNode }) {
  const { report, hasEdits, forgetEdits, askDiscard, param } = guard.scope;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!hasEdits()) return false;
    const target = (location: Location) => new URLSearchParams(location.search).get(param);
    return currentLocation.pathname !== nextLocation.pathname || target(currentLocation) !== target(nextLocation);
  });
  const isAskingRef = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || isAskingRef.current) return;
    isAskingRef.current = true;
    void askDiscard().then((isConfirmed) => {
      isAskingRef.current = false;
      if (isConfirmed) {
        forgetEdits();
        blocker.proceed();
      } else blocker.reset();
    });
  }, [blocker, askDiscard, forgetEdits]);

  // A reload or a closed tab: the browser's own question.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasEdits()) return;
      event.preventDefault();
      // Older browsers only ask when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [hasEdits]);

  return <ReportContext.Provider value={report}>{children}</ReportContext.Provider>;
}
