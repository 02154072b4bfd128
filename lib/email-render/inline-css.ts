// CSS inlining for the emails (issue 21): juice moves a stylesheet into `style` attributes, because
// Gmail and Outlook ignore or strip <style> blocks. Both runtimes pass in the same pinned juice
// (the site's npm build, the edge functions' npm: import), and the options live here, so the
// preview and the sent email are inlined byte for byte alike. Import-free (see merge-tags.ts).

/** juice, as far as Postbox uses it (its client build: no file or network access). */
export interface Juice {
  inlineContent(html: string, css: string, options?: Record<string, unknown>): string;
}

const OPTIONS = {
  // Width and height attributes are written by hand where Outlook needs them; juice would turn
  // `width:auto` into `width="auto"`.
  applyWidthAttributes: false,
  applyHeightAttributes: false,
  // background-color → bgcolor and text-align → align on table cells, which Outlook reads.
  applyAttributesTableElements: true,
  preserveImportant: true,
} as const;

/** `html` with every rule of `css` that matches written into the elements' `style` attributes. */
export function inlineCss(juice: Juice, html: string, css: string): string {
  return juice.inlineContent(html, css, OPTIONS);
}
