import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderRoutes, testUser } from '../../../testing/test-utils.tsx';
import { ProfileDialog } from './profile-dialog.tsx';

const me = testUser({
  phone: '+390212345678',
  communication: { email: true, sms: true, phone: false },
  address: { addressLine: 'Via Torino 12', city: 'Milano', state: 'MI', postCode: '20123' },
  socialNetworks: { linkedIn: 'https://linkedin.com/in/ada', facebook: '', twitter: '', instagram: 'https://instagram.com/ada' },
});

function open(language: 'it' | 'en' = 'it') {
  document.cookie = 'XSRF-TOKEN=t; path=/';
  const patches: Record<string, unknown>[] = [];
  server.use(
    http.get('/api/admin/me', () => HttpResponse.json(me)),
    http.patch('/api/admin/me', async ({ request }) => {
      const patch = (await request.json()) as Record<string, unknown>;
      patches.push(patch);
      return HttpResponse.json({ ...me, ...patch });
    }),
  );
  const onClose = vi.fn();
  renderRoutes([{ path: '/news', element: <ProfileDialog isOpen onClose={onClose} /> }], { route: '/news', user: me, language });
  return { patches, onClose };
}

describe('profile dialog', () => {
  it('ticks the channels the profile holds, and a click changes what is saved', async () => {
    const { patches, onClose } = open();
    const dialog = await screen.findByRole('dialog', { name: 'Il mio profilo' });
    const group = await within(dialog).findByRole('group', { name: 'Posso essere contattato tramite' });
    const email = within(group).getByRole('checkbox', { name: 'Email' });
    expect(email).toBeChecked();
    expect(within(group).getByRole('checkbox', { name: 'SMS' })).toBeChecked();
    expect(within(group).getByRole('checkbox', { name: 'Telefono' })).not.toBeChecked();
    const user = userEvent.setup();
    await user.click(email);
    expect(email).not.toBeChecked();
    await user.click(within(group).getByRole('checkbox', { name: 'Telefono' }));
    await user.click(within(dialog).getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches[0]?.['communication']).toEqual({ email: false, sms: true, phone: true });
  });

  it('shows the address and the social links, and sends them back with the phone as E.164', async () => {
    const { patches, onClose } = open('en');
    const dialog = await screen.findByRole('dialog', { name: 'My profile' });
    // Stored as E.164, shown as people write it.
    expect(await within(dialog).findByRole('textbox', { name: 'Phone' })).toHaveValue('+39 02 1234 5678');
    expect(within(dialog).getByRole('textbox', { name: 'Street and number' })).toHaveValue('Via Torino 12');
    expect(within(dialog).getByRole('textbox', { name: 'City' })).toHaveValue('Milano');
    expect(within(dialog).getByRole('textbox', { name: 'Province' })).toHaveValue('MI');
    expect(within(dialog).getByRole('textbox', { name: 'Postal code' })).toHaveValue('20123');
    expect(within(dialog).getByRole('textbox', { name: 'LinkedIn' })).toHaveValue('https://linkedin.com/in/ada');
    const user = userEvent.setup();
    await user.type(within(dialog).getByRole('textbox', { name: 'Facebook' }), 'https://facebook.com/ada');
    await user.clear(within(dialog).getByRole('textbox', { name: 'City' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'City' }), 'Monza');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches[0]).toMatchObject({
      phone: '+390212345678',
      address: { addressLine: 'Via Torino 12', city: 'Monza', state: 'MI', postCode: '20123' },
      socialNetworks: { linkedIn: 'https://linkedin.com/in/ada', facebook: 'https://facebook.com/ada', twitter: '', instagram: 'https://instagram.com/ada' },
    });
  });

  it('refuses an empty first name, a phone that is no number and links that are not web addresses, naming each field', async () => {
    const { patches, onClose } = open();
    const dialog = await screen.findByRole('dialog', { name: 'Il mio profilo' });
    const user = userEvent.setup();
    await user.clear(await within(dialog).findByRole('textbox', { name: 'Nome' }));
    await user.clear(within(dialog).getByRole('textbox', { name: 'Telefono' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Telefono' }), 'abc-not-a-phone');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Sito web' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Sito web' }), 'not a url');
    await user.type(within(dialog).getByRole('textbox', { name: 'Twitter' }), 'x.com/ada');
    await user.click(within(dialog).getByRole('button', { name: 'Salva' }));
    expect(await within(dialog).findByText('Nome è obbligatorio')).toBeInTheDocument();
    expect(within(dialog).getByText('Telefono non è valido')).toBeInTheDocument();
    expect(within(dialog).getByText('Sito web non è valido')).toBeInTheDocument();
    expect(within(dialog).getByText('Twitter non è valido')).toBeInTheDocument();
    expect(patches).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });
});
