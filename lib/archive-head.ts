// The head tags of a pre-rendered issue (lib/archive-meta.ts): canonical URL, description, Open
// Graph and Twitter card, as elements the page puts in next/head (and a test renders on its own).
import { createElement, type ReactElement } from 'react';
import type { IssueMeta } from './archive-meta';

const meta = (attribute: 'name' | 'property', key: string, content: string) =>
  createElement('meta', { key, [attribute]: key, content });

export function issueHeadTags(info: IssueMeta): ReactElement[] {
  const tags: ReactElement[] = [
    createElement('link', { key: 'canonical', rel: 'canonical', href: info.canonical }),
    meta('name', 'description', info.description),
    meta('property', 'og:type', 'article'),
    meta('property', 'og:title', info.title),
    meta('property', 'og:description', info.description),
    meta('property', 'og:url', info.canonical),
    meta('property', 'article:published_time', info.publishedAt),
    meta('name', 'twitter:card', info.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', info.title),
    meta('name', 'twitter:description', info.description),
  ];
  if (info.siteName) tags.push(meta('property', 'og:site_name', info.siteName));
  if (info.image) {
    tags.push(meta('property', 'og:image', info.image), meta('name', 'twitter:image', info.image));
  }
  return tags;
}
