import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '@sf/contract/integration';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { ApiKeysPage } from './api-keys-page.tsx';

const key: ApiKey = {
  id: 'k1',
  name: 'Cassa bar',
  kind: 'merchant',
  merchantId: null,
  merchantName: 'Bar Centrale',
  scopes: ['purchases:write'],
  prefix: 'sfk_AbCd',
  createdAt: '2026-11-26T10:15:00.000Z',
  createdBy: 'admin@demo.test',
  lastUsedAt: null,
  revokedAt: null,
  status: 'active',
};

describe('API keys', { timeout: 30_000 }, () => {
  it('shows dates in the app’s one format: four-digit year, the profile’s time zone', async () => {
    server.use(http.get('/api/admin/api-keys', () => HttpResponse.json({ items: [key], total: 1, page: 1, pageSize: 25 })));
    renderWithProviders(<ApiKeysPage merchantOptions={[]} />, { route: '/api-keys', user: { role: 'admin', timeZone: 'Europe/Rome' } });
    const row = (await screen.findByText('Cassa bar')).closest('tr')!;
    // 10:15 UTC is 11:15 in Rome; the other screens write "26/11/2026, 11:15".
    expect(within(row).getByText('26/11/2026, 11:15')).toBeInTheDocument();
  });
});
