import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { DateField } from './date-fields.tsx';

/** A field and, beside it, the value it hands over. */
function Probe({ initial = '', isYearFirst = false, maxDate }: { initial?: string; isYearFirst?: boolean; maxDate?: string }) {
  const [day, setDay] = useState(initial);
  return (
    <>
      <DateField label="Dal" value={day} onChange={setDay} clearable isYearFirst={isYearFirst} maxDate={maxDate} />
      <output aria-label="value">{day}</output>
    </>
  );
}

const handed = () => screen.getByRole('status', { name: 'value' }).textContent;

describe('DateField', () => {
  it('shows and reads the day in the app’s language, not the browser’s', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe initial="2026-03-05" />, { language: 'en' });
    const field = await screen.findByRole('textbox', { name: 'Dal' });
    expect(field).toHaveValue('03/05/2026');
    await user.clear(field);
    expect(handed()).toBe('');
    await user.type(field, '12/1/2026');
    expect(handed()).toBe('2026-12-01');
  });

  it('hands over only whole days that exist, and keeps the last one meanwhile', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe initial="2026-01-10" />);
    const field = await screen.findByRole('textbox', { name: 'Dal' });
    expect(field).toHaveValue('10/01/2026');
    // Typed over the day shown: a day still being typed, then one that does not exist.
    await user.tripleClick(field);
    await user.keyboard('21/11/202');
    expect(handed()).toBe('2026-01-10');
    await user.tripleClick(field);
    await user.keyboard('31/02/2026');
    expect(handed()).toBe('2026-01-10');
    await user.tab();
    expect(field).toHaveValue('10/01/2026');
    // Pasted from a spreadsheet, in the ISO form.
    await user.tripleClick(field);
    await user.paste('2026-11-21');
    expect(handed()).toBe('2026-11-21');
    await user.tab();
    expect(field).toHaveValue('21/11/2026');
  });

  it('names the calendar’s arrows', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe initial="2026-01-10" />);
    await user.click(await screen.findByRole('textbox', { name: 'Dal' }));
    await user.click(await screen.findByRole('button', { name: 'Mese successivo' }));
    await user.click(screen.getByRole('button', { name: '14 febbraio 2026' }));
    expect(handed()).toBe('2026-02-14');
  });

  it('opens a birth date’s calendar on the decades, so the year is picked first', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe isYearFirst />);
    await user.click(await screen.findByRole('textbox', { name: 'Dal' }));
    // Back a decade at a time (from today's), as a person does, to the 1980s.
    while (!screen.queryByRole('button', { name: '1985' })) await user.click(await screen.findByRole('button', { name: 'Decennio precedente' }));
    await user.click(screen.getByRole('button', { name: '1985' }));
    await user.click(screen.getByRole('button', { name: 'mar' }));
    await user.click(screen.getByRole('button', { name: '12 marzo 1985' }));
    expect(handed()).toBe('1985-03-12');
  });

  it('keeps a day typed after maxDate and hands it over, for the form to refuse in words; the calendar offers none', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe initial="2026-11-20" maxDate="2026-11-27" />);
    const field = await screen.findByRole('textbox', { name: 'Dal' });
    await user.tripleClick(field);
    await user.keyboard('28/11/2026');
    expect(handed()).toBe('2026-11-28');
    await user.tab();
    expect(field).toHaveValue('28/11/2026');
    // The calendar greys out the days after maxDate.
    await user.click(field);
    expect(await screen.findByRole('button', { name: '29 novembre 2026' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '27 novembre 2026' })).toBeEnabled();
  });

  it('takes a form’s focus with its calendar closed, off its error; a click opens it', async () => {
    const user = userEvent.setup();
    function Refused() {
      const field = useRef<{ focus(): void }>(null);
      return (
        <>
          <DateField label="Ricevuta il" value="2026-11-28" onChange={() => undefined} error="Ricevuta il: la data non può essere futura" focusRef={field} />
          <button type="button" onClick={() => field.current?.focus()}>
            Registra
          </button>
        </>
      );
    }
    renderWithProviders(<Refused />);
    const field = await screen.findByRole('textbox', { name: 'Ricevuta il' });
    await user.click(screen.getByRole('button', { name: 'Registra' }));
    expect(field).toHaveFocus();
    expect(screen.queryByRole('button', { name: '28 novembre 2026' })).toBeNull();
    expect(screen.getByText('Ricevuta il: la data non può essere futura')).toBeVisible();
    await user.click(field);
    expect(await screen.findByRole('button', { name: '28 novembre 2026' })).toBeInTheDocument();
  });
});
