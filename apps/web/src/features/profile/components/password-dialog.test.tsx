import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderRoutes } from '../../../testing/test-utils.tsx';
import { PasswordDialog } from './password-dialog.tsx';

function open(language: 'it' | 'en' = 'it') {
  document.cookie = 'XSRF-TOKEN=t; path=/';
  const onClose = vi.fn();
  renderRoutes([{ path: '/news', element: <PasswordDialog isOpen onClose={onClose} /> }], { route: '/news', user: { role: 'editor' }, language });
  return { onClose };
}

describe('password dialog', () => {
  it('names each field by its label and says an empty confirmation is required', async () => {
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Cambia password' });
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Nuova password/), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Cambia password' }));
    expect(await within(dialog).findByText('Password attuale è obbligatoria')).toBeInTheDocument();
    expect(within(dialog).getByText('La lunghezza minima di Nuova password è 8')).toBeInTheDocument();
    expect(within(dialog).getByText('Conferma la nuova password è obbligatoria')).toBeInTheDocument();
  });

  it('shows the refusal of the current password as the new one under the new password', async () => {
    const text = 'The new password must be different from the current one';
    server.use(
      http.post('/api/admin/me/password', () =>
        HttpResponse.json({ error: { code: 'validation', message: text, fields: [{ field: 'newPassword', message: text }], requestId: 'r' } }, { status: 400 }),
      ),
    );
    const { onClose } = open('en');
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Current password/), 'Demo-Password-2026');
    await user.type(within(dialog).getByLabelText(/^New password/), 'Demo-Password-2026');
    await user.type(within(dialog).getByLabelText(/^Confirm the new password/), 'Demo-Password-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    const shown = await within(dialog).findByText(text);
    expect(within(dialog).getByLabelText(/^New password/)).toHaveAccessibleDescription(shown.textContent ?? '');
    expect(onClose).not.toHaveBeenCalled();
  });
});
