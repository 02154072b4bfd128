// The embed page's script as the exported HTML runs it (bundled at build time by
// lib/build/embed-script.ts and inlined after the page's markup): the page's data and templates are
// already parsed when it runs.
import { startEmbed, type EmbedData } from './client';

const root = document.getElementById('embed');
const templates = document.getElementById('embed-templates');
const data = document.getElementById('embed-data');
if (root && templates && data) {
  // Out of the document: clones of its parts keep their ids unique.
  templates.remove();
  startEmbed(root, templates, JSON.parse(data.textContent ?? '{}') as EmbedData);
}
