import { describe, expect, it } from 'vitest';
import { cardHolderOf } from './card-holder.ts';

const anna = { id: 'a', cardNumber: '2790000003727' };
const marco = { id: 'm', cardNumber: '2790000011217' };

describe('the customer a search names by their card', () => {
  it('is the only answer whose card the search names, scanned or typed whole', () => {
    expect(cardHolderOf('2790000003727-CZWYVTZFKV', [anna])).toBe(anna);
    expect(cardHolderOf(' 2790000003727-czwyvtzfkv ', [anna])).toBe(anna);
    expect(cardHolderOf('2790000003727', [anna])).toBe(anna);
  });

  it('is none for another search, another card, or more than one answer', () => {
    expect(cardHolderOf('barbieri', [anna])).toBeUndefined();
    expect(cardHolderOf('279000000372', [anna])).toBeUndefined();
    expect(cardHolderOf('2790000011217-KCWXB6VHUM', [anna])).toBeUndefined();
    expect(cardHolderOf('2790000003727', [anna, marco])).toBeUndefined();
    expect(cardHolderOf('2790000003727', undefined)).toBeUndefined();
    expect(cardHolderOf(undefined, [anna])).toBeUndefined();
  });
});
