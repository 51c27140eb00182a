import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { notifyError, notifySuccess } from '../lib/notify.ts';
import { UiProviders } from './ui-provider.tsx';

const network = vi.hoisted(() => ({ isDown: true }));

// The toasts' code is downloaded with the first toast; here the first download fails as it does while
// the server is down, and the next one, once it is back, succeeds.
vi.mock('./toast-container.tsx', async (importOriginal) => {
  if (network.isDown) throw new TypeError('Failed to fetch dynamically imported module: toast-container.js');
  return importOriginal();
});

describe('toasts when their code cannot be downloaded', () => {
  it('shows the first toast without its code, keeps the page and what was typed, and loads the code with a toast once the server is back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <UiProviders env="test">
        <label>
          Città
          <input />
        </label>
      </UiProviders>,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Città' }), 'Pavia');

    notifyError('Il server non è raggiungibile.');
    expect(await screen.findByRole('alert')).toHaveTextContent('Il server non è raggiungibile.');
    expect(screen.getByRole('textbox', { name: 'Città' })).toHaveValue('Pavia');

    network.isDown = false;
    notifySuccess('Cliente aggiornato');
    expect(await screen.findByText('Cliente aggiornato')).toBeInTheDocument();
    expect(document.querySelector('.mantine-Notifications-root')).not.toBeNull();
    expect(screen.getByRole('textbox', { name: 'Città' })).toHaveValue('Pavia');
  });
});
