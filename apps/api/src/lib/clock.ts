/** Time as the app sees it; tests replace it to jump days ahead (the 10-day session limit). */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };
