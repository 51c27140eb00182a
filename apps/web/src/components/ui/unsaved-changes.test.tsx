import { TextInput } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../lib/session.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { UnsavedChangesScope, useReportUnsavedChanges, useUnsavedChangesGuard } from './unsaved-changes.tsx';

type Values = { title: string; newPassword: string };

function TitleForm() {
  const form = useForm<Values>({ defaultValues: { title: '', newPassword: '' } });
  useReportUnsavedChanges(form.formState.isDirty, { name: 'post', form });
  return (
    <form>
      <TextInput label="Titolo" {...form.register('title')} />
      <TextInput label="Nuova password" type="password" {...form.register('newPassword')} />
      <span>{form.formState.isDirty ? 'con modifiche' : 'senza modifiche'}</span>
    </form>
  );
}

function Drawer() {
  const guard = useUnsavedChangesGuard({ param: 'post', close: () => undefined });
  return (
    <UnsavedChangesScope guard={guard}>
      <TitleForm />
    </UnsavedChangesScope>
  );
}

const editor = { uid: 'u-editor', email: 'editor@demo.test', role: 'editor' as const };

/** Types a title and a password, then the refresh is refused: the app signs out with "session expired". */
async function writeThenLoseTheSession(route = '/news?post=new') {
  const user = userEvent.setup();
  const view = renderWithProviders(<Drawer />, { route, user: editor });
  await user.type(screen.getByLabelText('Titolo'), 'Scritto prima della scadenza');
  await user.type(screen.getByLabelText('Nuova password'), 'Segreta-2026');
  await screen.findByText('con modifiche');
  sessionStore.signOut('expired');
  view.unmount();
}

afterEach(() => sessionStorage.clear());

describe('UnsavedChangesScope after a forced sign-out', () => {
  it('puts back what was typed, with a notice, when the same user signs in again at the same address', async () => {
    await writeThenLoseTheSession();

    renderWithProviders(<Drawer />, { route: '/news?post=new', user: editor });

    await waitFor(() => expect(screen.getByLabelText('Titolo')).toHaveValue('Scritto prima della scadenza'));
    expect(screen.getByRole('status')).toHaveTextContent('Abbiamo ripristinato quello che avevi scritto');
    // Still an edit: the guard asks before it is dropped, and Save sends it.
    expect(screen.getByText('con modifiche')).toBeInTheDocument();
  });

  it('never keeps a password', async () => {
    await writeThenLoseTheSession();

    expect(JSON.stringify({ ...sessionStorage })).not.toContain('Segreta-2026');
    renderWithProviders(<Drawer />, { route: '/news?post=new', user: editor });
    await waitFor(() => expect(screen.getByLabelText('Titolo')).toHaveValue('Scritto prima della scadenza'));
    expect(screen.getByLabelText('Nuova password')).toHaveValue('');
  });

  it('offers the values once', async () => {
    await writeThenLoseTheSession();
    const first = renderWithProviders(<Drawer />, { route: '/news?post=new', user: editor });
    await waitFor(() => expect(screen.getByLabelText('Titolo')).toHaveValue('Scritto prima della scadenza'));
    first.unmount();

    renderWithProviders(<Drawer />, { route: '/news?post=new', user: editor });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByLabelText('Titolo')).toHaveValue('');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('gives nothing to another user signing in on the same tab, and drops it', async () => {
    await writeThenLoseTheSession();

    renderWithProviders(<Drawer />, { route: '/news?post=new', user: { uid: 'u-admin' } });
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(screen.getByLabelText('Titolo')).toHaveValue('');
    expect(screen.queryByRole('status')).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('gives nothing at another address', async () => {
    await writeThenLoseTheSession('/news?post=12');

    renderWithProviders(<Drawer />, { route: '/news?post=new', user: editor });
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(screen.getByLabelText('Titolo')).toHaveValue('');
  });

  it('keeps nothing when the user signs out by choice', async () => {
    const user = userEvent.setup();
    const view = renderWithProviders(<Drawer />, { route: '/news?post=new', user: editor });
    await user.type(screen.getByLabelText('Titolo'), 'Da scartare');
    await screen.findByText('con modifiche');
    sessionStore.signOut('logout');
    view.unmount();

    expect(sessionStorage.length).toBe(0);
  });
});
