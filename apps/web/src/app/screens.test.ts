import { describe, expect, it } from 'vitest';
import { SCREENS } from './screens.ts';

// The pages' code as text: the features cannot import the registry (they never import the app shell),
// so the parameters they read are compared with the ones their screens declare.
const sources = import.meta.glob<string>(['../features/**/*.{ts,tsx}', '!../features/**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });
const code = Object.values(sources).join('\n');

const declared = new Set(Object.values(SCREENS).flatMap((screen): readonly string[] => ('drawers' in screen ? screen.drawers : [])));

describe("the screens' drawer parameters (what the shell's focus reads)", () => {
  it('declares every parameter a page opens a drawer by', () => {
    const used = [...code.matchAll(/useDrawerParam\(\s*'([^']+)'/g)].map(([, name]) => name);
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((name) => name !== undefined && !declared.has(name))).toEqual([]);
  });

  it('declares only parameters some page reads', () => {
    expect([...declared].filter((name) => !code.includes(`useDrawerParam('${name}')`) && !code.includes(`searchParams.get('${name}')`))).toEqual([]);
  });
});
