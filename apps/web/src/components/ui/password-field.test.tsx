import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { PasswordField } from './password-field.tsx';

describe('PasswordField', () => {
  it('hides the password until its labelled button is pressed, and hides it again', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PasswordField label="Password" defaultValue="Demo-Password-2026" />);
    const input = screen.getByLabelText(/^Password/);
    expect(input).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: 'Mostra la password' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.click(toggle);
    expect(input).toHaveAttribute('type', 'password');
  });
});
