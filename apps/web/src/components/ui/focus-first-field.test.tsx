import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FocusFirstField } from './focus-first-field.tsx';

/** A drawer as Mantine draws one: its ✕ in a header, then the form that came once the record loaded. */
function Drawer({ isLoaded }: { isLoaded: boolean }) {
  return (
    <section role="dialog">
      <header>
        <button type="button">Chiudi</button>
      </header>
      <div>
        <button type="button">Sospendi</button>
        {isLoaded ? (
          <>
            <input aria-label="Nome" data-autofocus />
            <FocusFirstField />
          </>
        ) : null}
      </div>
    </section>
  );
}

describe('FocusFirstField', () => {
  it('moves the focus from ✕, where the drawer put it while loading, to the first field', () => {
    const { rerender } = render(<Drawer isLoaded={false} />);
    screen.getByRole('button', { name: 'Chiudi' }).focus();
    rerender(<Drawer isLoaded />);
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveFocus();
  });

  it('leaves the focus where the person moved it meanwhile', () => {
    const { rerender } = render(<Drawer isLoaded={false} />);
    screen.getByRole('button', { name: 'Sospendi' }).focus();
    rerender(<Drawer isLoaded />);
    expect(screen.getByRole('button', { name: 'Sospendi' })).toHaveFocus();
  });
});
