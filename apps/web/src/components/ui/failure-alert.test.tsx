import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { FailureAlert } from './failure-alert.tsx';

const missing = { title: 'Esercente non trovato', text: "Nessun esercente a questo indirizzo: il link è sbagliato o l'esercente non c'è più." };

describe('FailureAlert', () => {
  it.each([
    ['a record that is not there (404)', new ApiError({ status: 404, code: 'not_found', message: 'Esercente richiesto non trovato' })],
    ['an address whose id is not one (400)', new ApiError({ status: 400, code: 'validation', message: 'Id non è valido', fields: [{ field: 'id', message: 'Id non è valido' }] })],
  ])('says in the drawer’s own words that there is no such record, for %s', (_case, error) => {
    renderWithProviders(<FailureAlert error={error} missing={missing} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(missing.title);
    expect(alert).toHaveTextContent(missing.text);
    expect(alert).not.toHaveTextContent(error.message);
  });

  it.each([
    ['the network', new ApiError({ status: 0, code: 'network', message: 'Failed to fetch' }), 'Il server non è raggiungibile. Controlla la connessione e riprova.'],
    ['the server (500)', new ApiError({ status: 500, code: 'internal', message: 'boom' }), 'Si è verificato un errore sul server. Riprova più tardi.'],
  ])('keeps the failure’s own text when %s failed, even with words for a missing record', (_case, error, text) => {
    renderWithProviders(<FailureAlert error={error} missing={missing} />);
    expect(screen.getByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByText(missing.title)).toBeNull();
  });
});
