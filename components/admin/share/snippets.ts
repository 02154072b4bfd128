// The code the Share & embed page hands out: the subscribe link, the iframe snippet with its small
// sizing script, and a plain HTML form that posts to `subscribe` and works with JavaScript off.
import {
  EMBED_HEIGHT_MESSAGE,
  embedPath,
  parseButtonText,
  type EmbedOptions,
} from '../../embed/options';

/** HTML-escapes text for an attribute or element body of a snippet. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The home page with the list pre-checked (what a QR code or a social post points to). */
export function subscribeLink(siteOrigin: string, slug: string): string {
  return `${siteOrigin}/?list=${encodeURIComponent(slug)}`;
}

export function embedUrl(siteOrigin: string, options: EmbedOptions): string {
  return `${siteOrigin}${embedPath(options)}`;
}

/**
 * The iframe and the host-page script that sizes it. The script trusts a height only from the
 * embed's own origin and only for the iframe that sent it; without JavaScript the iframe keeps
 * its starting height, tall enough for the form.
 */
export function iframeSnippet(siteOrigin: string, options: EmbedOptions, listName: string): string {
  const src = escapeHtml(embedUrl(siteOrigin, options));
  const title = escapeHtml(`Sign up to ${listName}`);
  return `<iframe src="${src}" title="${title}" data-postbox-embed loading="lazy" style="display:block;width:100%;max-width:480px;height:460px;border:0;color-scheme:normal"></iframe>
<script>
(function () {
  var origin = ${JSON.stringify(siteOrigin)};
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.origin !== origin || !data || data.type !== ${JSON.stringify(EMBED_HEIGHT_MESSAGE)}) return;
    var height = Number(data.height);
    if (!(height > 0 && height < 10000)) return;
    var frames = document.querySelectorAll("iframe[data-postbox-embed]");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) frames[i].style.height = Math.ceil(height) + "px";
    }
  });
})();
</script>`;
}

/** A form any page can paste: it posts to `subscribe`, which redirects to the site's outcome pages. */
export function formSnippet(functionUrl: string, options: EmbedOptions, listName: string): string {
  const button = escapeHtml(parseButtonText(options.buttonText));
  return `<form action="${escapeHtml(functionUrl)}" method="post" accept-charset="utf-8">
  <p><strong>${escapeHtml(listName)}</strong></p>
  <input type="hidden" name="list" value="${escapeHtml(options.list)}">
  <p>
    <label for="postbox-email">Email</label><br>
    <input id="postbox-email" type="email" name="email" required maxlength="254" autocomplete="email">
  </p>
  <p>
    <label for="postbox-name">Name (optional)</label><br>
    <input id="postbox-name" type="text" name="name" maxlength="100" autocomplete="name">
  </p>
  <div style="position:absolute;left:-10000px" aria-hidden="true">
    <label>Leave this empty <input type="text" name="website" tabindex="-1" autocomplete="off"></label>
  </div>
  <button type="submit">${button}</button>
</form>`;
}
