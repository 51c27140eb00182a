/** The wallet feature's query keys and API paths (issue 27). */
export const ADMIN_PATH = '/admin';
export const walletKeys = {
  status: ['wallet', 'status'] as const,
  cardLink: (membershipId: string) => ['wallet', 'card-link', membershipId] as const,
};
export const membershipPath = (membershipId: string) => `${ADMIN_PATH}/memberships/${membershipId}`;
