import { TextInput } from '@mantine/core';
import { screen } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/test-utils.tsx';

describe('Mantine’s useId, as the app is built (scripts/mantine-use-id-plugin.ts)', () => {
  it('gives a field React’s id at once, and the field is not rendered a second time to change it', async () => {
    const commits: string[] = [];
    renderWithProviders(
      <Profiler id="form" onRender={(_id, phase) => commits.push(phase)}>
        <TextInput label="Nome" />
      </Profiler>,
    );
    const field = await screen.findByRole('textbox', { name: 'Nome' });
    // Mantine's own hook replaces this id with a random one (`mantine-` and 9 letters or digits) in an effect.
    expect(field.id).toMatch(/^mantine-_r_[0-9a-z]+_$/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(commits).toEqual(['mount']);
  });
});
