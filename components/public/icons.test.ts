// The lean icons render exactly what lucide-react renders for the same icon and props, so swapping
// one for the other changes no pixel (and a lucide upgrade that changes an icon fails here).
import * as lucide from 'lucide-react';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import * as lean from './icons';

const markup = (
  component: ComponentType<Record<string, unknown>>,
  props: Record<string, unknown>,
) => renderToStaticMarkup(createElement(component, props));

describe('lean icons', () => {
  for (const name of Object.keys(lean) as Array<keyof typeof lean>) {
    it(`${name} matches lucide-react`, () => {
      const theirs = lucide[name] as unknown as ComponentType<Record<string, unknown>>;
      const ours = lean[name] as unknown as ComponentType<Record<string, unknown>>;
      for (const props of [{}, { className: 'x y', 'aria-hidden': 'true' }]) {
        expect(markup(ours, props)).toBe(markup(theirs, props));
      }
    });
  }
});
