import { CARD_LINK_QUERY_ROOT } from '../../../lib/query-client.ts';

/** The wallet feature's query keys and API paths (issue 27). A card link's is under CARD_LINK_QUERY_ROOT, which every successful write invalidates. */
export const ADMIN_PATH = '/admin';
export const walletKeys = {
  status: ['wallet', 'status'] as const,
  cardLink: (membershipId: string) => [CARD_LINK_QUERY_ROOT, membershipId] as const,
};
export const membershipPath = (membershipId: string) => `${ADMIN_PATH}/memberships/${membershipId}`;
