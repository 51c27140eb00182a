import { useEffect, useRef } from 'react';

/**
 * Placed in a drawer beside an edit form that comes after the drawer opened (the form waits for its
 * record): when the drawer opened, Mantine's focus trap found no `data-autofocus` field yet and put the
 * focus on ✕, where it stayed. Once the form is there, this moves the focus to that field, as a create
 * form opens on it; unless the person has moved the focus since (anywhere but the drawer's header).
 * Mounted once per opening: a form remounted after a save is not focused again.
 */
export function FocusFirstField() {
  const marker = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const dialog = marker.current?.closest('[role="dialog"]');
    const field = dialog?.querySelector<HTMLElement>('[data-autofocus]');
    if (!dialog || !field) return;
    const active = document.activeElement;
    const isWhereOpened = !active || active === document.body || active === dialog || (dialog.contains(active) && active.closest('header') !== null);
    if (isWhereOpened) field.focus();
  }, []);
  return <span ref={marker} hidden />;
}
