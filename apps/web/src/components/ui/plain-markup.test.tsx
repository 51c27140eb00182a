import { Anchor, Badge, NavLink } from '@mantine/core';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NavMenuLink } from '../../app/layouts/nav-menu-link.tsx';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { InAppNavigation, TextLink } from './in-app-link.tsx';
import { StatusBadge } from './status-badge.tsx';

/**
 * The plain components a list's first render uses in place of Mantine's (decision 010, sixth pass) must
 * draw exactly what Mantine's would: the same elements, classes, data attributes and CSS variables.
 */
function markup(element: Element): unknown {
  return {
    tag: element.tagName,
    attributes: Object.fromEntries([...element.attributes].map(({ name, value }) => [name, value])),
    children: [...element.childNodes].map((node) => (node.nodeType === Node.ELEMENT_NODE ? markup(node as Element) : node.textContent)),
  };
}

describe('plain markup of Mantine components', () => {
  it.each([
    ['green', 'Attivo'],
    ['red', 'Bloccato'],
  ])('draws a status badge as Mantine’s light Badge of that colour (%s)', (color, label) => {
    renderWithProviders(
      <>
        <div data-testid="ours">
          <StatusBadge color={color}>{label}</StatusBadge>
        </div>
        <div data-testid="mantine">
          <Badge color={color} variant="light">
            {label}
          </Badge>
        </div>
      </>,
    );
    const ours = screen.getByTestId('ours').firstElementChild!;
    expect(markup(ours)).toEqual(markup(screen.getByTestId('mantine').firstElementChild!));
    expect(ours.getAttribute('style')).toContain(`--mantine-color-${color}-light`);
  });

  it('draws a row’s link as Mantine’s Anchor, and moves inside the app on a plain click only', () => {
    const navigate = vi.fn();
    renderWithProviders(
      <InAppNavigation value={navigate}>
        <TextLink to="/customers/1" isStrong>
          Rossi Mario
        </TextLink>
        <Anchor href="/customers/1" fw={500}>
          Rossi Mario
        </Anchor>
      </InAppNavigation>,
    );
    const [ours, mantine] = screen.getAllByRole('link', { name: 'Rossi Mario' });
    expect(markup(ours!)).toEqual(markup(mantine!));

    fireEvent.click(ours!, { ctrlKey: true });
    expect(navigate).not.toHaveBeenCalled();
    expect(fireEvent.click(ours!)).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/customers/1');
  });

  it('draws a menu link as Mantine’s NavLink, active or not, with or without a right section', () => {
    const navigate = vi.fn();
    const onNavigate = vi.fn();
    renderWithProviders(
      <InAppNavigation value={navigate}>
        <nav data-testid="ours">
          <NavMenuLink to="/customers" label="Clienti" icon={<svg />} isActive onNavigate={onNavigate} />
          <NavMenuLink to="/staff" label="Staff" icon={<svg />} rightSection={<b>3</b>} isActive={false} />
        </nav>
        <nav data-testid="mantine">
          <NavLink component="a" href="/customers" label="Clienti" leftSection={<svg />} active aria-current="page" />
          <NavLink component="a" href="/staff" label="Staff" leftSection={<svg />} rightSection={<b>3</b>} />
        </nav>
      </InAppNavigation>,
    );
    const [ours, mantine] = [screen.getByTestId('ours'), screen.getByTestId('mantine')];
    expect(ours.children).toHaveLength(2);
    [...ours.children].forEach((link, index) => expect(markup(link)).toEqual(markup(mantine.children[index]!)));

    fireEvent.click(ours.children[0]!);
    expect(navigate).toHaveBeenCalledWith('/customers');
    expect(onNavigate).toHaveBeenCalledOnce();
  });
});
