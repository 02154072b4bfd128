// The few lucide icons the home page and the embed form show before anyone interacts, as plain
// SVG: the markup lucide-react renders (classes included; icons.test.ts compares the two), without
// its Icon component, context and attribute builder (~1.5 KB gzip on every page with the form).
// Icons of the team's pages and of states that load later keep coming from lucide-react. Plain
// createElement rather than JSX, so the unit test (Vitest) imports it as it is.
import { createElement, type SVGProps } from 'react';

/** An SVG element of the icon and its attributes, as lucide's icon data lists them. */
type Shape = ['path' | 'circle' | 'rect' | 'line', Record<string, string>];

type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>;

function icon(classes: string, shapes: Shape[]) {
  function LeanIcon({ className, ...rest }: IconProps) {
    return createElement(
      'svg',
      {
        xmlns: 'http://www.w3.org/2000/svg',
        width: 24,
        height: 24,
        viewBox: '0 0 24 24',
        fill: 'none',
        stroke: 'currentColor',
        strokeWidth: 2,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: className ? `lucide ${classes} ${className}` : `lucide ${classes}`,
        // Decorative unless labelled, as lucide-react has it.
        ...(Object.keys(rest).some((k) => k.startsWith('aria-') || k === 'role' || k === 'title')
          ? {}
          : { 'aria-hidden': 'true' }),
        ...rest,
      },
      ...shapes.map(([tag, attrs]) => createElement(tag, attrs)),
    );
  }
  return LeanIcon;
}

// lucide-react 1.x's icon data (ISC licence), with the class names it gives each icon.
export const Mail = icon('lucide-mail', [
  ['path', { d: 'm22 7-8.991 5.727a2 2 0 0 1-2.009 0L2 7' }],
  ['rect', { x: '2', y: '4', width: '20', height: '16', rx: '2' }],
]);
export const ArrowRight = icon('lucide-arrow-right', [
  ['path', { d: 'M5 12h14' }],
  ['path', { d: 'm12 5 7 7-7 7' }],
]);
export const CircleAlert = icon(
  'lucide-circle-exclamation-point lucide-alert-circle lucide-circle-alert',
  [
    ['circle', { cx: '12', cy: '12', r: '10' }],
    ['line', { x1: '12', x2: '12', y1: '8', y2: '12' }],
    ['line', { x1: '12', x2: '12.01', y1: '16', y2: '16' }],
  ],
);
export const CircleCheck = icon('lucide-circle-check lucide-check-circle-2', [
  ['circle', { cx: '12', cy: '12', r: '10' }],
  ['path', { d: 'm16 9-5.5 5.5L8 12' }],
]);
export const LoaderCircle = icon('lucide-loader-circle lucide-loader-2', [
  ['path', { d: 'M21 12a9 9 0 1 1-6.219-8.56' }],
]);
export const Users = icon('lucide-users', [
  ['path', { d: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2' }],
  ['path', { d: 'M16 3.128a4 4 0 0 1 0 7.744' }],
  ['path', { d: 'M22 21v-2a4 4 0 0 0-3-3.87' }],
  ['circle', { cx: '9', cy: '7', r: '4' }],
]);
