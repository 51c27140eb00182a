import { Alert } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useLocation, type Location } from 'react-router';
import { useConfirm } from '../../hooks/use-confirm.tsx';
import { sessionStore, useCurrentUser } from '../../lib/session.ts';
import { keepEdits, takeKeptEdits } from './kept-edits.ts';

type Report = (source: string, isDirty: boolean) => void;

/**
 * What a form hands over so that its edits outlive a forced sign-out: react-hook-form's `useForm()`
 * result fits as it is. `reset` keeps the loaded values as the defaults, so restored edits still count
 * as edits (the guard asks before they are dropped, and Save knows what changed).
 */
export type KeepableForm = {
  getValues: () => unknown;
  reset: (values: never, options: { keepDefaultValues: boolean }) => void;
};

/** A form's name within its drawer (e.g. `post`, `serviceEmail:welcome`): where its kept values go back. */
export type KeptForm = { name: string; form: KeepableForm };

type ScopeChannel = {
  report: Report;
  register: (source: string, kept: KeptForm) => () => void;
  restore: (kept: KeptForm) => void;
};

const ScopeContext = createContext<ScopeChannel | null>(null);

/**
 * A form inside a guarded drawer (`UnsavedChangesScope`) says whether it holds unsaved edits. Every
 * form of the drawer reports on its own (a program's rules and its service e-mails), so one saved form
 * does not hide the other's edits; a form that goes away takes its report with it. Through `kept` the
 * scope can read its values when the session ends by force and put them back after the user signs in
 * again (`kept-edits.ts`).
 */
export function useReportUnsavedChanges(isDirty: boolean, kept: KeptForm): void {
  const scope = useContext(ScopeContext);
  const source = useId();
  const keptRef = useRef(kept);
  keptRef.current = kept;
  const { name } = kept;
  useEffect(() => {
    scope?.report(source, isDirty);
  }, [scope, source, isDirty]);
  useEffect(() => {
    if (!scope) return undefined;
    const unregister = scope.register(source, { name, form: { getValues: () => keptRef.current.form.getValues(), reset: (values, options) => keptRef.current.form.reset(values, options) } });
    // After the commit's other effects: a form that resets itself to its loaded record on mount
    // (the merchant's) would otherwise overwrite what is put back.
    const timer = setTimeout(() => scope.restore(keptRef.current));
    return () => {
      clearTimeout(timer);
      unregister();
      scope.report(source, false);
    };
  }, [scope, source, name]);
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
 * The forms of the scope keep what they hold when the session ends by force (a refused refresh signs
 * the user out with "session expired", S10, and unmounts them), under the user's uid and this address;
 * a form that comes back at the same address for the same user gets its values again, once.
 */
function useKeptEdits(report: Report, hasEdits: () => boolean) {
  const user = useCurrentUser();
  const location = useLocation();
  const uid = user?.uid ?? null;
  const address = `${location.pathname}${location.search}`;
  const whereRef = useRef({ uid, address });
  whereRef.current = { uid, address };
  const formsRef = useRef(new Map<string, KeptForm & { isDirty: boolean }>());
  const [isRestored, setRestored] = useState(false);

  const trackingReport = useCallback<Report>(
    (source, isDirty) => {
      const form = formsRef.current.get(source);
      if (form) form.isDirty = isDirty;
      report(source, isDirty);
    },
    [report],
  );

  useEffect(
    () =>
      sessionStore.subscribe(() => {
        const state = sessionStore.getState();
        const { uid: keptUid, address: keptAddress } = whereRef.current;
        // Only a forced end: a sign-out the user chose (or made in another tab) means the edits go.
        if (state.status !== 'signed-out' || state.reason !== 'expired' || !keptUid || !hasEdits()) return;
        const forms: Record<string, unknown> = {};
        for (const form of formsRef.current.values()) if (form.isDirty) forms[form.name] = form.form.getValues();
        keepEdits(keptUid, keptAddress, forms);
      }),
    [hasEdits],
  );

  const channel = useMemo<ScopeChannel>(
    () => ({
      report: trackingReport,
      register: (source, kept) => {
        formsRef.current.set(source, { ...kept, isDirty: formsRef.current.get(source)?.isDirty ?? false });
        return () => formsRef.current.delete(source);
      },
      restore: ({ name, form }) => {
        const { uid: ownUid, address: ownAddress } = whereRef.current;
        if (!ownUid) return;
        const values = takeKeptEdits(ownUid, ownAddress, name);
        if (values === undefined) return;
        form.reset(values as never, { keepDefaultValues: true });
        setRestored(true);
      },
    }),
    [trackingReport],
  );
  return { channel, isRestored };
}

/**
 * Put inside the drawer (mounted only while it is open, so that one blocker at a time is registered
 * with the router): the forms below report their edits to the guard, and Back, a link or a reload
 * that would leave them asks first. What they hold survives a forced sign-out (`useKeptEdits`).
 */
export function UnsavedChangesScope({ guard, children }: { guard: UnsavedChangesGuard; children: ReactNode }) {
  const { t } = useTranslation('records');
  const { report, hasEdits, forgetEdits, askDiscard, param } = guard.scope;
  const { channel, isRestored } = useKeptEdits(report, hasEdits);
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

  return (
    <ScopeContext.Provider value={channel}>
      {isRestored ? (
        // `status`: the form is ready to use, nothing needs to be done at once.
        <Alert color="blue" role="status" title={t('keptEdits.title')} mb="md" withCloseButton={false}>
          {t('keptEdits.text')}
        </Alert>
      ) : null}
      {children}
    </ScopeContext.Provider>
  );
}
