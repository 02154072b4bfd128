// The fast path renders exactly what LiquidJS renders, or declines (null) so LiquidJS does.
import { Liquid, Tokenizer } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import { compileFast } from './fast-liquid';
import { createLiquid, type LiquidClass } from './merge-tags';
import type { TokenizerClass } from './liquid-source';

const engines = {
  html: createLiquid(Liquid as unknown as LiquidClass, 'html'),
  text: createLiquid(Liquid as unknown as LiquidClass, 'text'),
};

const scopes: object[] = [
  {},
  { subscriber: {} },
  { subscriber: { name: 'Ada <Lovelace> & "co" \'x\'', email: 'a@b.c', attributes: {} } },
  {
    subscriber: { name: '', attributes: { plan: 'pro', n: 0, big: 12.5 } },
    waitlist: { position: 3 },
  },
  { subscriber: { name: null, attributes: { plan: null } } },
  { subscriber: Object.create({ name: 'inherited' }) },
];

const templates = [
  'Hi {{ subscriber.name }}!',
  'Hi {{subscriber.name|default:"friend"}}, {{ subscriber.email }}',
  "{{ subscriber.name | default: 'x & y' }} at {{ waitlist.position }}",
  '{{ subscriber.attributes.plan | default: "free" }} {{ subscriber.attributes.n }} {{ subscriber.attributes.big }}',
  '<p>{{ a.b.c }}</p> no tags here',
  '',
];

describe('compileFast', () => {
  for (const mode of ['html', 'text'] as const) {
    it(`matches LiquidJS (${mode}) for every plain-variable template and scope`, () => {
      const engine = engines[mode];
      for (const template of templates) {
        const fast = compileFast(
          Tokenizer as unknown as TokenizerClass,
          engine.options,
          template,
          mode === 'html',
        );
        expect(fast, template).not.toBeNull();
        const parsed = engine.parse(template);
        for (const scope of scopes) {
          expect([template, fast!(scope)]).toEqual([template, engine.renderSync(parsed, scope)]);
        }
      }
    });
  }

  it('declines tags, other filters and whitespace control, leaving them to LiquidJS', () => {
    for (const template of [
      '{% if x %}a{% endif %}',
      '{{ x | upcase }}',
      '{{- x }}',
      '{{ x | default: y }}',
      '{{ x["a"] }}',
      '{{ "lit" }}',
    ]) {
      expect(
        compileFast(Tokenizer as unknown as TokenizerClass, engines.html.options, template, true),
      ).toBeNull();
    }
  });

  it('declines values only LiquidJS renders exactly (booleans, arrays, objects)', () => {
    const fast = compileFast(
      Tokenizer as unknown as TokenizerClass,
      engines.html.options,
      '{{ x }}',
      true,
    )!;
    for (const x of [true, false, [1, 2], { a: 1 }]) expect(fast({ x })).toBeNull();
  });
});
