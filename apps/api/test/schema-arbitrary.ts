import fc from 'fast-check';

export type JsonSchemaNode = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
};

/** Text that databases and sanitisers trip over, at the lengths a schema allows. */
function text(node: JsonSchemaNode): fc.Arbitrary<string> {
  const min = node.minLength ?? 0;
  const max = Math.min(node.maxLength ?? 60, Math.max(min, 60));
  const fit = (value: string) => value.padEnd(min, 'x').slice(0, Math.max(min, Math.min(value.length, node.maxLength ?? Infinity)));
  return fc.oneof(
    fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
    fc.string({ unit: 'binary', minLength: min, maxLength: max }),
    fc.constantFrom('nul\u0000byte', '\ud800 lone surrogate', 'Ω≈ç√ 😀 عربى', "O'Brien\"; --", '<b onmouseover=x>b</b>').map(fit),
  );
}

/**
 * Values that pass a route's schema (mostly): they get past validation into the service and SQL,
 * where a fuzzer sending junk never arrives.
 */
export function arbitraryFromSchema(node: JsonSchemaNode, depth = 0): fc.Arbitrary<unknown> {
  if (node.const !== undefined) return fc.constant(node.const);
  if (node.enum) return fc.constantFrom(...node.enum);
  const variants = node.anyOf ?? node.oneOf;
  if (variants) return fc.oneof(...variants.map((variant) => arbitraryFromSchema(variant, depth)));
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string':
      if (node.format === 'date-time') {
        return fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
      }
      if (node.format === 'email') return fc.emailAddress().filter((email) => email.length <= (node.maxLength ?? 320));
      if (node.format === 'uuid') return fc.uuid();
      return text(node);
    case 'integer':
      return fc.integer({ min: Math.max(node.minimum ?? -(2 ** 31), Number.MIN_SAFE_INTEGER), max: Math.min(node.maximum ?? 2 ** 31, Number.MAX_SAFE_INTEGER) });
    case 'number':
      return fc.double({ min: node.minimum ?? -1e9, max: node.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(arbitraryFromSchema(node.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = node.properties ?? {};
      if (depth > 3) return fc.constant({});
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, arbitraryFromSchema(child, depth + 1)])),
        { requiredKeys: (node.required ?? []).filter((name) => name in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
