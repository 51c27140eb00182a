/** How often, and for how long after the focus left it, a closing dialog is looked at. */
const LOOK_AGAIN_MS = 50;
const GIVE_BACK_WITHIN_MS = 3000;

/**
 * Focus goes back to what opened a dialog or a drawer when it closes (WCAG 2.4.3), for every one of
 * them, installed once for the page.
 *
 * Mantine's Modal and Drawer remember the focused element when their `opened` prop turns true, and
 * focus it again when it turns false. Two of our ways of opening them defeat that, and the focus fell
 * to <body> on Esc:
 * - a dialog first mounted already open (a lazily loaded one, or one left out of the page until first
 *   opened: `useMountedOnceOpened`) never sees `opened` change, so it remembers nothing;
 * - a dialog opened from a menu ("Azioni", the user menu, a row's actions) remembers the menu item,
 *   which the menu unmounts as it closes.
 * So the page remembers, for each dialog the focus enters, the element focused just before (a menu
 * item counts as its menu's button), and when the focus is left on <body> once that dialog is gone,
 * gives it back to that element.
 */
export function returnFocusFromDialogs(root: Document = document): () => void {
  let lastFocused: HTMLElement | null = null;
  const openers = new WeakMap<Element, HTMLElement>();

  /** A menu item stands for the button that opened its menu (Mantine labels the menu by that button). */
  const stableOf = (element: HTMLElement): HTMLElement => {
    const menu = element.closest('[role="menu"]');
    const buttonId = menu?.getAttribute('aria-labelledby');
    const button = buttonId ? root.getElementById(buttonId) : null;
    return button instanceof HTMLElement ? button : element;
  };

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || target === root.body) return;
    const dialog = target.closest('[role="dialog"], [role="alertdialog"]');
    if (dialog && !openers.has(dialog) && lastFocused && !dialog.contains(lastFocused)) openers.set(dialog, lastFocused);
    lastFocused = stableOf(target);
  };

  const onFocusOut = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || event.relatedTarget !== null) return;
    const dialog = target.closest('[role="dialog"], [role="alertdialog"]');
    if (!dialog) return;
    // After Mantine's own return (10 ms) and its closing transition: only a focus still on <body>, with
    // the dialog gone, is taken back. The transition takes as long as the machine makes it (a busy
    // one stretched it past a fixed 350 ms, and the focus stayed on <body>), so the dialog is looked
    // at until it has gone, for a while; a dialog that stays (a click on its text) is left alone.
    const deadline = Date.now() + GIVE_BACK_WITHIN_MS;
    const giveBack = () => {
      const active = root.activeElement;
      if (active && active !== root.body) return;
      if (dialog.isConnected && !dialog.closest('[aria-hidden="true"], [hidden]')) {
        if (Date.now() < deadline) window.setTimeout(giveBack, LOOK_AGAIN_MS);
        return;
      }
      const opener = openers.get(dialog);
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
    window.setTimeout(giveBack, LOOK_AGAIN_MS);
  };

  root.addEventListener('focusin', onFocusIn, true);
  root.addEventListener('focusout', onFocusOut, true);
  return () => {
    root.removeEventListener('focusin', onFocusIn, true);
    root.removeEventListener('focusout', onFocusOut, true);
  };
}
