import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { isBlockingFailure, StaleDataNotice } from './stale-data-notice.tsx';

const network = new ApiError({ status: 0, code: 'network', message: 'Failed to fetch' });
const gone = new ApiError({ status: 404, code: 'not_found', message: 'Campagna richiesta non trovata' });
const query = (overrides: Partial<{ data: unknown; error: unknown; isError: boolean; isFetching: boolean; refetch: () => unknown }>) => ({
  data: { id: 'a' },
  error: null,
  isError: false,
  isFetching: false,
  refetch: vi.fn(),
  ...overrides,
});

describe('isBlockingFailure', () => {
  it('is true only for a failure with nothing to show', () => {
    expect(isBlockingFailure({ data: undefined, isError: true })).toBe(true);
    expect(isBlockingFailure({ data: { id: 'a' }, isError: true })).toBe(false);
    expect(isBlockingFailure({ data: undefined, isError: false })).toBe(false);
  });
});

describe('StaleDataNotice', () => {
  it('says nothing while the data is fresh, and leaves a failure with nothing to show to the screen', () => {
    const { container } = renderWithProviders(
      <>
        <StaleDataNotice query={query({})} />
        <StaleDataNotice query={query({ data: undefined, isError: true, error: network })} />
      </>,
    );
    expect(screen.queryByRole('status')).toBeNull();
    expect(container).not.toHaveTextContent(/aggiornati|più recenti/);
  });

  it('names the cause of a failed refetch and tries again on request', async () => {
    const user = userEvent.setup();
    const refetch = vi.fn();
    renderWithProviders(<StaleDataNotice query={query({ isError: true, error: network, refetch })} />);
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('Impossibile caricare i dati più recenti');
    expect(notice).toHaveTextContent('Il server non è raggiungibile. Controlla la connessione e riprova.');
    expect(notice).toHaveTextContent("Sullo schermo resta l'ultima versione caricata");
    await user.click(screen.getByRole('button', { name: 'Riprova' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('says that a record deleted meanwhile no longer exists, with no retry that could not bring it back', () => {
    renderWithProviders(<StaleDataNotice query={query({ isError: true, error: gone })} />, { language: 'en' });
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('This record no longer exists');
    expect(notice).not.toHaveTextContent(gone.message);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
