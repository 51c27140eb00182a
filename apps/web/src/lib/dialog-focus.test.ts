import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { returnFocusFromDialogs } from './dialog-focus.ts';

let stop: () => void = () => undefined;
beforeEach(() => {
  vi.useFakeTimers();
  stop = returnFocusFromDialogs();
});
afterEach(() => {
  stop();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

/** A dialog as Mantine renders one, mounted already open (lazily loaded): its first field takes the focus. */
function openDialog(): HTMLElement {
  const dialog = document.createElement('section');
  dialog.setAttribute('role', 'dialog');
  dialog.innerHTML = '<input aria-label="Importo" />';
  document.body.append(dialog);
  dialog.querySelector('input')!.focus();
  return dialog;
}

/** The focus leaves the dialog for <body> (Esc, or a click on its text). */
function leaveFocus() {
  (document.activeElement as HTMLElement).blur();
}

/** Esc: the dialog leaves the page and the focus is left on <body>. */
function closeWithEsc(dialog: HTMLElement) {
  leaveFocus();
  dialog.remove();
}

describe('focus after a dialog closes', () => {
  it('goes back to the button that opened it, for a dialog mounted already open', () => {
    document.body.innerHTML = '<button>Nuovo cliente</button>';
    const opener = document.querySelector('button')!;
    opener.focus();
    const dialog = openDialog();
    closeWithEsc(dialog);
    vi.advanceTimersByTime(400);
    expect(document.activeElement).toBe(opener);
  });

  it('goes back to the menu button when the dialog was chosen from a menu whose items are gone', () => {
    document.body.innerHTML = `<button id="actions">Azioni</button>
      <div role="menu" aria-labelledby="actions"><button role="menuitem">Registra acquisto</button></div>`;
    const item = document.querySelector<HTMLElement>('[role="menuitem"]')!;
    item.focus();
    document.querySelector('[role="menu"]')!.remove();
    const dialog = openDialog();
    closeWithEsc(dialog);
    vi.advanceTimersByTime(400);
    expect(document.activeElement).toBe(document.getElementById('actions'));
  });

  it('leaves the focus alone when it is already somewhere (Mantine gave it back, or the user moved on)', () => {
    document.body.innerHTML = '<button>Apri</button><a href="#x">Altro</a>';
    document.querySelector('button')!.focus();
    const dialog = openDialog();
    closeWithEsc(dialog);
    const other = document.querySelector('a')!;
    other.focus();
    vi.advanceTimersByTime(400);
    expect(document.activeElement).toBe(other);
  });

  it('waits for a closing transition that a busy machine stretches past a fixed wait', () => {
    document.body.innerHTML = '<button>Nuovo cliente</button>';
    const opener = document.querySelector('button')!;
    opener.focus();
    const dialog = openDialog();
    // Esc: the focus leaves at once, the dialog leaves the page only when its transition ends.
    leaveFocus();
    vi.advanceTimersByTime(900);
    expect(document.activeElement).toBe(document.body);
    dialog.remove();
    vi.advanceTimersByTime(100);
    expect(document.activeElement).toBe(opener);
  });

  it('leaves a dialog that stays open alone (the focus left for its text), even when it closes much later', () => {
    document.body.innerHTML = '<button>Apri</button>';
    document.querySelector('button')!.focus();
    const dialog = openDialog();
    leaveFocus();
    vi.advanceTimersByTime(5000);
    dialog.remove();
    vi.advanceTimersByTime(1000);
    expect(document.activeElement).toBe(document.body);
  });
});
